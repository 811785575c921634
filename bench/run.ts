/**
 * `npm run bench`: every benchmark against the reference service in a child process with
 * injected latency, each figure beside its naive baseline from the same run. Writes
 * bench/results.json and prints tables. `--quick` is the smoke version `npm test` runs (small
 * sizes, no timing claims). `--latency MS` changes the injected latency (default 100).
 * `--only refresh,formulas` runs only those sections (formulas, sheetScale, refresh, imports, scaling,
 * service) and prints them without writing bench/results.json.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Emulator } from '../dev/emulator/runtime';
import { DEMO_KEY, startService } from '../dev/service/spawn';
import { benchFormulas } from './formulas';
import { benchImport } from './imports';
import { benchRefresh } from './refresh';
import { scalePointInChild } from './scale-point';
import { benchService } from './service';
import { benchSheetScale } from './sheet-scale';

/** Starts the emulator's fetch worker so that no figure includes its start-up. */
function warmUp(url: string): void {
  new Emulator({ code: 'function ping(u) { return UrlFetchApp.fetch(u, { muteHttpExceptions: true }).getResponseCode(); }' }).run('ping', [`${url}/api/limited-partners-data/getLimitedPartnerById?apiKey=${DEMO_KEY}&limitedPartnerId=lp_00001`]);
}

export interface BenchOptions {
  quick: boolean;
  latencyMs: number;
  scale: number[];
  /** Sections to run (all when absent). */
  only?: readonly string[];
}

export const SECTIONS = ['formulas', 'sheetScale', 'refresh', 'imports', 'scaling', 'service'] as const;

export async function runBench(o: BenchOptions): Promise<Record<string, unknown>> {
  const bundleKb = Math.round((statSync(join(__dirname, '../dist/Code.js')).size / 1024) * 10) / 10;
  const want = (section: (typeof SECTIONS)[number]) => !o.only || o.only.includes(section);
  let formulas: ReturnType<typeof benchFormulas> = [];
  if (want('formulas')) {
    const svc = await startService(['--partners', o.quick ? '300' : '2500', '--latency', String(o.latencyMs)]);
    try {
      warmUp(svc.url);
      formulas = benchFormulas(svc, o.quick ? 40 : 1000, o.quick ? 20 : 1000);
    } finally {
      await svc.stop();
    }
  }
  let sheetScale: Awaited<ReturnType<typeof benchSheetScale>> = [];
  if (want('sheetScale')) {
    const svc = await startService(['--partners', o.quick ? '400' : '11800', '--latency', String(o.latencyMs)]);
    try {
      warmUp(svc.url);
      sheetScale = await benchSheetScale(svc, o.quick);
    } finally {
      await svc.stop();
    }
  }
  const refresh = want('refresh') ? benchRefresh(o.quick ? [200] : [1000, 10000, 50000]) : [];
  const imports = want('imports') ? await benchImport(o.quick ? 400 : 11820, o.latencyMs, true) : [];
  const scaling = [];
  if (want('scaling')) for (const n of o.scale) scaling.push(scalePointInChild(n, o.latencyMs));
  const service = o.quick || !want('service') ? [] : [await benchService(2500, true), await benchService(200000, false)];
  return { date: new Date().toISOString(), quick: o.quick, latencyMs: o.latencyMs, bundleKb, formulas, sheetScale, refresh, imports, scaling, service };
}

if (require.main === module) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean' }, latency: { type: 'string' }, scale: { type: 'string' }, only: { type: 'string' } } });
  const quick = !!values.quick;
  const only = values.only?.split(',').map((x) => x.trim());
  const unknown = only?.filter((x) => !(SECTIONS as readonly string[]).includes(x)) ?? [];
  if (unknown.length) throw new Error(`--only takes ${SECTIONS.join(', ')}; not ${unknown.join(', ')}`);
  const scale = (values.scale ?? (quick ? '300' : '1000,10000,50000,100000')).split(',').map(Number);
  runBench({ quick, latencyMs: Number(values.latency ?? 100), scale, only }).then((r) => {
    console.log(`bundle dist/Code.js: ${r.bundleKb} KB (loaded on every custom-function call); injected latency ${r.latencyMs} ms`);
    for (const key of SECTIONS) if ((r[key] as unknown[]).length) console.table(r[key]);
    if (!quick && !only) writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify(r, null, 2)}\n`);
  });
}
