/**
 * The add-in beside its floor: each case of a formula or an import, on the modelled clock (clock.ts),
 * beside the same requests with no add-in code at all. The floor replays, execution by execution,
 * the very fetch and fetchAll batches the add-in sent (recorded by EmulatorOptions.onFetch) in a
 * script that only sends them and reads their text; a wave of filled-down cells has the ideal
 * wave of sheet-scale.ts (floorWave) as its floor. `ratio` is the add-in's time over its floor's:
 * what is left above 1 is the add-in's own work (compiling the bundle, parsing answers, building
 * and reading the snapshot, the cache, the sheet) and its service calls.
 */
import type { Ledger } from '../dev/emulator/execution';
import type { ExecutionKind } from '../dev/emulator/execution';
import { Emulator } from '../dev/emulator/runtime';
import type { ImportInput } from '../src/contract';
import type { CellResult } from '../dev/emulator/hosts';
import { addin, fillDownAndRecalculate } from '../test/helpers/addin';
import { runImport, saveImport } from '../test/helpers/imports';
import { DEMO_KEY, type RunningService } from '../test/helpers/service';
import { modelled } from './clock';
import { BENCH_FILTERS, BENCH_SORT, importService } from './imports';
import { activeIds, floorWave } from './sheet-scale';
import { IMPORT_RUNS, median, medianRunAsync, RUNS, runsHere, WARM_RUNS, WAVE_RUNS } from './typical';

const byMs = (f: FloorFigure) => f.ms;

export interface FloorFigure {
  name: string;
  /** The add-in's time: its executions one after another, or a wave's span from start to last end. */
  ms: number;
  floorMs: number;
  ratio: number;
  /** A wave's executions' time summed (exec-s), beside its floor's. */
  execMs?: number;
  floorExecMs?: number;
  execRatio?: number;
  executions: number;
  fetches: number;
  fetchAllCalls: number;
  /** Where the case should be: at most this ratio, or under this time. */
  target: string;
  error?: string;
}

const REPLAY = `
function replay(batches) {
  var n = 0;
  for (var i = 0; i < batches.length; i++) {
    var rs = UrlFetchApp.fetchAll(batches[i].map(function (u) { return { url: u, muteHttpExceptions: true }; }));
    for (var k = 0; k < rs.length; k++) n += rs[k].getContentText().length;
  }
  return n;
}`;

/** Records each execution's fetch batches (URLs, in order). */
class Recorder {
  private readonly batches = new Map<Ledger, string[][]>();
  readonly onFetch = (ledger: Ledger, urls: string[]) => {
    const list = this.batches.get(ledger) ?? [];
    list.push(urls);
    this.batches.set(ledger, list);
  };
  of(ledger: Ledger): string[][] {
    return this.batches.get(ledger) ?? [];
  }
}

const span = (ledgers: Ledger[]) => ledgers.reduce((n, l) => n + l.endedAt - l.startedAt, 0);
const round = (x: number) => Math.round(x);
const ratioOf = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);

/** The floor of executions run one after another: each one's batches replayed as one execution of its kind. */
function replayFloor(ledgers: Ledger[], recorder: Recorder): number {
  const emu = new Emulator(modelled({ code: REPLAY }));
  let ms = 0;
  for (const l of ledgers) {
    const batches = recorder.of(l);
    if (!batches.length) continue;
    const run = emu.run('replay', [batches], { kind: l.kind as ExecutionKind });
    if (run.error) throw new Error(`floor replay: ${run.error}`);
    ms += run.ledger.endedAt - run.ledger.startedAt;
  }
  return ms;
}

function sequential(name: string, ledgers: Ledger[], recorder: Recorder, target: string, error?: string): FloorFigure {
  const ms = span(ledgers);
  const floorMs = replayFloor(ledgers, recorder);
  return {
    name,
    ms: round(ms),
    floorMs: round(floorMs),
    ratio: ratioOf(ms, floorMs),
    executions: ledgers.length,
    fetches: ledgers.reduce((n, l) => n + l.fetches, 0),
    fetchAllCalls: ledgers.reduce((n, l) => n + l.fetchAllCalls, 0),
    target,
    ...(error ? { error } : {}),
  };
}

/** The analyst's conditions for LP_FILTER (a range: field | operator | value), as the import's BENCH_FILTERS. */
const FILTER_ROWS = BENCH_FILTERS.map((c) => [c.field, c.op, Array.isArray(c.value) ? c.value.join(';') : c.value]);
const FILTER_SORT = BENCH_SORT.map((s) => `${s.field}${s.descending ? ' desc' : ''}`).join(', ');

/** Formula cases over a list of `partners` (about 0.846 of them active). */
export async function benchFloorFormulas(svc: RunningService, quick: boolean): Promise<FloorFigure[]> {
  const out: FloorFigure[] = [];
  const ids = await activeIds(svc, quick ? 300 : 10000);
  const cell = (recorder: Recorder) => addin(svc.url, DEMO_KEY, modelled({ onFetch: recorder.onFetch }));
  const runs = quick ? 1 : runsHere(RUNS);
  /** A case run cold in a fresh add-in, then (warm) WARM_RUNS times again in the same one, `runs` times: the median run of each (bench/typical.ts). */
  const coldAndWarm = (name: string, call: (a: ReturnType<typeof cell>) => CellResult, warm: boolean) => {
    const colds: FloorFigure[] = [];
    const warms: FloorFigure[] = [];
    for (let i = 0; i < runs; i++) {
      const recorder = new Recorder();
      const a = cell(recorder);
      const r = call(a);
      colds.push(sequential(`${name}, cold`, [r.run.ledger], recorder, '≤ 2.5×', r.error));
      for (let k = 0; warm && k < (quick ? 1 : WARM_RUNS); k++) {
        const w = call(a);
        warms.push(sequential(`${name}, warm`, [w.run.ledger], recorder, '< 0.5 s', w.error));
      }
    }
    out.push(median(colds, byMs));
    if (warm) out.push(median(warms, byMs));
  };
  for (const size of quick ? [100, 300] : [1000, 10000]) {
    const range = ids.slice(0, size).map((id) => [id]);
    coldAndWarm(
      `LP_GET over ${size} ids`,
      (a) => a.cell('LP_GET', range, 'fullName,firm'),
      size === (quick ? 300 : 10000),
    );
  }
  const args = [FILTER_ROWS, 'fullName,firm,ticketSize', FILTER_SORT, 20000];
  coldAndWarm('LP_FILTER, 3 conditions, 2 sort keys', (a) => a.cell('LP_FILTER', ...args), true);

  // The fill-down, 10 at once, cold: the wave's span and its executions' sum, each beside the ideal wave's.
  const fill = quick ? ids.slice(0, 50) : ids.filter((_, i) => i % 10 === 3);
  out.push(
    await medianRunAsync(
      quick ? 1 : runsHere(WAVE_RUNS),
      async () => {
        const b = addin(svc.url, null, modelled());
        b.emu.run('saveApiKey', [DEMO_KEY, svc.url], { kind: 'sidebar' });
        b.emu.run('getSidebarState', [], { kind: 'sidebar' });
        const start = b.emu.clock.now();
        const cells = await fillDownAndRecalculate(
          b.emu,
          { sheet: 'Fill', ids: fill, name: 'LP_GET', rest: ['fullName'] },
          { concurrency: 10 },
        );
        const waveMs = b.emu.clock.now() - start;
        const floor = await floorWave(svc, fill.length, 10);
        const floorMs = Math.max(...floor.map((l) => l.endedAt)) - Math.min(...floor.map((l) => l.startedAt));
        const ledgers = cells.map((c) => c.run.ledger);
        const bad = cells.filter((c) => c.error !== undefined);
        return {
          name: `fill-down: ${fill.length} single-id formulas, cold, 10 at once`,
          ms: round(waveMs),
          floorMs: round(floorMs),
          ratio: ratioOf(waveMs, floorMs),
          execMs: round(span(ledgers)),
          floorExecMs: round(span(floor)),
          execRatio: ratioOf(span(ledgers), span(floor)),
          executions: ledgers.length,
          fetches: ledgers.reduce((n, l) => n + l.fetches, 0),
          fetchAllCalls: ledgers.reduce((n, l) => n + l.fetchAllCalls, 0),
          target: '≤ 1.6×',
          ...(bad.length ? { error: `${bad.length} cells failed: ${bad[0].error}` } : {}),
        };
      },
      byMs,
    ),
  );
  return out;
}

/** The sidebar import of every active partner (of `partners`), pages of 100, driven as the sidebar does (each step as long as its time allows), beside the same requests replayed. */
export async function benchFloorImport(
  partners: number,
  latencyMs: number,
  fields: ImportInput['fields'],
  target: string,
  runs = 1,
): Promise<FloorFigure> {
  const svc = await importService(partners, latencyMs);
  try {
    return await medianRunAsync(
      runs,
      async () => {
        const recorder = new Recorder();
        const a = addin(svc.url, DEMO_KEY, modelled({ onFetch: recorder.onFetch }));
        const id = saveImport(a.emu, { sheetName: 'Partners', fields });
        const before = a.emu.history.length;
        const steps = runImport(a.emu, id, 1000);
        const last = steps[steps.length - 1];
        const ledgers = a.emu.history.slice(before).filter((l) => l.kind === 'sidebar');
        return sequential(
          `import of ${last.totalItems} partners (${fields?.length} fields) from the sidebar`,
          ledgers,
          recorder,
          target,
          last.status === 'done' ? undefined : `${last.status}: ${last.message}`,
        );
      },
      byMs,
    );
  } finally {
    await svc.stop();
  }
}

/** The fields the imports of the floor group write (as the import group's). */
const IMPORT_FIELDS = ['id', 'fullName', 'firm', 'ticketSize', 'updatedAt'];

/** The floor group: the formula cases over about 10,000 active partners, then imports of 10,045 and 50,205 from the sidebar. */
export async function benchFloors(quick: boolean, latencyMs: number): Promise<FloorFigure[]> {
  const svc = await importService(quick ? 400 : 11820, latencyMs);
  let figures: FloorFigure[];
  try {
    figures = await benchFloorFormulas(svc, quick);
  } finally {
    await svc.stop();
  }
  for (const partners of quick ? [400] : [11820, 59102])
    figures.push(
      await benchFloorImport(partners, latencyMs, IMPORT_FIELDS, '≤ 2.5×', quick ? 1 : runsHere(IMPORT_RUNS)),
    );
  return figures;
}
