/**
 * The add-in's one time-driven trigger per user per document, within Google's rules for Editor
 * add-ons (one trigger of each type per user per document; time-driven at most hourly; a user's
 * triggers run as that user; they stop when the add-on is disabled; nobody is emailed when one
 * fails). The hourly `runScheduledImports` does all the timed work of its user in this
 * document: the schedules they own, the runs they began that are unfinished, and formulas a
 * killed "Refresh all formulas" left erased. It exists while that user has such work and is
 * removed when they have none. Only what the user's own record says is theirs counts
 * (src/gas/mine.ts): a schedule or run another editor wrote into the document properties arms nothing. Each user's
 * trigger records when it was armed and when it last ran (in that user's own properties, per
 * spreadsheet, where no other editor can write), so the sidebar can show it and arm it again when
 * it has stopped firing (an add-on disabled and enabled again).
 */
import type { Person } from '../import/spec';
import { ownsRun, ownsSchedule, readMine } from './mine';
import { PROP } from './settings';
import { book } from './sheets';
import { loadImports, loadRun } from './store';

export const TIMER = 'runScheduledImports';
const HOUR = 3_600_000;
/** A timer that has not fired for this long while armed has stopped (it fires every hour). */
export const TIMER_SILENT_MS = 2 * HOUR + 10 * 60_000;
const TIMER_RECORD = 'INVESTOR_DATA_TIMER_';
export const REPAIR_WORK = 'putting back formulas an interrupted refresh left erased';

/** When a user's timer in this document was armed and last ran (clock ms). */
export interface TimerRecord {
  armedAt: number;
  ranAt?: number;
}

function mine(): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getUserTriggers(book()).filter((t) => t.getHandlerFunction() === TIMER);
}

/** The user's own record of their timer in this spreadsheet. */
const recordKey = () => TIMER_RECORD + book().getId();

function readRecord(): TimerRecord | null {
  const text = PropertiesService.getUserProperties().getProperty(recordKey());
  return text ? (JSON.parse(text) as TimerRecord) : null;
}

function writeRecord(record: TimerRecord | null): void {
  const props = PropertiesService.getUserProperties();
  if (record) props.setProperty(recordKey(), JSON.stringify(record));
  else props.deleteProperty(recordKey());
}

/** What `user`'s timer has to do in this document: '' when nothing. */
export function timerWork(user: Person): string {
  const imports = loadImports();
  const mine = readMine();
  if (imports.some((i) => ownsSchedule(i, user, mine))) return 'your scheduled imports';
  if (imports.some((i) => loadRun(i.id)?.status === 'running' && ownsRun(loadRun(i.id), user, mine)))
    return 'your unfinished import';
  if (PropertiesService.getDocumentProperties().getProperty(PROP.refreshJournal) !== null) return REPAIR_WORK;
  return '';
}

/** The timer's state for the sidebar: whether it is needed, armed, when it last ran, and whether it was armed again now. */
export interface TimerState {
  work: string;
  armed: boolean;
  ranAt?: number;
  rearmed: boolean;
}

/**
 * Keeps `user`'s timer right: one while they have work here (or `pending`, work the caller is
 * about to leave), none otherwise; one that has not fired for TIMER_SILENT_MS is made anew.
 */
export function syncTriggers(user: Person, pending = '', now = Date.now()): TimerState {
  const work = timerWork(user) || pending;
  const have = mine();
  const record = readRecord();
  if (!work) {
    for (const t of have) ScriptApp.deleteTrigger(t);
    if (record) writeRecord(null);
    return { work, armed: false, rearmed: false };
  }
  const silent = !!record && have.length > 0 && now - Math.max(record.armedAt, record.ranAt ?? 0) > TIMER_SILENT_MS;
  if (silent || have.length !== 1) {
    for (const t of have) ScriptApp.deleteTrigger(t);
    ScriptApp.newTrigger(TIMER).timeBased().everyHours(1).create();
    writeRecord({ armedAt: now, ...(record?.ranAt !== undefined ? { ranAt: record.ranAt } : {}) });
  } else if (!record) writeRecord({ armedAt: now });
  return { work, armed: true, ...(record?.ranAt !== undefined ? { ranAt: record.ranAt } : {}), rearmed: silent };
}

/** Notes that this user's timer ran now. */
export function timerRan(now = Date.now()): void {
  writeRecord({ armedAt: readRecord()?.armedAt ?? now, ranAt: now });
}
