/**
 * How an import run ends. A complete read is written to its sheet in one write, with the import's record
 * (./ownership.ts), its changes (merge, or a watched replace) and its alert; every run is saved, noted on its
 * saved import and given its row of the run log (written by the target port, src/gas/import-ports.ts).
 */
import { grouped, plural } from '../api/numbers';
import { type Change, joined, mergeTables, type Refusal, refusal, replaced, writeOwned } from './ownership';
import type { ImportPorts } from './ports';
import { pagesRead, type RunState, type RunSummary, summarize } from './run-state';
import type { Kept } from './shape';
import type { ImportSpec, Offer } from './spec';
import { afterWrite } from './watch';

export const RUN_LOG = 'Investor Data log';
export const CHANGE_LOG = 'Investor Data changes';
export const RUN_LOG_HEADER =
  'Started,Ended,Sheet,Mode,Source,Outcome,Read,Kept,Pages,Fetches,Retries,Executions,Message,History rows,Alert'.split(
    ',',
  );
export const CHANGE_LOG_HEADER = ['When', 'Sheet', 'Partner id', 'Change', 'Field', 'Before', 'After'];

export function writeTarget(
  spec: ImportSpec,
  run: RunState,
  { rows, unmatched }: Kept,
  read: number,
  ports: ImportPorts,
  skippedNote: string,
): RunSummary {
  const existing = ports.target.read(spec.sheetName);
  // Replace anyway: what it overwrites of the analyst's is said, never dropped without a word.
  const refused = refusal(existing, spec, spec.sheetName);
  if (refused && !run.force) return failRun(spec, run, ports, refused);
  let note = refused?.overwrote ?? '';
  if (spec.mode === 'merge') {
    const merged = mergeTables(existing, spec.fields, rows, unmatched);
    note = logChanges(spec, ports, merged.changes);
    // The import owns the rows it wrote and, in the rows it kept, the cells it had written that no one changed since.
    const before = existing ? joined(existing, spec.id).ours : () => false;
    writeOwned(spec, ports, { ...merged, owns: (r, c) => merged.owns(r, c) || before(r, c) });
  } else {
    // A watched replace logs its changes too, so the alert's link to the change log shows them: none over a table it
    // cannot match by id (one a merge refuses, such as a table the import did not write, replaced anyway).
    if (spec.alert?.baselineAt !== undefined && !refusal(existing, { ...spec, mode: 'merge' }, spec.sheetName))
      logChanges(spec, ports, mergeTables(existing, spec.fields, rows, unmatched).changes);
    writeOwned(spec, ports, replaced(existing, spec.fields, rows));
  }
  run.read = rows.length;
  const filtered = spec.filters?.length ? ' matching the filters' : '';
  const which = spec.fit ? `the best fits to fund ${spec.fit.fund}${filtered}` : filtered && `those${filtered}`;
  const partners = plural(read, 'active limited partner');
  const wrote = which ? `${grouped(run.read)} of ${partners} (${which})` : plural(run.read, 'active limited partner');
  run.message = `Imported ${wrote} into "${spec.sheetName}".${note}${skippedNote}${afterWrite(spec, run, rows, ports)}`;
  return endRun(spec, run, ports, { status: 'done', read });
}

type RunEnd = { status: 'done' | 'failed' | 'cancelled'; read: number; detail?: string; offers?: Offer[] };

/** Saves the ended run, notes it on its saved import, and logs it: `read` partners listed, its message, then `detail`. */
function endRun(spec: ImportSpec, run: RunState, ports: ImportPorts, end: RunEnd): RunSummary {
  const { status, read, offers } = end;
  const now = ports.now();
  ports.staging.remove(spec.id);
  const rows = status === 'done' ? run.read : 0;
  Object.assign(run, { status, updatedAt: now });
  ports.store.save(run);
  const specs = ports.store.specs();
  const mine = specs.find((i) => i.id === spec.id);
  if (mine) {
    // The rows its sheet holds: a run that wrote nothing keeps the count of the last that did.
    const kept = status === 'done' ? rows : (mine.last?.rows ?? 0);
    mine.last = { at: now, status, rows: kept, message: run.message, ...(offers?.length ? { offers } : {}) };
    ports.store.saveSpecs(specs);
  }
  ports.logs.run([
    new Date(run.startedAt),
    new Date(now),
    spec.sheetName,
    spec.mode,
    run.source,
    status,
    read,
    rows,
    pagesRead(run),
    run.fetches,
    run.retries,
    run.executions,
    run.message + (end.detail ?? ''),
    run.historyRows ?? '',
    run.alert ?? '',
  ]);
  return summarize(spec.id, run);
}

/**
 * Ends a run without touching the target table. Its message is the reason (none for a cancel) and what became of the
 * sheet, never the outcome: its status, shown beside it, says that. A refused replace's log row names every cell.
 */
export function failRun(
  spec: ImportSpec,
  run: RunState,
  ports: ImportPorts,
  reason: string | Refusal,
  status: 'failed' | 'cancelled' = 'failed',
): RunSummary {
  const { message, all, offers } = typeof reason === 'string' ? { message: reason } : reason;
  run.message = `${message ? `${message} ` : ''}The sheet "${spec.sheetName}" keeps its previous data.`;
  return endRun(spec, run, ports, { status, read: 0, detail: all && ` Every cell: ${all}.`, offers });
}

/** Writes `changes` to the change log, each with the time and the import's sheet, and says what a merge did. */
function logChanges(spec: ImportSpec, ports: ImportPorts, changes: readonly Change[]): string {
  const when = new Date(ports.now());
  ports.logs.changes(changes.map((c) => [when, spec.sheetName, c.id, c.change, c.field, c.before, c.after]));
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
