/**
 * The end of an import run: completeness check, the one write that replaces (or merges into)
 * the target sheet, change and run logs, and the failure and cancel paths, which leave the
 * target sheet exactly as it was.
 */
import { LP_FIELD_SPECS } from '../api/records';
import type { Cell } from '../table/cells';
import { appendLog, ensureSheet, findSheet, formatDateColumns, readTable, removeSheet, replaceTable } from '../gas/sheets';
import { loadImports, saveImports, saveRun } from '../gas/store';
import { mergeTables } from './merge';
import { type RunState, stagingName } from './run-state';
import type { ImportSpec } from './spec';

export const RUN_LOG = 'Investor Data log';
export const CHANGE_LOG = 'Investor Data changes';
const RUN_LOG_HEADER = ['Started', 'Ended', 'Sheet', 'Mode', 'Source', 'Outcome', 'Rows', 'Pages', 'Fetches', 'Retries', 'Executions', 'Message'];
const CHANGE_LOG_HEADER = ['When', 'Sheet', 'Partner id', 'Change', 'Field', 'Before', 'After'];

function record(spec: ImportSpec, run: RunState, rows: number): void {
  const now = Date.now();
  run.updatedAt = now;
  saveRun(run);
  const imports = loadImports();
  const mine = imports.find((i) => i.id === spec.id);
  if (mine) {
    mine.last = { at: now, status: run.status === 'running' ? 'failed' : run.status, rows, message: run.message };
    saveImports(imports);
  }
  appendLog(RUN_LOG, RUN_LOG_HEADER, [[
    new Date(run.startedAt), new Date(now), spec.sheetName, spec.mode, run.source, run.status, rows,
    Math.max(0, Math.min(run.nextPage - 1, run.totalPages)), run.fetches, run.retries, run.executions, run.message,
  ]]);
}

export function failRun(spec: ImportSpec, run: RunState, message: string, status: 'failed' | 'cancelled' = 'failed'): void {
  removeSheet(stagingName(spec.id));
  run.status = status;
  run.message = `${message} The sheet "${spec.sheetName}" keeps its previous data.`;
  record(spec, run, 0);
}

/** Unique rows by id, in first-seen order, each with its latest data. */
export function dedupe(rows: readonly Cell[][], idCol: number): Cell[][] {
  const byId = new Map<string, Cell[]>();
  for (const row of rows) byId.set(String(row[idCol]), row);
  return [...byId.values()];
}

export type Verdict = { complete: true; rows: Cell[][] } | { complete: false; recheck: boolean; message: string };

/** Full reads of the list an import makes at most before it gives up on a list that keeps changing. */
export const MAX_PASSES = 3;

/**
 * Whether one pass read the whole list; pure. A pass is complete when the service's total did not
 * change while it ran and its distinct ids number exactly that total: then every id it read was
 * active when read and none is missing. Otherwise the list is read again, up to MAX_PASSES times.
 */
export function judge(passRows: readonly Cell[][], idCol: number, run: Pick<RunState, 'totalItems' | 'pass' | 'passChanged'>): Verdict {
  const unique = dedupe(passRows, idCol);
  if (!run.passChanged && unique.length === run.totalItems) return { complete: true, rows: unique };
  if (run.pass < MAX_PASSES) return { complete: false, recheck: true, message: 'The list changed during the import; reading it again.' };
  const missing = run.totalItems - unique.length;
  const detail = missing > 0 ? `${missing} of ${run.totalItems} partners could not be read` : missing < 0 ? `${-missing} more partners were read than the ${run.totalItems} the service now lists` : `the service's total changed while reading`;
  return { complete: false, recheck: false, message: `Incomplete after ${run.pass} reads of the list: ${detail}, because it kept changing during the import.` };
}

export function writeTarget(spec: ImportSpec, run: RunState, rows: Cell[][]): void {
  const target = ensureSheet(spec.sheetName);
  let grid: ReturnType<typeof mergeTables>['grid'];
  let note = '';
  if (spec.mode === 'merge') {
    const merged = mergeTables(readTable(target), spec.fields, rows);
    grid = merged.grid;
    const when = new Date();
    appendLog(CHANGE_LOG, CHANGE_LOG_HEADER, merged.changes.map((c) => [when, spec.sheetName, c.id, c.change, c.field, c.before, c.after]));
    const counts = (kind: string) => merged.changes.filter((c) => c.change === kind).length;
    note = ` ${counts('new partner')} new, ${counts('no longer active')} no longer active, ${counts('changed')} field changes.`;
  } else {
    grid = [[...spec.fields], ...rows];
  }
  replaceTable(target, grid);
  const dateCols = spec.fields.map((f, i) => (LP_FIELD_SPECS.find((s) => s.name === f)?.type === 'datetime' ? i + 1 : 0)).filter((c) => c > 0);
  formatDateColumns(target, dateCols, grid.length - 1);
  removeSheet(stagingName(spec.id));
  run.status = 'done';
  run.read = rows.length;
  run.message = `Imported ${rows.length} active limited partners into "${spec.sheetName}".${note}`;
  record(spec, run, rows.length);
  target.activate();
}

/** The rows this run staged (the sheet may hold more, left by an execution that was killed before saving its cursor). */
export function stagedRows(spec: ImportSpec, count: number): Cell[][] {
  const sheet = findSheet(stagingName(spec.id));
  if (!sheet || count === 0) return [];
  return sheet.getRange(2, 1, count, spec.fields.length).getValues() as Cell[][];
}
