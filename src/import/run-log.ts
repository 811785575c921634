/**
 * The run log and the change log: how an ended run is saved and noted on its saved import, its row
 * of the run log (one per run, done, failed or cancelled), and what a run's message says of a merge.
 * The sheets they are kept on are written by the target port (src/gas/import-ports.ts).
 */
import { grouped, plural } from '../api/numbers';
import type { Change } from './merge';
import type { ImportPorts } from './ports';
import { pagesRead, type RunState, type RunStatus, type RunSummary, summarize } from './run-state';
import type { ImportSpec, Offer } from './spec';

export const RUN_LOG = 'Investor Data log';
export const CHANGE_LOG = 'Investor Data changes';
export const RUN_LOG_HEADER =
  'Started,Ended,Sheet,Mode,Source,Outcome,Read,Kept,Pages,Fetches,Retries,Executions,Message,History rows,Alert'.split(
    ',',
  );
export const CHANGE_LOG_HEADER = ['When', 'Sheet', 'Partner id', 'Change', 'Field', 'Before', 'After'];

/**
 * Saves the ended run, notes its outcome on the saved import, and writes its row of the run log:
 * `read` partners of the complete list, `rows` written, the message with `detail` after it.
 */
export function logRun(
  spec: ImportSpec,
  run: RunState,
  ports: ImportPorts,
  status: Exclude<RunStatus, 'running'>,
  rows: number,
  read = rows,
  detail = '',
  offers?: Offer[],
): RunSummary {
  const now = ports.now();
  run.status = status;
  run.updatedAt = now;
  ports.store.save(run);
  const specs = ports.store.specs();
  const mine = specs.find((i) => i.id === spec.id);
  if (mine) {
    // The saved import's rows are those its sheet holds: a run that wrote nothing keeps the count of the last that did.
    mine.last = {
      at: now,
      status,
      rows: status === 'done' ? rows : (mine.last?.rows ?? 0),
      message: run.message,
      ...(offers?.length ? { offers } : {}),
    };
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
  reason: string | { message: string; all?: string; offers?: Offer[] },
  status: 'failed' | 'cancelled' = 'failed',
): RunSummary {
  ports.staging.remove(spec.id);
  const r = typeof reason === 'string' ? { message: reason } : reason;
  run.message = `${r.message ? `${r.message} ` : ''}The sheet "${spec.sheetName}" keeps its previous data.`;
  return logRun(spec, run, ports, status, 0, 0, r.all ? ` Every cell: ${r.all}.` : '', r.offers);
}

/** Writes `changes` to the change log, each with the time and the import's sheet. */
export function logChanges(spec: ImportSpec, ports: ImportPorts, changes: readonly Change[]): void {
  const when = new Date(ports.now());
  ports.logs.changes(changes.map((c) => [when, spec.sheetName, c.id, c.change, c.field, c.before, c.after]));
}

/** What a merge did, as its message says it. */
export function mergeNote(changes: readonly Change[]): string {
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

/** Ends a run that wrote its `run.read` rows of the `read` partners of the list: its message says which, then `notes`. */
export function doneRun(spec: ImportSpec, run: RunState, ports: ImportPorts, read: number, notes: string): RunSummary {
  const rows = run.read;
  const which = spec.fit
    ? `${grouped(rows)} of ${plural(read, 'active limited partner')} (the best fits to fund ${spec.fit.fund}${spec.filters?.length ? ' matching the filters' : ''})`
    : spec.filters?.length
      ? `${grouped(rows)} of ${plural(read, 'active limited partner')} (those matching the filters)`
      : plural(rows, 'active limited partner');
  run.message = `Imported ${which} into "${spec.sheetName}".${notes}`;
  return logRun(spec, run, ports, 'done', rows, read);
}
