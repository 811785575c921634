/**
 * The import engine: reads every page of the active-partners list into a sheet. Pages go out
 * in parallel batches at the largest page size the server allows (learnt from the first page);
 * rows stay in memory when the run ends within one execution, and otherwise are kept in a
 * hidden staging sheet with the cursor in document properties, so the run carries on in the
 * next execution. The target sheet is written once, at the end, and only when complete.
 */
import { LP_FIELD_SPECS, type FieldSpec } from '../api/records';
import type { Cell } from '../table/cells';
import { recordRow } from '../table/rows';
import { clientFor, EXECUTION_STARTED_AT } from '../context';
import { ensureSideSheet, removeSheet, writeBlock } from '../gas/sheets';
import { loadImports, loadRun, saveRun } from '../gas/store';
import { failRun, judge, stagedRows, writeTarget } from './finish';
import { type RunState, type RunSummary, stagingName, summarize } from './run-state';
import type { ImportSpec } from './spec';

/** What the first request asks for; the server's cap decides (pagination.pageSize). */
export const FIRST_PAGE_LIMIT = 1000;
/** Pages fetched together in one fetchAll. */
export const PAGES_PER_FETCH = 20;
/** How long one step may run: short from the sidebar (its progress bar moves), long from triggers. */
export const STEP_BUDGET_MS = { sidebar: 20_000, schedule: 300_000 } as const;
const LOCK_WAIT_MS = 30_000;
/** Steps in a row that may end on a retryable failure without reading a page before the run fails. */
export const MAX_STALLS = 3;

export function specFor(importId: string): ImportSpec {
  const spec = loadImports().find((i) => i.id === importId);
  if (!spec) throw new Error(`No saved import ${importId}.`);
  return spec;
}

function newRun(spec: ImportSpec, source: RunState['source']): RunState {
  const now = Date.now();
  return {
    runId: `${now.toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`, importId: spec.id, source, status: 'running',
    startedAt: now, updatedAt: now, pageSize: 0, totalItems: 0, totalPages: 0, nextPage: 1, staged: 0, read: 0, pass: 1, passChanged: false, stalls: 0,
    fetches: 0, retries: 0, executions: 0, message: 'Starting…',
  };
}

/** Runs `body` under the document lock; when another execution holds it, says so instead. */
function locked(importId: string, body: () => RunSummary): RunSummary {
  // A script that is not bound to a spreadsheet has no document lock: fall back to the script lock.
  const lock = LockService.getDocumentLock() ?? LockService.getScriptLock();
  if (!lock.tryLock(LOCK_WAIT_MS)) {
    const s = summarize(importId, loadRun(importId));
    return { ...s, message: 'Another import is writing to this spreadsheet; waiting for it to finish.' };
  }
  try {
    return body();
  } finally {
    lock.releaseLock();
  }
}

export function beginRun(importId: string, source: RunState['source']): RunSummary {
  return locked(importId, () => {
    const spec = specFor(importId);
    const current = loadRun(importId);
    if (current?.status === 'running') return step(spec, current, source);
    const run = newRun(spec, source);
    saveRun(run);
    return step(spec, run, source);
  });
}

export function continueRun(importId: string, source: RunState['source']): RunSummary {
  return locked(importId, () => {
    const run = loadRun(importId);
    if (run?.status !== 'running') return summarize(importId, run);
    return step(specFor(importId), run, source);
  });
}

export function cancelRun(importId: string): RunSummary {
  return locked(importId, () => {
    const run = loadRun(importId);
    if (run?.status === 'running') failRun(specFor(importId), run, 'Cancelled.', 'cancelled');
    return summarize(importId, run);
  });
}

function fieldSpecs(spec: ImportSpec): FieldSpec[] {
  return spec.fields.map((name) => LP_FIELD_SPECS.find((s) => s.name === name) as FieldSpec);
}

function stage(spec: ImportSpec, run: RunState, rows: Cell[][]): void {
  if (rows.length === 0 && run.staged > 0) return;
  if (run.staged === 0) removeSheet(stagingName(spec.id));
  const sheet = ensureSideSheet(stagingName(spec.id), true);
  writeBlock(sheet, run.staged === 0 ? 1 : run.staged + 2, run.staged === 0 ? [[...spec.fields], ...rows] : rows);
  run.staged += rows.length;
}

function step(spec: ImportSpec, run: RunState, source: RunState['source']): RunSummary {
  const deadline = EXECUTION_STARTED_AT + STEP_BUDGET_MS[source];
  const client = clientFor('run');
  const fields = fieldSpecs(spec);
  const buffer: Cell[][] = [];
  const startedEmpty = run.staged === 0;
  run.executions++;
  try {
    while (run.pageSize === 0 || run.nextPage <= run.totalPages) {
      if (Date.now() > deadline) break;
      const first = run.pageSize === 0;
      const pages = first ? [run.nextPage] : Array.from({ length: Math.min(PAGES_PER_FETCH, run.totalPages - run.nextPage + 1) }, (_, i) => run.nextPage + i);
      const all = client.activePartnerPages(pages, first ? FIRST_PAGE_LIMIT : run.pageSize);
      const firstFailure = all.findIndex((o) => !o.ok);
      const failed = firstFailure >= 0 ? all[firstFailure] : undefined;
      // Keep the pages before the first failure: the cursor only moves over pages that are in.
      const outcomes = failed ? all.slice(0, firstFailure) : all;
      if (failed && !failed.ok && (!failed.error.retryable || run.stalls >= MAX_STALLS)) {
        run.fetches += client.stats.fetches;
        run.retries += client.stats.retries;
        failRun(spec, run, `Import failed: ${failed.error.message}`);
        return summarize(spec.id, run);
      }
      outcomes.forEach((o, k) => {
        if (!o.ok) return;
        const p = o.value.pagination;
        if (first) run.pageSize = Math.max(1, p.pageSize || o.value.items.length || 1);
        if (pages[k] !== 1 && p.totalItems !== run.totalItems) run.passChanged = true;
        run.totalItems = p.totalItems;
        run.totalPages = Math.ceil(p.totalItems / run.pageSize);
        for (const record of o.value.items) buffer.push(recordRow(record, fields, 'formula'));
      });
      run.nextPage += outcomes.length;
      run.read = run.staged + buffer.length;
      run.message = `Page ${Math.min(run.nextPage - 1, run.totalPages)} of ${run.totalPages}`;
      if (outcomes.length) run.stalls = 0;
      if (failed && !failed.ok) {
        // The service is failing for now (rate limit, outage): stop this step, keep what is in, carry on in the next.
        run.stalls++;
        run.message = `${failed.error.message} Continuing at page ${run.nextPage} in the next step.`;
        break;
      }
    }
    run.fetches += client.stats.fetches;
    run.retries += client.stats.retries;
    const done = run.pageSize > 0 && run.nextPage > run.totalPages;
    if (done && startedEmpty) return finishOrRecheck(spec, run, buffer, source);
    stage(spec, run, buffer);
    if (done) return finishOrRecheck(spec, run, stagedRows(spec, run.staged), source);
    saveRun({ ...run, updatedAt: Date.now() });
    return summarize(spec.id, run);
  } catch (e) {
    failRun(spec, run, `Import failed: ${e instanceof Error ? e.message : String(e)}`);
    return summarize(spec.id, run);
  }
}

function finishOrRecheck(spec: ImportSpec, run: RunState, rows: Cell[][], source: RunState['source']): RunSummary {
  const verdict = judge(rows, spec.fields.indexOf('id'), run);
  if (verdict.complete) {
    writeTarget(spec, run, verdict.rows);
    return summarize(spec.id, run);
  }
  if (!verdict.recheck) {
    failRun(spec, run, verdict.message);
    return summarize(spec.id, run);
  }
  removeSheet(stagingName(spec.id));
  run.pass++;
  run.passChanged = false;
  run.staged = 0;
  run.read = 0;
  run.nextPage = 1;
  run.message = verdict.message;
  saveRun(run);
  return step(spec, run, source);
}
