/**
 * How an import run ends. A complete read is written to its sheet in one write, with the import's
 * record (./replace.ts: the record of what is about to be written, as pending, then the table, its
 * columns' fields and protection, then the record made current), the changes it made (merge, or a
 * watched replace) and its alert. A failed or cancelled run leaves the sheet as it was. Either way the run is saved
 * and gets its row in the run log. The step that reads the list is ./machine.ts.
 */
import { grouped, plural } from '../api/numbers';
import { firstOfEachId, idProblem } from '../api/records';
import type { Cell } from '../table/cells';
import { type Change, headerName, mergeTables, type OutCell, tableLayout } from './merge';
import type { ImportPorts } from './ports';
import { gridOf, joined, type OwnedTable, recordOf, replaceDifferences, replaceRefusal } from './replace';
import { pagesRead, type RunState, type RunStatus, type RunSummary, summarize } from './run-state';
import type { Kept } from './shape';
import type { ImportSpec } from './spec';
import { afterWrite } from './watch';

export const RUN_LOG = 'Investor Data log';
export const CHANGE_LOG = 'Investor Data changes';
export const RUN_LOG_HEADER =
  'Started,Ended,Sheet,Mode,Source,Outcome,Read,Kept,Pages,Fetches,Retries,Executions,Message,History rows,Alert'.split(
    ',',
  );
export const CHANGE_LOG_HEADER = ['When', 'Sheet', 'Partner id', 'Change', 'Field', 'Before', 'After'];

/** Why this replace run may not rewrite its sheet (src/import/replace.ts): the message and every cell named, or undefined. */
export function replaceRefused(
  spec: ImportSpec,
  run: RunState,
  ports: ImportPorts,
  table?: OwnedTable | null,
): { message: string; all: string } | undefined {
  if (spec.mode !== 'replace' || run.force) return undefined;
  return replaceRefusal(table === undefined ? ports.target.read(spec.sheetName) : table, spec, spec.sheetName);
}

/** Unique rows by id, each id's first listing (src/api/records.ts firstOfEachId, the one rule). */
export function dedupe(rows: readonly Cell[][], idCol: number): Cell[][] {
  return firstOfEachId(rows, (row) => String(row[idCol]));
}

/**
 * The rows whose id is usable (src/api/records.ts idProblem), and a note counting the others by
 * reason: those are never written, so no later run meets a row of its own it cannot key.
 */
export function keyedRows(rows: readonly Cell[][], idCol: number): { keyed: Cell[][]; skipped: number; note: string } {
  const reasons = new Map<string, number>();
  const keyed = rows.filter((row) => {
    const problem = idProblem(row[idCol]);
    if (problem) reasons.set(problem, (reasons.get(problem) ?? 0) + 1);
    return !problem;
  });
  const skipped = rows.length - keyed.length;
  const why = [...reasons].map(([reason, n]) => `${grouped(n)} ${reason}`).join(', ');
  return {
    keyed,
    skipped,
    note: skipped ? ` Skipped ${grouped(skipped)} listed record${skipped === 1 ? '' : 's'}: ${why}.` : '',
  };
}

/**
 * Saves the ended run, notes its outcome on the saved import, and writes its row of the run log:
 * `read` partners of the complete list, `rows` written, the message with `detail` after it.
 */
function logRun(
  spec: ImportSpec,
  run: RunState,
  ports: ImportPorts,
  status: Exclude<RunStatus, 'running'>,
  rows: number,
  read = rows,
  detail = '',
): RunSummary {
  const now = ports.now();
  run.status = status;
  run.updatedAt = now;
  ports.store.save(run);
  const specs = ports.store.specs();
  const mine = specs.find((i) => i.id === spec.id);
  if (mine) {
    // The saved import's rows are those its sheet holds: a run that wrote nothing keeps the count of the last that did.
    mine.last = { at: now, status, rows: status === 'done' ? rows : (mine.last?.rows ?? 0), message: run.message };
    ports.store.saveSpecs(specs);
  }
  ports.logs.run([
    new Date(run.startedAt),
    new Date(now),
    spec.sheetName,
    spec.mode,
    run.source,
    run.status,
    read,
    rows,
    pagesRead(run),
    run.fetches,
    run.retries,
    run.executions,
    run.message + detail,
    run.historyRows ?? '',
    run.alert ?? '',
  ]);
  return summarize(spec.id, run);
}

/**
 * Ends a run without touching the target table. Its message is the reason (none for a cancel) and
 * what became of the sheet, never the outcome: the run's status says that, and every place that
 * shows the message shows the status beside it (the sidebar, the run log's Outcome column). A
 * refused replace's run-log row names every cell it would have overwritten.
 */
export function failRun(
  spec: ImportSpec,
  run: RunState,
  ports: ImportPorts,
  reason: string | { message: string; all: string },
  status: 'failed' | 'cancelled' = 'failed',
): RunSummary {
  ports.staging.remove(spec.id);
  const [why, all] = typeof reason === 'string' ? [reason, ''] : [reason.message, ` Every cell: ${reason.all}.`];
  run.message = `${why ? `${why} ` : ''}The sheet "${spec.sheetName}" keeps its previous data.`;
  return logRun(spec, run, ports, status, 0, 0, all);
}

/**
 * Writes a table with the import's record (src/import/replace.ts) of the cells `owns` names: the
 * record first, as pending beside the current one, then the table, its columns' fields, formats and
 * protection, then the record made current, as the sheet holds it (read back: how Sheets stores a
 * value is what the next run compares). An execution killed at any point leaves the old table or
 * the new one, each matching a record the next run reads.
 */
export function writeOwned(
  spec: ImportSpec,
  grid: OutCell[][],
  columns: Array<string | undefined>,
  ports: ImportPorts,
  owns: (r: number, c: number) => boolean,
): void {
  // Only rows it writes: one the analyst types below the table while it writes is theirs.
  const mine = (r: number, c: number) => r < grid.length && owns(r, c);
  const record = recordOf(grid, columns, mine);
  ports.target.record(spec.sheetName, spec.id, record);
  ports.target.write(spec.sheetName, grid, columns, spec.id);
  const written = ports.target.read(spec.sheetName);
  const stored = written ? recordOf(gridOf(written), columns, mine) : record;
  ports.target.commit(spec.sheetName, spec.id, stored.join('\n') === record.join('\n') ? undefined : stored);
}

/** What a merge did, as its message says it. */
function mergeNote(changes: readonly Change[]): string {
  const count = (kind: Change['change']) => changes.filter((c) => c.change === kind).length;
  const [unmatched, repeated] = [count('no longer matches'), count('repeated id (kept)')];
  return [
    ` ${grouped(count('new partner'))} new, ${grouped(count('no longer active'))} no longer active,`,
    unmatched ? ` ${grouped(unmatched)} no longer matching,` : '',
    ` ${plural(count('changed'), 'field change')}.`,
    repeated
      ? ` ${plural(repeated, 'row')} with a repeated id kept as ${repeated === 1 ? 'it was' : 'they were'}.`
      : '',
  ].join('');
}

export function writeTarget(
  spec: ImportSpec,
  run: RunState,
  kept: Kept,
  read: number,
  ports: ImportPorts,
  skippedNote: string,
): RunSummary {
  const rows = kept.rows;
  const existing = ports.target.read(spec.sheetName);
  const when = new Date(ports.now());
  const logChanges = (changes: Change[]) =>
    ports.logs.changes(changes.map((c) => [when, spec.sheetName, c.id, c.change, c.field, c.before, c.after]));
  let note = '';
  let grid: OutCell[][];
  let columns: Array<string | undefined> = [...spec.fields];
  let owns = (r: number, _c: number) => r > 0;
  if (spec.mode === 'merge') {
    const merged = mergeTables(existing, spec.fields, rows, spec.sheetName, kept.unmatched);
    ({ grid, columns } = merged);
    // The import owns the rows it wrote and, in the rows it kept, the cells it had written that no one changed since.
    const before = existing ? joined(existing, spec.id).ours : () => false;
    owns = (r, c) => merged.owns(r) || before(r, c);
    logChanges(merged.changes);
    note = mergeNote(merged.changes);
  } else {
    const refusal = replaceRefused(spec, run, ports, existing);
    if (refusal) return failRun(spec, run, ports, refusal);
    // Replace anyway: what it overwrites of the analyst's is said, never dropped without a word.
    const overwritten = run.force ? replaceDifferences(existing, spec) : undefined;
    if (overwritten)
      note = ` Replaced anyway: overwrote cells ${overwritten.tagged ? 'not as the import left them' : 'the import did not write'} ${overwritten.what}.`;
    // Its header, on the first row, keeps the names the analyst gave there, as a merge does (./merge.ts headerName).
    const at = existing && tableLayout(existing.values.slice(0, 1), existing.fields).h === 0 ? existing : null;
    const header = spec.fields.map((f) => {
      const c = at?.fields.indexOf(f) ?? -1;
      return at && c >= 0 && !at.formulas[0][c] ? headerName(at.values[0], at.fields, c) : f;
    });
    grid = [header, ...rows];
    // A watched replace logs its changes too, so the alert's link to the change log shows them.
    if (spec.alert?.baselineAt !== undefined)
      logChanges(mergeTables(existing, spec.fields, rows, spec.sheetName, kept.unmatched).changes);
  }
  writeOwned(spec, grid, columns, ports, owns);
  ports.staging.remove(spec.id);
  run.read = rows.length;
  const watched = afterWrite(spec, run, rows, ports);
  const which = spec.fit
    ? `${grouped(rows.length)} of ${plural(read, 'active limited partner')} (the best fits to fund ${spec.fit.fund}${spec.filters?.length ? ' matching the filters' : ''})`
    : spec.filters?.length
      ? `${grouped(rows.length)} of ${plural(read, 'active limited partner')} (those matching the filters)`
      : plural(rows.length, 'active limited partner');
  run.message = `Imported ${which} into "${spec.sheetName}".${note}${skippedNote}${watched}`;
  return logRun(spec, run, ports, 'done', rows.length, read);
}
