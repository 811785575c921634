/**
 * Formulas at sheet scale at 10,000 active partners, each beside its baseline from
 * the same run:
 * - 1,000 single-id formulas filled down a column (`=LP_GET(A2,"fullName")`, one execution per
 *   cell as Sheets runs them), cold one after another, cold 10 at once (the emulator's concurrent
 *   recalculation), and warm; baseline: the same fill-down with a naive formula that fetches its
 *   one id (what ImportJSON-style formulas do; every cell is a request, cold or warm).
 * - The floor of the fill-down 10 at once: what the same wave costs with no add-in code at all,
 *   only the calls no design can skip. Its first 10 cells share the list's read ideally (cell k
 *   fetches page k+1, learns the page count from it, fetches every 10th page after it, and waits
 *   20 ms at a time until all ten have theirs), and every later cell reads the owner's properties
 *   and one cache value (the key's namespace, then its answer). Not a baseline: a lower bound, to
 *   show how much of the 10-at-once figure is the add-in's own.
 * - `=LP_GET` over 2,000 / 5,000 / 10,000 distinct ids, cold and warm; baseline: the best a
 *   careful script does without us, every id in parallel `fetchAll` batches of 100, no cache.
 */
import { runWave } from '../dev/emulator/concurrent';
import { Emulator } from '../dev/emulator/runtime';
import type { Ledger } from '../dev/emulator/execution';
import { oneShot } from '../dev/service/spawn';
import { addin, fillDownAndRecalculate } from '../test/helpers/addin';
import { DEMO_KEY, type RunningService } from '../test/helpers/service';
import { modelled } from './clock';
import { byEmulated, type Figure, figure, timed } from './formulas';
import { median, RUNS, runsHere, WARM_RUNS, WAVE_RUNS } from './typical';

const NAIVE = `
function naiveOne(base, key, id) {
  var r = UrlFetchApp.fetch(base + '/api/limited-partners-data/getLimitedPartnerById?apiKey=' + encodeURIComponent(key) + '&limitedPartnerId=' + encodeURIComponent(id), { muteHttpExceptions: true });
  return JSON.parse(r.getContentText()).data[0].fullName;
}
function naiveMany(base, key, ids) {
  var out = [];
  for (var i = 0; i < ids.length; i += 100) {
    var rs = UrlFetchApp.fetchAll(ids.slice(i, i + 100).map(function (id) {
      return { url: base + '/api/limited-partners-data/getLimitedPartnerById?apiKey=' + encodeURIComponent(key) + '&limitedPartnerId=' + encodeURIComponent(id), muteHttpExceptions: true };
    }));
    rs.forEach(function (r) { out.push([JSON.parse(r.getContentText()).data[0].fullName]); });
  }
  return out;
}`;

const FLOOR = `
function pageUrl(base, key, p) { return base + '/api/limited-partners-data/getAllActiveLimitedPartners?apiKey=' + encodeURIComponent(key) + '&limit=100&page=' + p; }
function floorCold(base, key, k, shares) {
  PropertiesService.getUserProperties().getProperties();
  var cache = CacheService.getDocumentCache();
  cache.getAll(['answer']);
  var first = JSON.parse(UrlFetchApp.fetch(pageUrl(base, key, k + 1), { muteHttpExceptions: true }).getContentText());
  var pages = first.pagination.totalPages, urls = [];
  for (var p = k + 1 + shares; p <= pages; p += shares) urls.push(pageUrl(base, key, p));
  var read = first.data.length;
  if (urls.length) UrlFetchApp.fetchAll(urls).forEach(function (r) { read += JSON.parse(r.getContentText()).data.length; });
  cache.put('share' + k, String(read));
  var keys = [];
  for (var i = 0; i < shares; i++) keys.push('share' + i);
  while (Object.keys(cache.getAll(keys)).length < shares) Utilities.sleep(20);
  return read;
}
function floorWarm() {
  var ns = PropertiesService.getUserProperties().getProperties();
  return CacheService.getDocumentCache().getAll(['answer' + Object.keys(ns).length]);
}`;

/** The floor of a cold fill-down of `n` cells, `concurrency` at once (see the file's comment). */
export async function floorWave(svc: RunningService, n: number, concurrency: number): Promise<Ledger[]> {
  const first = (await oneShot(
    `${svc.url}/api/limited-partners-data/getAllActiveLimitedPartners?apiKey=${DEMO_KEY}&limit=100&page=1`,
  )) as { pagination: { totalPages: number } };
  const shares = Math.min(concurrency, first.pagination.totalPages);
  const emu = new Emulator(modelled({ code: FLOOR }));
  const kind = { kind: 'custom-function' as const };
  const jobs = [
    ...Array.from({ length: shares }, (_, k) => ({
      name: 'floorCold',
      args: [svc.url, DEMO_KEY, k, shares],
      options: kind,
    })),
    ...Array.from({ length: n - shares }, () => ({ name: 'floorWarm', args: [], options: kind })),
  ];
  const runs = await runWave(emu, jobs, { concurrency });
  const failed = runs.find((r) => r.error !== undefined);
  if (failed) throw new Error(`floor wave: ${failed.error}`);
  return runs.map((r) => r.ledger);
}

export async function activeIds(svc: RunningService, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let p = 1; ids.length < n; p++) {
    const body = (await oneShot(
      `${svc.url}/api/limited-partners-data/getAllActiveLimitedPartners?apiKey=${DEMO_KEY}&limit=100&page=${p}`,
    )) as { data: Array<{ id: string }> };
    if (!body.data.length) break;
    ids.push(...body.data.map((r) => r.id));
  }
  return ids.slice(0, n);
}

const ledgersOf = (cells: Array<{ run: { ledger: Ledger } }>) => cells.map((c) => c.run.ledger);
const errorsOf = (cells: Array<{ error?: string }>) => {
  const bad = cells.filter((c) => c.error !== undefined);
  return bad.length ? `${bad.length} cells failed: ${bad[0].error}` : undefined;
};

export async function benchSheetScale(svc: RunningService, quick: boolean): Promise<Figure[]> {
  const out: Figure[] = [];
  const all = await activeIds(svc, quick ? 300 : 10000);
  const fill = quick ? all.slice(0, 50) : all.filter((_, i) => i % 10 === 3);
  const n = fill.length;
  const runs = quick ? 1 : runsHere(RUNS);
  // As an analyst's spreadsheet is: the key saved in the sidebar for the service's address (which keeps its cache namespace with it), the sidebar open once (which leaves the document settings' cache copy).
  const opened = (emu: Emulator) => {
    emu.run('saveApiKey', [DEMO_KEY, svc.url], { kind: 'sidebar' });
    emu.run('getSidebarState', [], { kind: 'sidebar' });
    return emu;
  };
  const fillDown = async (emu: Emulator, name: string, concurrency: number) => {
    const t = performance.now();
    const cells = await fillDownAndRecalculate(
      emu,
      { sheet: 'Fill', ids: fill, name: 'LP_GET', rest: ['fullName'] },
      { concurrency },
    );
    return figure(name, performance.now() - t, ledgersOf(cells), errorsOf(cells));
  };
  // Each round: one add-in filled down cold one cell at a time, then warm 10 at once; another cold 10 at once. Each figure the median round's (bench/typical.ts).
  const rounds: Figure[][] = [[], [], []];
  for (let round = 0; round < (quick ? 1 : runsHere(WAVE_RUNS)); round++) {
    const emuSeq = opened(addin(svc.url, null, modelled()).emu);
    rounds[0].push(await fillDown(emuSeq, `fill-down: ${n} single-id formulas, cold, one at a time`, 1));
    rounds[1].push(await fillDown(emuSeq, `fill-down: ${n} single-id formulas, warm, 10 at once`, 10));
    const emuConc = opened(addin(svc.url, null, modelled()).emu);
    rounds[2].push(await fillDown(emuConc, `fill-down: ${n} single-id formulas, cold, 10 at once`, 10));
  }
  out.push(...rounds.map((figures) => median(figures, byEmulated)));
  let t = performance.now();
  const floor = await floorWave(svc, n, 10);
  out.push(
    figure(
      `floor: ${n} cells, cold, 10 at once, no add-in code (ideal shared read, then properties + one cache read a cell)`,
      performance.now() - t,
      floor,
    ),
  );
  const naive = new Emulator(modelled({ code: NAIVE }));
  const naiveLedgers: Ledger[] = [];
  t = performance.now();
  for (const id of fill)
    naiveLedgers.push(naive.run('naiveOne', [svc.url, DEMO_KEY, id], { kind: 'custom-function' }).ledger);
  out.push(
    figure(
      `fill-down baseline: ${n} naive formulas, one request each (cold = warm)`,
      performance.now() - t,
      naiveLedgers,
    ),
  );
  for (const size of quick ? [100] : [2000, 5000, 10000]) {
    const ids = all.slice(0, size).map((id) => [id]);
    // Each round a fresh add-in, cold then WARM_RUNS warm; each figure the median run's (bench/typical.ts).
    const colds: Figure[] = [];
    const warms: Figure[] = [];
    for (let round = 0; round < runs; round++) {
      const a = addin(svc.url, null, modelled());
      opened(a.emu);
      colds.push(timed(`LP_GET ${size} distinct ids, cold`, () => a.cell('LP_GET', ids, 'fullName')));
      for (let k = 0; k < (quick ? 1 : WARM_RUNS); k++)
        warms.push(timed(`LP_GET ${size} distinct ids, warm`, () => a.cell('LP_GET', ids, 'fullName')));
    }
    out.push(median(colds, byEmulated), median(warms, byEmulated));
    t = performance.now();
    const base = naive.run('naiveMany', [svc.url, DEMO_KEY, ids.map((r) => r[0])], { kind: 'custom-function' });
    out.push(
      figure(
        `baseline: ${size} ids in parallel fetchAll batches of 100, no cache`,
        performance.now() - t,
        [base.ledger],
        base.error,
      ),
    );
  }
  return out;
}
