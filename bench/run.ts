/**
 * `npm run bench`: every benchmark against the reference service in a child process with
 * injected latency, each figure beside its naive baseline from the same run. Writes
 * bench/results.json and prints tables. `--quick` is the smoke version `npm test` runs (small
 * sizes, no timing claims). `--latency MS` changes the injected latency (default 100).
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_KEY, startService } from '../test/helpers/service';
import { Emulator } from '../dev/emulator/runtime';
import { benchFormulas } from './formulas';
import { benchService } from './service';

/** Starts the emulator's fetch worker so that no figure includes its start-up. */
function warmUp(url: string): void {
  new Emulator({ code: 'function ping(u) { return UrlFetchApp.fetch(u, { muteHttpExceptions: true }).getResponseCode(); }' }).run('ping', [`${url}/api/limited-partners-data/getLimitedPartnerById?apiKey=${DEMO_KEY}&limitedPartnerId=lp_00001`]);
}

export async function runBench(quick: boolean, latencyMs: number): Promise<Record<string, unknown>> {
  const bundleKb = statSync(join(__dirname, '../dist/Code.js')).size / 1024;
  const svc = await startService(['--partners', quick ? '300' : '12000', '--latency', String(latencyMs)]);
  try {
    warmUp(svc.url);
    const formulas = benchFormulas(svc, quick ? 40 : 1000, quick ? 20 : 1000);
    const service = quick ? [] : [await benchService(2500, true), await benchService(200000, false)];
    return { date: new Date().toISOString(), quick, latencyMs, bundleKb: Math.round(bundleKb * 10) / 10, formulas, service };
  } finally {
    await svc.stop();
  }
}

if (require.main === module) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean' }, latency: { type: 'string' } } });
  runBench(!!values.quick, Number(values.latency ?? 100)).then((results) => {
    console.log(`bundle dist/Code.js: ${results.bundleKb} KB; injected latency ${results.latencyMs} ms`);
    console.table(results.formulas);
    if ((results.service as unknown[]).length) console.table(results.service);
    if (!values.quick) writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  });
}
