/**
 * Saved imports: what an analyst asked for (target sheet, columns, replace or merge by id, the
 * partners to keep and their order, an optional schedule) and what its last run did. Checked here, so every endpoint and trigger
 * works with a valid spec; pure, so it is tested without Apps Script.
 */
import { badInput } from '../api/errors';
import { LP_FIELDS } from '../api/records';
import { checkFilters, checkSort, type FilterCondition, type FilterOp, type SortKey } from '../table/filter';
import { idText } from '../table/input';
import { FIT_FIELDS } from '../table/match';

export type { FilterCondition, FilterOp, SortKey };

export type ImportMode = 'replace' | 'merge';

export interface Schedule {
  /** hour: every `hours` hours (1, 2, 4, 6, 8 or 12); day: daily at `atHour`; week: weekly on `weekday` (0 = Sunday) at `atHour`. */
  every: 'hours' | 'day' | 'week';
  hours?: number;
  atHour?: number;
  weekday?: number;
}

/**
 * A user of the add-in, by record: `id` is a random id kept in the user's own properties (the same
 * in every document of an add-on, needing no scope), `email` their address when Apps Script gives
 * it ('' without the userinfo.email scope). What a user owns is theirs by this record, never by
 * who happens to run an execution.
 */
export interface Person {
  id: string;
  email: string;
}

/**
 * A schedule and its owner: only the owner's trigger runs it, with the owner's key, fetch quota
 * and mail quota. The spreadsheet's copy names the owner; what makes it theirs is the owner's own
 * record of it (src/gas/mine.ts), which no other editor can write.
 */
export interface OwnedSchedule extends Schedule {
  by: Person;
}

/** A user the add-in knows nothing of (no id, no address): what an unsaved spec is checked as. */
export const NOBODY: Person = { id: '', email: '' };

/** A schedule as its owner records it: the import and when it runs. */
export const scheduleSubject = (importId: string, s: Schedule): string =>
  `${importId}|${s.every}|${s.hours ?? ''}|${s.atHour ?? ''}|${s.weekday ?? ''}`;

/** What a refused run lets the analyst choose: let the import own the table, or Replace anyway. */
export type Offer = 'adopt' | 'force';

export interface LastRun {
  at: number;
  status: 'done' | 'failed' | 'cancelled';
  rows: number;
  message: string;
  /** Recorded where the run was refused: the choices its message names. */
  offers?: Offer[];
}

/** What an alert watches: partners added, removed (no longer listed or matching), fields changed. */
export type AlertOn = 'added' | 'removed' | 'changed';
export const ALERT_ON: readonly AlertOn[] = ['added', 'removed', 'changed'];

/** An email to its owner after a completed run that found changes of these kinds (of these fields only, when given). */
export interface Alert {
  on: AlertOn[];
  fields?: string[];
  /** The address of the user who saved it: the only recipient, and the only user who may change or remove it. */
  owner: string;
  /** When a completed run first saw the table with this alert on: runs before it send nothing. */
  baselineAt?: number;
}

/**
 * Each completed run's rows kept, with the run's time, in a history sheet beside the import: the
 * last `keep` runs by their time. `sheet` is recorded when history is switched on, unique among
 * the spreadsheet's imports and their sheets.
 */
export interface History {
  keep: number;
  sheet: string;
}

export const MAX_HISTORY_RUNS = 100;

/** Sort by fit to a venture fund (src/table/match.ts, the ranking of LP_MATCH), keeping the best `top` when given. */
export interface FitSort {
  fund: string;
  top?: number;
}

export const MAX_FIT_TOP = 20000;

export interface ImportSpec {
  id: string;
  sheetName: string;
  fields: string[];
  mode: ImportMode;
  /** Conditions every written partner meets (src/table/filter.ts), applied after the complete read; absent: every active partner. */
  filters?: FilterCondition[];
  /** Up to three sort keys; absent: the service's order. */
  sort?: SortKey[];
  /** Sorted by fit to a fund instead (best first, ties by id): the fit columns (fitScore, …) can then be written. */
  fit?: FitSort;
  schedule?: OwnedSchedule;
  nextDueAt?: number;
  last?: LastRun;
  history?: History;
  alert?: Alert;
  /** The analyst chose Replace anyway for every run of this import, scheduled ones included. */
  replaceAnyway?: boolean;
}

export const DEFAULT_IMPORT_FIELDS: readonly string[] = [
  'id',
  'fullName',
  'firm',
  'currentInvestingPosition',
  'investorType',
  'headquarters',
  'region',
  'ticketSize',
  'sectorsFocused',
  'email',
  'linkedinProfile',
  'updatedAt',
];

/** Names Sheets refuses or that the add-in uses for itself. */
const RESERVED = /^(Investor Data (log|changes)|__staging_.*|__listed_.*)$/i;

/**
 * The sheet a new history of the import writing `sheetName` is kept in: "<sheet> history", cut to
 * Sheets' 100 characters, numbered when another import's sheet or history has that name.
 */
export function historySheetName(sheetName: string, taken: readonly string[]): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' history' : ` history ${n}`;
    const name = `${sheetName.slice(0, 100 - suffix.length)}${suffix}`;
    if (!taken.some((t) => sameSheetName(t, name))) return name;
  }
}

/** `undefined` keeps what was saved (`before`); null removes it; a new history's sheet is named once, avoiding `taken`. */
export function checkHistory(
  input: unknown,
  before: History | undefined,
  sheetName: string,
  taken: readonly string[],
): History | undefined {
  if (input === undefined) return before;
  if (input === null) return undefined;
  const keep = (input as Partial<History>).keep;
  if (!Number.isInteger(keep) || (keep as number) < 1 || (keep as number) > MAX_HISTORY_RUNS)
    throw badInput(`History keeps 1 to ${MAX_HISTORY_RUNS} runs.`);
  return { keep: keep as number, sheet: before?.sheet ?? historySheetName(sheetName, taken) };
}

/** The same address, as mail systems compare them. */
const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** An alert's own settings as sent (which changes, of which fields), checked against the fields the import writes. */
function alertSettings(input: unknown, fields: readonly string[]): { on: AlertOn[]; fields?: string[] } {
  const a = input as { on?: unknown; fields?: unknown };
  const on = Array.isArray(a.on) ? [...new Set(a.on.map(String))] : [];
  if (!on.length || on.some((o) => !ALERT_ON.includes(o as AlertOn)))
    throw badInput('An alert is on partners added, removed or changed (one or more).');
  let watched: string[] | undefined;
  if (a.fields !== undefined && a.fields !== null) {
    if (!Array.isArray(a.fields) || !a.fields.length)
      throw badInput('Name the fields an alert watches, or leave them out to watch every field.');
    watched = [...new Set(a.fields.map(String))];
    const unknown = watched.filter((f) => !fields.includes(f));
    if (unknown.length)
      throw badInput(`An alert watches fields the import writes; not: ${unknown.slice(0, 5).join(', ')}.`);
  }
  return { on: ALERT_ON.filter((o) => on.includes(o)), ...(watched ? { fields: watched } : {}) };
}

/**
 * The alert as saved by `user`, over the one saved before: `undefined` keeps it, null removes it.
 * Only its owner may change or remove an alert: an editor who is not cannot make the owner's
 * runs mail anyone else, nor silence them. An alert on a scheduled import is its schedule
 * owner's: the scheduled runs send it from their account.
 */
export function checkAlert(
  input: unknown,
  fields: readonly string[],
  before: Alert | undefined,
  user: Person,
  schedule?: OwnedSchedule,
): Alert | undefined {
  if (input === undefined) return before;
  const same = (a: Alert | undefined, b: { on: AlertOn[]; fields?: string[] } | undefined) =>
    JSON.stringify(a ? [a.on, a.fields ?? null] : null) === JSON.stringify(b ? [b.on, b.fields ?? null] : null);
  const next = input === null ? undefined : alertSettings(input, fields);
  if (same(before, next)) return before;
  if (before && !sameAddress(before.owner, user.email))
    throw badInput(`Only ${before.owner}, who saved this import's alert, can change or remove it.`);
  if (!next) return undefined;
  if (!user.email) throw badInput('Your email address is not available to the add-in, so it cannot send you alerts.');
  if (schedule && schedule.by.id !== user.id)
    throw badInput(
      `This import is scheduled by ${schedule.by.email || 'another editor'}: its scheduled runs would send your alert from their account. Schedule it yourself first (Schedule ▸ Save), then save the alert.`,
    );
  return { ...next, owner: user.email, ...(before?.baselineAt !== undefined ? { baselineAt: before.baselineAt } : {}) };
}

/**
 * What an alert watches besides its own settings (the import's fields, filters and schedule) is
 * its owner's to narrow: a change by anyone else that would stop it from seeing what it watches
 * is refused, naming it: a watched field dropped, the filters, the sort by fit (it can keep only
 * the best N), the schedule, the sheet (a new one holds nothing to compare with). Widening (a field added) and the order are anyone's.
 */
export function checkCoverage(
  before: Pick<ImportSpec, 'alert' | 'fields' | 'filters' | 'fit' | 'schedule' | 'sheetName'>,
  after: Pick<ImportSpec, 'fields' | 'filters' | 'fit' | 'schedule' | 'sheetName'>,
  user: Person,
): void {
  const alert = before.alert;
  if (!alert || sameAddress(alert.owner, user.email)) return;
  const needed = alert.fields ?? before.fields;
  const dropped = needed.filter((f) => !after.fields.includes(f));
  const narrowed = [
    dropped.length ? `the field${dropped.length > 1 ? 's' : ''} ${dropped.slice(0, 5).join(', ')}` : '',
    JSON.stringify(before.filters ?? []) !== JSON.stringify(after.filters ?? []) ? 'the filters' : '',
    // Kept to the best N by fit, the list the alert sees is cut.
    JSON.stringify(before.fit ?? null) !== JSON.stringify(after.fit ?? null) ? 'the sort by fit' : '',
    JSON.stringify(before.schedule ?? null) !== JSON.stringify(after.schedule ?? null) ? 'the schedule' : '',
    // A new sheet holds no values to compare with: the alert would see no field change.
    !sameSheetName(before.sheetName, after.sheetName) ? 'the sheet' : '',
  ].filter(Boolean);
  if (narrowed.length)
    throw badInput(
      `Only ${alert.owner}, who saved this import's alert, can change ${narrowed.join(' and ')}: the alert watches what they cover. Nothing was changed.`,
    );
}
const HOUR = 3_600_000;

/** Sheet names as Sheets compares them: no two sheets differ only in case. */
export const sameSheetName = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export function checkSheetName(input: unknown): string {
  const name = typeof input === 'string' ? input.trim() : '';
  if (!name) throw badInput('Give the sheet a name.');
  if (name.length > 100) throw badInput('Sheet names are at most 100 characters.');
  if (/[[\]*?:/\\]/.test(name)) throw badInput('Sheet names cannot contain [ ] * ? : / or \\.');
  if (RESERVED.test(name)) throw badInput(`"${name}" is reserved by the add-in; pick another sheet name.`);
  return name;
}

export function checkSchedule(input: unknown): Schedule | undefined {
  if (input === null || input === undefined) return undefined;
  const s = input as Partial<Schedule>;
  const hour = (h: unknown) => {
    if (!Number.isInteger(h) || (h as number) < 0 || (h as number) > 23)
      throw badInput('The hour must be a whole number from 0 to 23.');
    return h as number;
  };
  if (s.every === 'hours') {
    if (![1, 2, 4, 6, 8, 12].includes(s.hours as number)) throw badInput('Refresh every 1, 2, 4, 6, 8 or 12 hours.');
    return { every: 'hours', hours: s.hours };
  }
  if (s.every === 'day') return { every: 'day', atHour: hour(s.atHour) };
  if (s.every === 'week') {
    if (!Number.isInteger(s.weekday) || (s.weekday as number) < 0 || (s.weekday as number) > 6)
      throw badInput('The weekday must be 0 (Sunday) to 6 (Saturday).');
    return { every: 'week', weekday: s.weekday, atHour: hour(s.atHour) };
  }
  throw badInput('A schedule is every N hours, daily at an hour, or weekly on a day at an hour.');
}

/** The first due time strictly after `after` (UTC hours, as the script's time zone is UTC). */
export function nextDue(s: Schedule, after: number): number {
  if (s.every === 'hours') return after + (s.hours as number) * HOUR;
  const d = new Date(after);
  d.setUTCHours(s.atHour as number, 0, 0, 0);
  if (s.every === 'week') d.setUTCDate(d.getUTCDate() + (((s.weekday as number) - d.getUTCDay() + 7) % 7));
  while (d.getTime() <= after) d.setUTCDate(d.getUTCDate() + (s.every === 'week' ? 7 : 1));
  return d.getTime();
}

/** Sort by fit as the sidebar sends it: a fund id and an optional number of partners to keep; null or absent is none. */
export function checkFit(input: unknown): FitSort | undefined {
  if (input === undefined || input === null) return undefined;
  const f = input as { fund?: unknown; top?: unknown };
  const fund = idText(f.fund);
  if (fund === null) throw badInput('Name the venture fund to sort by fit to (an id such as vf_0003).');
  if (f.top === undefined || f.top === null || f.top === '') return { fund };
  const top = typeof f.top === 'string' && /^\s*\d+\s*$/.test(f.top) ? Number(f.top) : f.top;
  if (!Number.isInteger(top) || (top as number) < 1 || (top as number) > MAX_FIT_TOP)
    throw badInput(`Keep the best 1 to ${MAX_FIT_TOP} partners, or leave it blank for all.`);
  return { fund, top: top as number };
}

/** Sort by fit within a spec: never beside a sort by fields; the fit columns only with it. */
function checkFitSort(input: unknown, sort: readonly SortKey[], fields: readonly string[]): FitSort | undefined {
  const fit = checkFit(input);
  if (fit && sort.length) throw badInput('Sort by fit to a fund, or by fields: not both.');
  const fitFields = fields.filter((f) => FIT_FIELDS.includes(f));
  if (fitFields.length && !fit)
    throw badInput(
      `The columns ${fitFields.join(', ')} come from sorting by fit to a fund: choose that sort, or remove them.`,
    );
  return fit;
}

/**
 * The import's sheet and its history's, each apart from every other import's sheets (and from
 * each other): returns the history as it will be saved.
 */
function checkSheets(
  sheetName: string,
  input: unknown,
  before: History | undefined,
  others: readonly ImportSpec[],
): History | undefined {
  const clash = others.find(
    (e) => sameSheetName(e.sheetName, sheetName) || (e.history && sameSheetName(e.history.sheet, sheetName)),
  );
  if (clash)
    throw badInput(
      sameSheetName(clash.sheetName, sheetName)
        ? `Another saved import already writes the sheet "${sheetName}".`
        : `The sheet "${sheetName}" keeps the history of the import into "${clash.sheetName}"; pick another sheet name.`,
    );
  const taken = [sheetName, ...others.flatMap((e) => [e.sheetName, ...(e.history ? [e.history.sheet] : [])])];
  const history = checkHistory(input, before, sheetName, taken);
  if (history && sameSheetName(history.sheet, sheetName))
    throw badInput(`"${sheetName}" keeps this import's history; pick another sheet name, or switch history off first.`);
  return history;
}

/**
 * Replace anyway on every run, as saved (left out), or off (null or false). It is turned on only by
 * Replace anyway on a refused run, where the analyst has seen what it overwrites.
 */
function checkReplaceAnyway(input: unknown, before: boolean | undefined): boolean | undefined {
  if (input === undefined) return before;
  if (input === null || input === false) return undefined;
  throw badInput(
    'Replace anyway is turned on by pressing Replace anyway on a refused run; a save can only turn it off (null).',
  );
}

/** The columns chosen (left out: as saved, or the defaults), unknown ones refused, `id` always among them. */
function checkFields(input: unknown, before: readonly string[] | undefined): string[] {
  const fields =
    Array.isArray(input) && input.length
      ? input.map(String)
      : input === undefined && before
        ? [...before]
        : [...DEFAULT_IMPORT_FIELDS];
  const unknown = fields.filter((f) => !LP_FIELDS.includes(f) && !FIT_FIELDS.includes(f));
  if (unknown.length)
    throw badInput(`Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 5).join(', ')}.`);
  const unique = [...new Set(fields)];
  if (!unique.includes('id')) unique.unshift('id');
  return unique;
}

/**
 * A spec from the sidebar's form, saved by `user`: checked, fields in the order chosen, unknown
 * ones refused, filters and sort checked (refused with a message naming the problem). One rule
 * for every setting of a saved import: left out (undefined), it stays as saved (a new import
 * takes the defaults: every active partner, the default columns, replace); null removes the
 * filters, sort, sort by fit, history, alert or Replace anyway on every run. A change that would
 * narrow what another user's alert watches is refused (checkCoverage).
 */
export function checkSpec(
  input: unknown,
  existing: readonly ImportSpec[],
  newId: () => string,
  user: Person = NOBODY,
): ImportSpec {
  if (!input || typeof input !== 'object') throw badInput('No import settings were given.');
  const i = input as { [K in keyof ImportSpec]?: unknown };
  const id = typeof i.id === 'string' && existing.some((e) => e.id === i.id) ? i.id : newId();
  const before = existing.find((e) => e.id === id);
  const sheetName = checkSheetName(i.sheetName === undefined && before ? before.sheetName : i.sheetName);
  const unique = checkFields(i.fields, before?.fields);
  const mode = i.mode ?? before?.mode ?? 'replace';
  if (mode !== 'replace' && mode !== 'merge') throw badInput('The mode is "replace" or "merge".');
  const filters = checkFilters(i.filters === undefined ? before?.filters : i.filters);
  const sort = checkSort(i.sort === undefined ? before?.sort : i.sort);
  const fit = checkFitSort(i.fit === undefined ? before?.fit : i.fit, sort, unique);
  const others = existing.filter((e) => e.id !== id);
  const history = checkSheets(sheetName, i.history, before?.history, others);
  if (before) checkCoverage(before, { fields: unique, filters, fit, schedule: before.schedule, sheetName }, user);
  const alert = checkAlert(i.alert, unique, before?.alert, user, before?.schedule);
  return {
    id,
    sheetName,
    fields: unique,
    mode,
    ...(filters.length ? { filters } : {}),
    ...(sort.length ? { sort } : {}),
    ...(fit ? { fit } : {}),
    schedule: before?.schedule,
    nextDueAt: before?.nextDueAt,
    last: before?.last,
    ...(history ? { history } : {}),
    ...(alert ? { alert } : {}),
    replaceAnyway: checkReplaceAnyway(
      i.replaceAnyway,
      before && sameSheetName(before.sheetName, sheetName) ? before.replaceAnyway : undefined,
    ),
  };
}
