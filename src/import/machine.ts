/**
 * The import as a pure state machine over ports (./ports.ts). A run is a saved RunState; each
 * step reads pages of the active-partners list through the one page reader's cursor
 * (src/api/pages.ts) until its time budget ends, keeps rows in memory or in the staging area, and
 * saves the cursor. When the cursor's read is over, the run finishes: a complete read (end
 * confirmed, every page as long as it should be, distinct ids equal to the total) replaces or
 * merges into the target table in one write; an incomplete one is read again (a live list moves),
 * up to MAX_PASSES reads, and then fails with the reason. Failures follow the one rule on the
 * error type: a transient one ends the step and keeps what is in; the run fails only after
 * MAX_STALLS steps in a row that read nothing, or at once on a final error (key refused…).
 * A failed, cancelled or killed run never touches the target table.
 */
import type { ServiceError } from '../api/errors';
import { acceptPage, acceptRefusal, cursorDone, listVerdict, nextPages, startCursor } from '../api/pages';
import { type FieldSpec, LP_FIELD_SPECS } from '../api/records';
import type { Cell } from '../table/cells';
import { recordRow } from '../table/rows';
import { mergeTables, type OutCell } from './merge';
import type { ImportPorts } from './ports';
import { pagesRead, type RunSource, type RunState, type RunSummary, summarize } from './run-state';
import type { ImportSpec } from './spec';

/** What the first request asks for; the server's cap decides, and the reader learns it. */
export const FIRST_PAGE_LIMIT = 1000;
/** Pages fetched together in one fetchAll. */
export const PAGES_PER_FETCH = 20;
/** How long one step may run: short from the sidebar (its progress bar moves), long from triggers. */
export const STEP_BUDGET_MS: Readonly<Record<RunSource, number>> = { sidebar: 20_000, schedule: 300_000 };
export const LOCK_WAIT_MS = 30_000;
/** Steps in a row that may end on a transient failure without reading a page before the run fails. */
export const MAX_STALLS = 3;
/** Full reads of the list an import makes at most before it gives up on one it cannot trust. */
export const MAX_PASSES = 3;
/**
 * A list that only moved under a read (a live service) is read again more often when it is
 * short, where a read is cheap: up to MAX_LIVE_PASSES reads for lists of at most LIVE_LIST_PAGES pages.
 */
export const MAX_LIVE_PASSES = 10;
export const LIVE_LIST_PAGES = 50;

export const RUN_LOG = 'Investor Data log';
export const CHANGE_LOG = 'Investor Data changes';
export const RUN_LOG_HEADER = ['Started', 'Ended', 'Sheet', 'Mode', 'Source', 'Outcome', 'Rows', 'Pages', 'Fetches', 'Retries', 'Executions', 'Message'];
export const CHANGE_LOG_HEADER = ['When', 'Sheet', 'Partner id', 'Change', 'Field', 'Before', 'After'];
export const LOCKED_MESSAGE = 'Another import is writing to this spreadsheet; waiting for it to finish.';

export function newRun(spec: ImportSpec, source: RunSource, ports: Pick<ImportPorts, 'now' | 'newRunId'>): RunState {
  const now = ports.now();
  return {
    runId: ports.newRunId(), importId: spec.id, source, status: 'running', startedAt: now, updatedAt: now,
    list: startCursor(FIRST_PAGE_LIMIT), staged: 0, read: 0, pass: 1, stalls: 0, fetches: 0, retries: 0, executions: 0, message: 'Starting…',
  };
}

function specFor(importId: string, ports: ImportPorts): ImportSpec {
  const spec = ports.store.specs().find((i) => i.id === importId);
  if (!spec) throw new Error(`No saved import ${importId}.`);
  return spec;
}

/** Runs `body` under the lock; when another execution holds it, says so instead. */
function locked(importId: string, ports: ImportPorts, body: () => RunSummary): RunSummary {
  if (!ports.lock.tryLock(LOCK_WAIT_MS)) return { ...summarize(importId, ports.store.load(importId)), message: LOCKED_MESSAGE };
  try {
    return body();
  } finally {
    ports.lock.release();
  }
}

/** Starts a run, or carries on the one already running (a second start never begins another). */
export function beginRun(importId: string, source: RunSource, ports: ImportPorts, deadline: number): RunSummary {
  return locked(importId, ports, () => {
    const spec = specFor(importId, ports);
    const current = ports.store.load(importId);
    if (current?.status === 'running') return step(spec, current, ports, deadline);
    const run = newRun(spec, source, ports);
    ports.store.save(run);
    return step(spec, run, ports, deadline);
  });
}

export function continueRun(importId: string, ports: ImportPorts, deadline: number): RunSummary {
  return locked(importId, ports, () => {
    const run = ports.store.load(importId);
    if (run?.status !== 'running') return summarize(importId, run);
    return step(specFor(importId, ports), run, ports, deadline);
  });
}

export function cancelRun(importId: string, ports: ImportPorts): RunSummary {
  return locked(importId, ports, () => {
    const run = ports.store.load(importId);
    if (run?.status === 'running') failRun(specFor(importId, ports), run, ports, 'Cancelled.', 'cancelled');
    return summarize(importId, run);
  });
}

function fieldSpecs(spec: ImportSpec): FieldSpec[] {
  return spec.fields.map((name) => LP_FIELD_SPECS.find((s) => s.name === name) as FieldSpec);
}

function stage(spec: ImportSpec, run: RunState, rows: Cell[][], ports: ImportPorts): void {
  if (rows.length === 0 && run.staged > 0) return;
  ports.staging.write(spec.id, spec.fields, run.staged, rows);
  run.staged += rows.length;
}

function count(run: RunState, ports: ImportPorts, from: { fetches: number; retries: number }): void {
  const now = ports.pages.counters();
  run.fetches += now.fetches - from.fetches;
  run.retries += now.retries - from.retries;
}

/** One step: pages until the budget ends, the read is over, or the service fails for now. */
export function step(spec: ImportSpec, run: RunState, ports: ImportPorts, deadline: number): RunSummary {
  const fields = fieldSpecs(spec);
  const buffer: Cell[][] = [];
  const startedEmpty = run.staged === 0;
  const counted = ports.pages.counters();
  let failure: ServiceError | undefined;
  let pagesIn = 0;
  run.executions++;
  try {
    while (!cursorDone(run.list) && !failure && ports.now() <= deadline) {
      const pages = nextPages(run.list, PAGES_PER_FETCH);
      const outcomes = ports.pages.fetch(pages, run.list.limit);
      for (let k = 0; k < pages.length && !failure; k++) {
        const o = outcomes[k];
        if (!o.ok) {
          // Keep the pages before the first failure: the cursor only moves over pages that are in.
          if (!acceptRefusal(run.list, pages[k], o.error)) failure = o.error;
          continue;
        }
        const before = run.list.received;
        acceptPage(run.list, pages[k], o.value);
        pagesIn++;
        if (pages[k] === 1 || run.list.received > before) for (const record of o.value.items) buffer.push(recordRow(record, fields, 'formula'));
      }
      run.read = run.staged + buffer.length;
      run.message = `Page ${pagesRead(run)} of ${run.list.lastPage}`;
    }
    count(run, ports, counted);
    if (failure) {
      if (!failure.transient) return failRun(spec, run, ports, `Import failed: ${failure.message}`);
      run.stalls = pagesIn > 0 ? 0 : run.stalls + 1;
      if (run.stalls > MAX_STALLS) return failRun(spec, run, ports, `Import failed: ${failure.message}`);
      // The service is failing for now (rate limit, outage): keep what is in, carry on in the next step.
      const tries = run.stalls > 1 ? ` (${run.stalls} steps in a row without a page; the run fails after ${MAX_STALLS + 1})` : '';
      run.message = `${failure.message} Continuing at page ${run.list.nextPage} in the next step${tries}.`;
    } else if (pagesIn > 0) run.stalls = 0;
    const over = cursorDone(run.list) && !failure;
    if (over && startedEmpty) return finish(spec, run, buffer, ports, deadline);
    stage(spec, run, buffer, ports);
    if (over) return finish(spec, run, ports.staging.read(spec.id, run.staged, spec.fields.length), ports, deadline);
    run.updatedAt = ports.now();
    ports.store.save(run);
    return summarize(spec.id, run);
  } catch (e) {
    return failRun(spec, run, ports, `Import failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Unique rows by id, in first-seen order, each with its latest data. */
export function dedupe(rows: readonly Cell[][], idCol: number): Cell[][] {
  const byId = new Map<string, Cell[]>();
  for (const row of rows) byId.set(String(row[idCol]), row);
  return [...byId.values()];
}

function finish(spec: ImportSpec, run: RunState, rows: Cell[][], ports: ImportPorts, deadline: number): RunSummary {
  const unique = dedupe(rows, spec.fields.indexOf('id'));
  const verdict = listVerdict(run.list, unique.length);
  if (verdict.complete) return writeTarget(spec, run, unique, ports);
  const passes = verdict.changed && run.list.lastPage <= LIVE_LIST_PAGES ? MAX_LIVE_PASSES : MAX_PASSES;
  if (run.pass >= passes) {
    const why = verdict.changed ? `it kept changing during the import (last read: ${verdict.reason})` : verdict.reason;
    return failRun(spec, run, ports, `Incomplete after ${run.pass} reads of the list: ${why}.`);
  }
  ports.staging.remove(spec.id);
  run.pass++;
  run.list = startCursor(FIRST_PAGE_LIMIT);
  run.staged = 0;
  run.read = 0;
  run.message = verdict.changed ? 'The list changed during the import; reading it again.' : `The list did not add up (${verdict.reason}); reading it again.`;
  ports.store.save(run);
  return step(spec, run, ports, deadline);
}

function record(spec: ImportSpec, run: RunState, ports: ImportPorts, rows: number): RunSummary {
  const now = ports.now();
  run.updatedAt = now;
  ports.store.save(run);
  const specs = ports.store.specs();
  const mine = specs.find((i) => i.id === spec.id);
  if (mine) {
    mine.last = { at: now, status: run.status === 'running' ? 'failed' : run.status, rows, message: run.message };
    ports.store.saveSpecs(specs);
  }
  ports.logs.run([
    new Date(run.startedAt), new Date(now), spec.sheetName, spec.mode, run.source, run.status, rows,
    pagesRead(run), run.fetches, run.retries, run.executions, run.message,
  ]);
  return summarize(spec.id, run);
}

/** Ends a run without touching the target table. */
export function failRun(spec: ImportSpec, run: RunState, ports: ImportPorts, message: string, status: 'failed' | 'cancelled' = 'failed'): RunSummary {
  ports.staging.remove(spec.id);
  run.status = status;
  run.message = `${message} The sheet "${spec.sheetName}" keeps its previous data.`;
  return record(spec, run, ports, 0);
}

function writeTarget(spec: ImportSpec, run: RunState, rows: Cell[][], ports: ImportPorts): RunSummary {
  let grid: OutCell[][];
  let note = '';
  if (spec.mode === 'merge') {
    const merged = mergeTables(ports.target.read(spec.sheetName), spec.fields, rows);
    grid = merged.grid;
    const when = new Date(ports.now());
    ports.logs.changes(merged.changes.map((c) => [when, spec.sheetName, c.id, c.change, c.field, c.before, c.after]));
    const counts = (kind: string) => merged.changes.filter((c) => c.change === kind).length;
    const repeated = counts('repeated id (kept)');
    note = ` ${counts('new partner')} new, ${counts('no longer active')} no longer active, ${counts('changed')} field changes.${repeated ? ` ${repeated} rows with a repeated id kept below the table.` : ''}`;
  } else {
    grid = [[...spec.fields], ...rows];
  }
  const dateColumns = spec.fields.map((f, i) => (LP_FIELD_SPECS.find((s) => s.name === f)?.type === 'datetime' ? i + 1 : 0)).filter((c) => c > 0);
  ports.target.write(spec.sheetName, grid, dateColumns);
  ports.staging.remove(spec.id);
  run.status = 'done';
  run.read = rows.length;
  run.message = `Imported ${rows.length} active limited partners into "${spec.sheetName}".${note}`;
  return record(spec, run, ports, rows.length);
}
