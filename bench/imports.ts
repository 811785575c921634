/**
 * Import benchmarks: the add-in's import of every active partner beside two naive baselines in
 * the same run, one serial fetch per page at the default limit=10 (written page by page), and one
 * setValue per cell for the same table; the same import filtered on three conditions and sorted,
 * beside the unfiltered one (the median of alternating runs, and what filtering adds); and the scaling curve at growing sizes, run from the
 * scheduled-refresh trigger so that big imports resume across executions as they must in Google;
 * and a sidebar import with and without a rate-limiting service (steps, emulated time, longest step),
 * on the emulator's modelled clock so that its figures repeat on a busy machine.
 */
import { referenceCpuMs } from '../dev/emulator/cpu-speed';
import { Emulator } from '../dev/emulator/runtime';
import type { Ledger } from '../dev/emulator/execution';
import type { ImportInput } from '../src/contract';
import { DEMO_KEY, startService } from '../dev/service/spawn';
import { addin } from '../test/helpers/addin';
import { call, runImport, saveImport } from '../test/helpers/imports';
import { modelled } from './clock';
import { type Figure, figure } from './formulas';

const FIELDS = ['id', 'fullName', 'firm', 'ticketSize', 'updatedAt'];

export interface ImportFigure extends Figure {
  rows: number;
  setValuesCalls: number;
  executions: number;
  /** Cells of the hidden sheet holding the import's record of what it wrote. */
  recordCells?: number;
}

function importFigure(name: string, wallMs: number, ledgers: Ledger[], rows: number, error?: string): ImportFigure {
  return {
    ...figure(name, wallMs, ledgers, error),
    rows,
    setValuesCalls: ledgers.reduce(
      (n, l) => n + (l.calls['Range.setValues'] ?? 0) + (l.calls['Range.setValue'] ?? 0),
      0,
    ),
    executions: ledgers.length,
  };
}

const NAIVE_IMPORT = `
function naiveImport(base, key) {
  var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0], row = 1, page = 1, total = 1;
  while ((page - 1) * 10 < total) {
    var r = JSON.parse(UrlFetchApp.fetch(base + '/api/active-partners-data/getAllActivePartnersData?apiKey=' + encodeURIComponent(key) + '&page=' + page + '&limit=10').getContentText());
    total = r.pagination.totalItems;
    var rows = r.data.map(function (p) { return [p.id, p.fullName, p.firm, p.ticketSize, p.updatedAt]; });
    if (rows.length) { if (row + rows.length > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), 1000); sheet.getRange(row, 1, rows.length, 5).setValues(rows); }
    row += rows.length; page++;
  }
  return row - 1;
}
function naiveCells(rows) {
  var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
  sheet.insertRowsAfter(1000, rows);
  for (var r = 1; r <= rows; r++) for (var c = 1; c <= 5; c++) sheet.getRange(r, c).setValue('v' + r + '.' + c);
  return rows * 5;
}`;

/** Three conditions of the kind analysts keep: regions (a list field), a ticket size, a sector word. */
export const BENCH_FILTERS: NonNullable<ImportInput['filters']> = [
  { field: 'region', op: 'isAnyOf', value: ['europe', 'north america'] },
  { field: 'ticketSize', op: 'atLeast', value: 5_000_000 },
  { field: 'sectorsFocused', op: 'contains', value: 'tech' },
];
/** Three conditions every generated partner meets: the filter's whole cost, with no saving on the write. */
export const BENCH_FILTERS_KEEP_ALL: NonNullable<ImportInput['filters']> = [
  { field: 'id', op: 'startsWith', value: 'lp' },
  { field: 'fullName', op: 'isNotEmpty' },
  { field: 'updatedAt', op: 'atLeast', value: '2000-01-01' },
];
export const BENCH_SORT: NonNullable<ImportInput['sort']> = [
  { field: 'firm' },
  { field: 'ticketSize', descending: true },
];

export interface FilteredImportFigure {
  name: string;
  activePartners: number;
  kept: number;
  runs: number;
  /** Medians over the runs, each in a fresh emulator. */
  wallMs: number;
  emulatedMs: number;
  /** CPU time of this process at the reference speed (cpu-speed.ts: the emulator running the add-in, and its fetch worker; the service is another process). */
  cpuMs: number;
  /**
   * What the filter and sort add to the unfiltered import, in per cent: the median over rounds of
   * each round's ratio to the unfiltered run of the same round (negative: it saves more on the
   * write than it costs), in emulated time and in CPU time.
   */
  addedPercent: number;
  addedCpuPercent: number;
  status: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percent = (x: number) => Math.round(x * 1000) / 10;

/** The reference service an import benchmark reads: `partners` partners, pages of 100, every record built at start. */
export function importService(partners: number, latencyMs: number) {
  return startService([
    '--partners',
    String(partners),
    '--latency',
    String(latencyMs),
    '--max-page-size',
    '100',
    '--preload',
  ]);
}

/**
 * The import of every active partner, unfiltered, then filtered on BENCH_FILTERS and on
 * BENCH_FILTERS_KEEP_ALL (both sorted by BENCH_SORT): `runs` rounds of the three, each round in a
 * rotated order (no variant always runs first), each run in a fresh emulator. Each variant is
 * compared with the unfiltered run of its own round, so the machine's load, which drifts, falls on
 * both sides of each ratio.
 */
export async function benchFilteredImport(
  partners: number,
  latencyMs: number,
  runs: number,
): Promise<FilteredImportFigure[]> {
  const svc = await importService(partners, latencyMs);
  const variants: Array<{ name: string; input: Partial<ImportInput> }> = [
    { name: 'import, unfiltered', input: {} },
    { name: 'import, three conditions and two sort keys', input: { filters: BENCH_FILTERS, sort: BENCH_SORT } },
    {
      name: 'import, three conditions every partner meets and two sort keys',
      input: { filters: BENCH_FILTERS_KEEP_ALL, sort: BENCH_SORT },
    },
  ];
  try {
    const seen = variants.map(() => ({
      wall: [] as number[],
      emulated: [] as number[],
      cpu: [] as number[],
      kept: 0,
      total: 0,
      status: 'done',
    }));
    for (let round = 0; round < runs; round++) {
      for (let k = 0; k < variants.length; k++) {
        const v = (k + round) % variants.length;
        const a = addin(svc.url, DEMO_KEY, modelled());
        const id = saveImport(a.emu, { sheetName: 'Partners', fields: FIELDS, ...variants[v].input });
        const before = a.emu.history.length;
        const cpu = referenceCpuMs();
        const t = performance.now();
        const steps = runImport(a.emu, id);
        const wall = performance.now() - t;
        const used = referenceCpuMs() - cpu;
        const last = steps[steps.length - 1];
        if (last.status !== 'done') seen[v].status = `${last.status}: ${last.message}`;
        seen[v].wall.push(wall);
        seen[v].cpu.push(used);
        seen[v].emulated.push(a.emu.history.slice(before).reduce((n, l) => n + l.endedAt - l.startedAt, 0));
        seen[v].kept = (a.emu.workbook.byName('Partners')?.lastRow() ?? 1) - 1;
        seen[v].total = last.totalItems;
      }
    }
    const added = (k: number, what: 'emulated' | 'cpu') =>
      percent(median(seen[k][what].map((x, round) => x / seen[0][what][round] - 1)));
    return variants.map((v, k) => ({
      name: `${v.name} (${seen[k].total} partners)`,
      activePartners: seen[k].total,
      kept: seen[k].kept,
      runs,
      wallMs: Math.round(median(seen[k].wall)),
      emulatedMs: Math.round(median(seen[k].emulated)),
      cpuMs: Math.round(median(seen[k].cpu)),
      addedPercent: added(k, 'emulated'),
      addedCpuPercent: added(k, 'cpu'),
      status: seen[k].status,
    }));
  } finally {
    await svc.stop();
  }
}

export async function benchImport(partners: number, latencyMs: number, naive: boolean): Promise<ImportFigure[]> {
  const svc = await importService(partners, latencyMs);
  try {
    const a = addin(svc.url, DEMO_KEY, modelled());
    const id = saveImport(a.emu, { sheetName: 'Partners', fields: FIELDS });
    const before = a.emu.history.length;
    let t = performance.now();
    const steps = runImport(a.emu, id);
    const last = steps[steps.length - 1];
    const ours: ImportFigure = {
      ...importFigure(
        `import, add-in (${last.totalItems} partners)`,
        performance.now() - t,
        a.emu.history.slice(before),
        last.rows,
        last.status === 'done' ? undefined : last.message,
      ),
      // What the import's record (its rows packed many a cell, twice: the record and the pending one) costs of the spreadsheet's cells.
      recordCells: a.emu.workbook.sheets
        .filter((s) => s.name.startsWith('__record_'))
        .reduce((n, s) => n + s.maxRows * s.maxCols, 0),
    };
    if (!naive) return [ours];
    const probe = new Emulator(modelled({ code: NAIVE_IMPORT }));
    t = performance.now();
    const n = probe.run<number>('naiveImport', [svc.url, DEMO_KEY], { kind: 'menu' });
    const naiveFig = importFigure(
      'import, naive: serial pages of 10, setValues per page',
      performance.now() - t,
      [n.ledger],
      n.value ?? 0,
      n.error,
    );
    const cells = new Emulator(modelled({ code: NAIVE_IMPORT }));
    t = performance.now();
    const c = cells.run<number>('naiveCells', [last.totalItems], { kind: 'menu' });
    const written = c.ledger.calls['Range.setValue'] ?? 0;
    const cellsFig = importFigure(
      `sheet writes, naive: one setValue per cell (${last.totalItems * 5} cells)`,
      performance.now() - t,
      [c.ledger],
      Math.floor(written / 5),
      c.error ? `${c.error} after ${written} cells` : undefined,
    );
    return [ours, naiveFig, cellsFig];
  } finally {
    await svc.stop();
  }
}

export interface ScalePoint {
  activePartners: number;
  wallMs: number;
  emulatedMs: number;
  executions: number;
  longestExecutionMs: number;
  fetches: number;
  setValuesCalls: number;
  /** Peak resident memory of the process that ran the add-in (emulator + workbook), measured alone. */
  peakRssMb: number;
  status: string;
}

/** One import of about `active` partners from the scheduled trigger, resuming as needed. */
export async function benchScale(active: number, latencyMs: number): Promise<ScalePoint> {
  const svc = await importService(Math.ceil(active / 0.846), latencyMs);
  try {
    const a = addin(svc.url, DEMO_KEY, modelled());
    const id = saveImport(a.emu, { sheetName: 'Scale', fields: FIELDS });
    call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]);
    const before = a.emu.history.length;
    const t = performance.now();
    a.emu.advance(3_600_000);
    let s = call(a.emu, 'importStatus', [id]);
    // Carried on by the same hourly trigger, one step an hour.
    for (let i = 0; i < 200 && s.ok && s.status === 'running'; i++) {
      a.emu.advance(3_600_000);
      s = call(a.emu, 'importStatus', [id]);
    }
    const runs = a.emu.history.slice(before).filter((l) => l.kind === 'trigger');
    return {
      activePartners: s.ok ? s.totalItems : 0,
      wallMs: Math.round(performance.now() - t),
      emulatedMs: Math.round(runs.reduce((n, l) => n + l.endedAt - l.startedAt, 0)),
      executions: runs.length,
      longestExecutionMs: Math.round(Math.max(...runs.map((l) => l.endedAt - l.startedAt))),
      fetches: runs.reduce((n, l) => n + l.fetches, 0),
      setValuesCalls: runs.reduce((n, l) => n + (l.calls['Range.setValues'] ?? 0), 0),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      status: s.ok ? s.status : s.message,
    };
  } finally {
    await svc.stop();
  }
}

export interface SidebarImportFigure {
  name: string;
  activePartners: number;
  rows: number;
  status: string;
  /** Sidebar executions (start, then each continue). */
  steps: number;
  /**
   * Emulated time summed over the steps, on the modelled clock: the CPU time of the add-in's work
   * (and the emulated services') plus each fetch at the service's latency and its bytes, plus the
   * emulator's cost model and the waits for Retry-After. It repeats under load.
   */
  emulatedMs: number;
  longestStepMs: number;
  /** Real time the import took on this machine: it depends on the machine and what else runs on it. */
  wallMs: number;
  fetches: number;
  /** Requests the service received, and the pages of the list (the requests of the run without faults). */
  requests: number;
  pages: number;
  /** Requests the service answered with 429. */
  rateLimited: number;
  /** Requests beyond one per page and one per refusal: pages read again (0 when no page is read twice). */
  extraRequests: number;
  /** The most 429s in a row one page met (service side). */
  longest429Run: number;
  /**
   * longest429Run × Retry-After: the least time the import can take when it honours every Retry-After
   * (that page cannot come sooner). A floor only: the other pages and the writes mostly overlap it.
   */
  waitFloorMs: number;
}

/**
 * The same sidebar import of about `active` partners on one service: without faults, then with
 * `rateLimit` of the requests answered 429 + `Retry-After: retryAfterSeconds`, once for each of
 * the service's fault `seeds` (the slowest page decides the time, so one seed is one draw). Each sidebar
 * step is one execution of at most its budget; the figures are the steps, the emulated time
 * summed over them and the longest one. The emulator charges the modelled clock (EmulatorOptions.
 * modelledClock, with the service's latency): on wall time a busy machine made a slower import and
 * split it into other steps, so a rerun of the same seed gave other figures.
 */
export async function benchRateLimitedImport(
  active: number,
  latencyMs: number,
  rateLimit = 0.3,
  retryAfterSeconds = 15,
  seeds: readonly number[] = [7],
): Promise<SidebarImportFigure[]> {
  const svc = await importService(Math.ceil(active / 0.846), latencyMs);
  const out: SidebarImportFigure[] = [];
  try {
    for (const [faulty, seed] of [[false, seeds[0]] as const, ...seeds.map((n) => [true, n] as const)]) {
      await svc.config({ faults: { rateLimit: faulty ? rateLimit : 0, retryAfterSeconds }, seed });
      await svc.resetStats();
      const a = addin(svc.url, DEMO_KEY, modelled());
      const id = saveImport(a.emu, { sheetName: 'Partners', fields: FIELDS });
      const before = a.emu.history.length;
      const t = performance.now();
      const seen = runImport(a.emu, id, 1000);
      const wallMs = Math.round(performance.now() - t);
      const steps = a.emu.history.slice(before).filter((l) => l.kind === 'sidebar');
      const last = seen[seen.length - 1];
      const stats = await svc.stats();
      out.push({
        name: faulty
          ? `import ${last.totalItems} partners from the sidebar, ${Math.round(rateLimit * 100)} % 429 with Retry-After: ${retryAfterSeconds} (service seed ${seed})`
          : `import ${last.totalItems} partners from the sidebar, no faults`,
        activePartners: last.totalItems,
        rows: last.rows,
        status: last.status === 'done' ? 'done' : `${last.status}: ${last.message}`,
        steps: steps.length,
        emulatedMs: Math.round(steps.reduce((n, l) => n + l.endedAt - l.startedAt, 0)),
        longestStepMs: Math.round(Math.max(...steps.map((l) => l.endedAt - l.startedAt))),
        wallMs,
        fetches: steps.reduce((n, l) => n + l.fetches, 0),
        requests: stats.requests,
        pages: out[0]?.requests ?? stats.requests,
        rateLimited: stats.byStatus['429'] ?? 0,
        extraRequests: stats.requests - (out[0]?.requests ?? stats.requests) - (stats.byStatus['429'] ?? 0),
        longest429Run: stats.longest429Run,
        waitFloorMs: stats.longest429Run * retryAfterSeconds * 1000,
      });
    }
    return out;
  } finally {
    await svc.stop();
  }
}
