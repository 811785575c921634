/**
 * Import benchmarks: the add-in's import of every active partner beside two naive baselines in
 * the same run, one serial fetch per page at the default limit=10 (written page by page), and one
 * setValue per cell for the same table; and the scaling curve at growing sizes, run from the
 * scheduled-refresh trigger so that big imports resume across executions as they must in Google;
 * and a sidebar import with and without a rate-limiting service (steps, emulated time, longest step).
 */
import { Emulator } from '../dev/emulator/runtime';
import type { Ledger } from '../dev/emulator/execution';
import { DEMO_KEY, startService } from '../dev/service/spawn';
import { addin } from '../test/helpers/addin';
import { call, runImport, saveImport } from '../test/helpers/imports';
import { type Figure, figure } from './formulas';

const FIELDS = ['id', 'fullName', 'firm', 'ticketSize', 'updatedAt'];

export interface ImportFigure extends Figure {
  rows: number;
  setValuesCalls: number;
  executions: number;
}

function importFigure(name: string, wallMs: number, ledgers: Ledger[], rows: number, error?: string): ImportFigure {
  return { ...figure(name, wallMs, ledgers, error), rows, setValuesCalls: ledgers.reduce((n, l) => n + (l.calls['Range.setValues'] ?? 0) + (l.calls['Range.setValue'] ?? 0), 0), executions: ledgers.length };
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

export async function benchImport(partners: number, latencyMs: number, naive: boolean): Promise<ImportFigure[]> {
  const svc = await startService(['--partners', String(partners), '--latency', String(latencyMs), '--max-page-size', '100', '--preload'], 120_000);
  try {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Partners', fields: FIELDS });
    const before = a.emu.history.length;
    let t = performance.now();
    const steps = runImport(a.emu, id);
    const last = steps[steps.length - 1];
    const ours = importFigure(`import, add-in (${last.totalItems} partners)`, performance.now() - t, a.emu.history.slice(before), last.rows, last.status === 'done' ? undefined : last.message);
    if (!naive) return [ours];
    const probe = new Emulator({ code: NAIVE_IMPORT });
    t = performance.now();
    const n = probe.run<number>('naiveImport', [svc.url, DEMO_KEY], { kind: 'menu' });
    const naiveFig = importFigure('import, naive: serial pages of 10, setValues per page', performance.now() - t, [n.ledger], n.value ?? 0, n.error);
    const cells = new Emulator({ code: NAIVE_IMPORT });
    t = performance.now();
    const c = cells.run<number>('naiveCells', [last.totalItems], { kind: 'menu' });
    const written = c.ledger.calls['Range.setValue'] ?? 0;
    const cellsFig = importFigure(`sheet writes, naive: one setValue per cell (${last.totalItems * 5} cells)`, performance.now() - t, [c.ledger], Math.floor(written / 5), c.error ? `${c.error} after ${written} cells` : undefined);
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
  const svc = await startService(['--partners', String(Math.ceil(active / 0.846)), '--latency', String(latencyMs), '--max-page-size', '100', '--preload'], 300_000);
  try {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Scale', fields: FIELDS });
    call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]);
    const before = a.emu.history.length;
    const t = performance.now();
    a.emu.advance(3_600_000);
    let s = call(a.emu, 'importStatus', [id]);
    for (let i = 0; i < 200 && s.ok && s.status === 'running'; i++) {
      a.emu.advance(61_000);
      s = call(a.emu, 'importStatus', [id]);
    }
    const runs = a.emu.history.slice(before).filter((l) => l.kind === 'trigger');
    return {
      activePartners: s.ok ? s.totalItems : 0, wallMs: Math.round(performance.now() - t),
      emulatedMs: Math.round(runs.reduce((n, l) => n + l.endedAt - l.startedAt, 0)), executions: runs.length,
      longestExecutionMs: Math.round(Math.max(...runs.map((l) => l.endedAt - l.startedAt))),
      fetches: runs.reduce((n, l) => n + l.fetches, 0), setValuesCalls: runs.reduce((n, l) => n + (l.calls['Range.setValues'] ?? 0), 0),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), status: s.ok ? s.status : s.message,
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
  /** Emulated time summed over the steps. */
  emulatedMs: number;
  longestStepMs: number;
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
 * step is one execution of at most its 20 s budget; the figures are the steps, the emulated time
 * summed over them and the longest one.
 */
export async function benchRateLimitedImport(active: number, latencyMs: number, rateLimit = 0.3, retryAfterSeconds = 15, seeds: readonly number[] = [7]): Promise<SidebarImportFigure[]> {
  const svc = await startService(['--partners', String(Math.ceil(active / 0.846)), '--latency', String(latencyMs), '--max-page-size', '100', '--preload'], 300_000);
  const out: SidebarImportFigure[] = [];
  try {
    for (const [faulty, seed] of [[false, seeds[0]] as const, ...seeds.map((n) => [true, n] as const)]) {
      await svc.config({ faults: { rateLimit: faulty ? rateLimit : 0, retryAfterSeconds }, seed });
      await svc.resetStats();
      const a = addin(svc.url);
      const id = saveImport(a.emu, { sheetName: 'Partners', fields: FIELDS });
      const before = a.emu.history.length;
      const t = performance.now();
      const seen = runImport(a.emu, id, 1000);
      const wallMs = Math.round(performance.now() - t);
      const steps = a.emu.history.slice(before).filter((l) => l.kind === 'sidebar');
      const last = seen[seen.length - 1];
      const stats = await svc.stats();
      out.push({
        name: faulty ? `import ${last.totalItems} partners from the sidebar, ${Math.round(rateLimit * 100)} % 429 with Retry-After: ${retryAfterSeconds} (service seed ${seed})` : `import ${last.totalItems} partners from the sidebar, no faults`,
        activePartners: last.totalItems, rows: last.rows, status: last.status === 'done' ? 'done' : `${last.status}: ${last.message}`,
        steps: steps.length, emulatedMs: Math.round(steps.reduce((n, l) => n + l.endedAt - l.startedAt, 0)),
        longestStepMs: Math.round(Math.max(...steps.map((l) => l.endedAt - l.startedAt))), wallMs,
        fetches: steps.reduce((n, l) => n + l.fetches, 0), requests: stats.requests, pages: out[0]?.requests ?? stats.requests,
        rateLimited: stats.byStatus['429'] ?? 0, extraRequests: stats.requests - (out[0]?.requests ?? stats.requests) - (stats.byStatus['429'] ?? 0),
        longest429Run: stats.longest429Run, waitFloorMs: stats.longest429Run * retryAfterSeconds * 1000,
      });
    }
    return out;
  } finally {
    await svc.stop();
  }
}
