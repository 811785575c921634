/**
 * What a user owns in a spreadsheet, in that user's own properties, where no other editor can
 * write: the schedules they saved (each import's schedule as they saved it) and the runs they
 * began that may be unfinished. The spreadsheet's saved imports and runs (document properties,
 * which every editor can write) name an owner for display; a user's trigger runs a schedule or
 * carries on a run only when this record says it is theirs, so a schedule or run another editor
 * wrote by hand, or an old one put back, never spends their key. One property per spreadsheet
 * (an add-on's user properties are the same in every document).
 */
import type { RunState } from '../import/run-state';
import { type ImportSpec, type Person, scheduleSubject } from '../import/spec';
import { book } from './sheets';
import { loadImports, loadRun } from './store';

const MINE = 'INVESTOR_DATA_MINE_';

interface Mine {
  /** Import id → the schedule as this user saved it (scheduleSubject). */
  schedules: Record<string, string>;
  /** Runs this user began here that were running when last seen. */
  runs: string[];
}

const key = () => MINE + book().getId();

function read(): Mine {
  const text = PropertiesService.getUserProperties().getProperty(key());
  const m = text ? (JSON.parse(text) as Partial<Mine>) : {};
  return { schedules: m.schedules ?? {}, runs: m.runs ?? [] };
}

function write(m: Mine): void {
  const props = PropertiesService.getUserProperties();
  if (!Object.keys(m.schedules).length && !m.runs.length) props.deleteProperty(key());
  else props.setProperty(key(), JSON.stringify(m));
}

/** Records that this user saved `spec`'s schedule as it now stands (or removed it). */
export function recordSchedule(spec: Pick<ImportSpec, 'id' | 'schedule'>): void {
  const m = read();
  if (spec.schedule) m.schedules[spec.id] = scheduleSubject(spec.id, spec.schedule);
  else delete m.schedules[spec.id];
  write(m);
}

/** Records that this user began run `runId`, dropping the runs of theirs that have ended (the record stays small). */
export function recordRun(runId: string): void {
  const m = read();
  const running = new Set(
    loadImports()
      .map((i) => loadRun(i.id))
      .filter((r) => r?.status === 'running')
      .map((r) => r?.runId),
  );
  m.runs = [...m.runs.filter((id) => running.has(id)), runId];
  write(m);
}

/** Whether `user` (this execution's user) saved `spec`'s schedule as it stands. */
export function ownsSchedule(spec: ImportSpec, user: Person, mine = read()): boolean {
  return (
    !!spec.schedule &&
    spec.schedule.by.id === user.id &&
    mine.schedules[spec.id] === scheduleSubject(spec.id, spec.schedule)
  );
}

/** Whether `user` (this execution's user) began `run`. */
export function ownsRun(run: RunState | null, user: Person, mine = read()): boolean {
  return !!run && run.by === user.id && mine.runs.includes(run.runId);
}

/** Drops from the record what the spreadsheet no longer holds as this user's: schedules changed or taken over, runs ended. */
export function tidyMine(
  imports: readonly ImportSpec[],
  runs: ReadonlyMap<string, RunState | null>,
  user: Person,
): void {
  const m = read();
  const before = JSON.stringify(m);
  for (const id of Object.keys(m.schedules)) {
    const spec = imports.find((i) => i.id === id);
    if (!spec || !ownsSchedule(spec, user, m)) delete m.schedules[id];
  }
  const running = new Set([...runs.values()].filter((r) => r?.status === 'running').map((r) => r?.runId));
  m.runs = m.runs.filter((id) => running.has(id));
  if (JSON.stringify(m) !== before) write(m);
}

export { read as readMine };
