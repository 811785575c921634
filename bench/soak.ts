/**
 * `npm run soak`: seeded imports and formula batches against the reference service with about
 * 20 % of requests failing (500, 503, 429 with Retry-After, truncated JSON, answers slower than
 * the fetch timeout) and the list changing under running imports. Every import must end complete
 * and correct (ids exactly the service's active list, no duplicates) or failed with the previous
 * data intact and a clear message; every formula row must be the right record, a clear error, or
 * a marked stale value, never a wrong one. A failed import must say what failed. With
 * `--outage`, the service goes hard down (every request 503) once each saved import has run once:
 * every later import must fail with its sheet intact and every formula row be a stale copy or a
 * clear error. `--sweep N` runs the 30 %-faults formula case on seeds 1..N instead. Loopback
 * only, bounded in count and time; exits non-zero on any loss.
 */
import { parseArgs } from 'node:util';
import { addin } from '../test/helpers/addin';
import { runImport, saveImport, sheet } from '../test/helpers/imports';
import { startService } from '../dev/service/spawn';
import { partnerId } from '../dev/service/generate';

const { values } = parseArgs({ options: { imports: { type: 'string' }, formulas: { type: 'string' }, seconds: { type: 'string' }, seed: { type: 'string' }, outage: { type: 'boolean' }, sweep: { type: 'string' } } });
const OUTAGE = values.outage === true;
const IMPORTS = Number(values.imports ?? 200);
const FORMULAS = Number(values.formulas ?? 200);
const DEADLINE = Date.now() + Number(values.seconds ?? 900) * 1000;
const SEED = Number(values.seed ?? 1);
const STARTED = Date.now();

/** A failed import's message names the failure (the service's answer, or why the list did not add up) and says the sheet is intact. */
function saysWhatFailed(message: string, sheetName: string): boolean {
  const why = /^(Import failed: (The data service|Rate limited|Could not reach|The API key|No API key).+|Incomplete after \d+ reads of the list: .+)/;
  return why.test(message) && message.endsWith(` The sheet "${sheetName}" keeps its previous data.`);
}

/**
 * `--sweep N`: the 30 %-faults formula case (60 ids, 10 % each of 500, 503 and 429) on the
 * service's seeds 1..N, each a cold range in a fresh spreadsheet: every seed must load every row.
 */
async function sweep(seeds: number): Promise<number> {
  const svc = await startService(['--partners', '300']);
  const bad: string[] = [];
  try {
    const ids = Array.from({ length: 60 }, (_, i) => [partnerId(100 + i)]);
    for (let seed = 1; seed <= seeds; seed++) {
      await svc.config({ faults: { error500: 0.1, error503: 0.1, rateLimit: 0.1, retryAfterSeconds: 1 }, seed });
      const cell = addin(svc.url).cell('LP_GET', ids, 'id');
      if (cell.error !== undefined || JSON.stringify(cell.value) !== JSON.stringify(ids)) bad.push(`seed ${seed}: ${cell.error ?? 'rows differ'}`);
    }
  } finally {
    await svc.stop();
  }
  console.log(`fault sweep: ${seeds - bad.length} of ${seeds} seeds loaded all 60 rows`);
  for (const b of bad) console.log(`FAILED ${b}`);
  return bad.length ? 1 : 0;
}

async function main(): Promise<number> {
  if (values.sweep) return sweep(Number(values.sweep));
  const svc = await startService(['--partners', '300', '--max-page-size', '20', '--seed', String(SEED), '--error500', '0.05', '--error503', '0.04', '--rate-limit', '0.05',
    '--retry-after', '1', '--truncated', '0.04', '--slow', '0.02', '--slow-ms', '700', '--churn', '0.03']);
  const get = async <T>(path: string): Promise<T> => (await (await fetch(`${svc.url}${path}`)).json()) as T;
  const counts = { importsDone: 0, importsFailedIntact: 0, importLosses: 0, rowsOk: 0, rowsError: 0, rowsStale: 0, rowLosses: 0 };
  const losses: string[] = [];
  const failures: string[] = [];
  try {
    const a = addin(svc.url, undefined, { fetchTimeoutMs: 500 });
    const specs = Array.from({ length: 4 }, (_, i) => saveImport(a.emu, { sheetName: `Soak ${i}`, fields: ['id', 'fullName', 'upvotes'], mode: i % 2 ? 'merge' : 'replace' }));
    for (let n = 0; n < IMPORTS && Date.now() < DEADLINE; n++) {
      const id = specs[n % specs.length];
      const name = `Soak ${n % specs.length}`;
      if (n % 25 === 24) await svc.mutate({ reorder: 'shuffle' });
      if (OUTAGE && n === specs.length) await svc.config({ faults: { error500: 0, error503: 1, rateLimit: 0, truncated: 0, slow: 0, churn: 0 } });
      const before = JSON.stringify(sheet(a.emu, name));
      const steps = runImport(a.emu, id);
      const last = steps[steps.length - 1];
      const table = sheet(a.emu, name);
      if (last.status === 'done') {
        const active = new Set(await get<string[]>('/__admin/active-ids'));
        const ids = table.slice(1).map((r) => String(r[0]));
        const activeRows = name.endsWith('0') || name.endsWith('2') ? ids : ids.filter((x) => active.has(x));
        const ok = new Set(ids).size === ids.length && activeRows.length === active.size && activeRows.every((x) => active.has(x));
        if (ok) counts.importsDone++;
        else {
          counts.importLosses++;
          losses.push(`import ${n} (${name}): ${ids.length} rows, ${new Set(ids).size} distinct, service lists ${active.size}`);
        }
      } else if (JSON.stringify(table) === before && saysWhatFailed(last.message, name)) {
        counts.importsFailedIntact++;
        failures.push(`import ${n} (${name}): ${last.message}`);
      }
      else {
        counts.importLosses++;
        losses.push(`import ${n} (${name}) ${last.status} but the sheet changed: ${last.message}`);
      }
    }
    for (let n = 0; n < FORMULAS && Date.now() < DEADLINE; n++) {
      const ids = Array.from({ length: 12 }, (_, i) => (i === 11 ? `nope-${n}` : partnerId((n * 37 + i * 11) % 300)));
      const cell = a.cell('LP_GET', ids.map((x) => [x]), 'id,fullName');
      if (cell.error !== undefined) {
        counts.rowsError += ids.length;
        continue;
      }
      const out = cell.value as unknown[][];
      for (const [i, row] of out.entries()) {
        const text = String(row[0]);
        if (text.startsWith('Error: ')) counts.rowsError++;
        else {
          const truth = await get<{ id: string; fullName: string } | null>(`/__admin/partner?id=${encodeURIComponent(ids[i])}`);
          if (truth && text === truth.id && row[1] === truth.fullName) row.length > 2 && row[2] ? counts.rowsStale++ : counts.rowsOk++;
          else {
            counts.rowLosses++;
            losses.push(`formula ${n} row ${i}: got ${JSON.stringify(row)} for ${ids[i]}`);
          }
        }
      }
      if (n % 20 === 19) a.emu.clock.advance(3_700_000);
    }
    const stats = await svc.stats();
    console.table([{ ...counts, requests: stats.requests, faults: Object.values(stats.faults).reduce((x, y) => x + y, 0) }]);
    console.log('faults injected by kind:', stats.faults);
    console.log(`elapsed ${((Date.now() - STARTED) / 1000).toFixed(0)} s`);
    for (const f of failures.slice(0, 10)) console.log(`FAILED ${f}`);
    for (const l of losses.slice(0, 20)) console.log(`LOSS ${l}`);
    const enough = counts.importsDone + counts.importsFailedIntact >= IMPORTS && counts.rowsOk + counts.rowsError + counts.rowsStale >= FORMULAS * 12;
    if (!enough) console.log('stopped by the time limit before every run was made');
    return losses.length === 0 && enough ? 0 : 1;
  } finally {
    await svc.stop();
  }
}

main().then((code) => process.exit(code));
