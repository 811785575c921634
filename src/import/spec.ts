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

export interface LastRun {
  at: number;
  status: 'done' | 'failed' | 'cancelled';
  rows: number;
  message: string;
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

/** Each completed run's rows kept, with the run's time, in a history sheet beside the import: the last `keep` runs. */
export interface History {
  keep: number;
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
  schedule?: Schedule;
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

/** The sheet an import's history is kept in, beside its table. */
export const historySheetName = (sheetName: string): string => `${sheetName.slice(0, 92)} history`;

/** `undefined` keeps what was saved (`before`); null removes it. */
export function checkHistory(input: unknown, before?: History): History | undefined {
  if (input === undefined) return before;
  if (input === null) return undefined;
  const keep = (input as Partial<History>).keep;
  if (!Number.isInteger(keep) || (keep as number) < 1 || (keep as number) > MAX_HISTORY_RUNS)
    throw badInput(`History keeps 1 to ${MAX_HISTORY_RUNS} runs.`);
  return { keep: keep as number };
}

/**
 * The alert as saved by `user` (their address, '' when Apps Script does not give it), over the
 * one saved before: `undefined` keeps it, null removes it. Only its owner may change or remove an alert: an editor who is not cannot
 * make the owner's scheduled runs mail anyone else, nor silence them.
 */
export function checkAlert(
  input: unknown,
  fields: readonly string[],
  before: Alert | undefined,
  user: string,
): Alert | undefined {
  if (input === undefined) return before;
  const same = (a: Alert | undefined, b: { on: AlertOn[]; fields?: string[] } | undefined) =>
    JSON.stringify(a ? [a.on, a.fields ?? null] : null) === JSON.stringify(b ? [b.on, b.fields ?? null] : null);
  let next: { on: AlertOn[]; fields?: string[] } | undefined;
  if (input !== null) {
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
    next = { on: ALERT_ON.filter((o) => on.includes(o)), ...(watched ? { fields: watched } : {}) };
  }
  if (same(before, next)) return before;
  if (before && before.owner.toLowerCase() !== user.toLowerCase())
    throw badInput(`Only ${before.owner}, who saved this import's alert, can change or remove it.`);
  if (!next) return undefined;
  if (!user) throw badInput('Your email address is not available to the add-in, so it cannot send you alerts.');
  return { ...next, owner: user, ...(before?.baselineAt !== undefined ? { baselineAt: before.baselineAt } : {}) };
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
  const fund = idText(typeof f.fund === 'string' ? f.fund : f.fund === undefined ? null : f.fund);
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

/** A spec from the sidebar's form: checked, fields in the order chosen, unknown ones refused, filters and sort checked (refused with a message naming the problem). */
export function checkSpec(input: unknown, existing: readonly ImportSpec[], newId: () => string, user = ''): ImportSpec {
  if (!input || typeof input !== 'object') throw badInput('No import settings were given.');
  const i = input as Partial<ImportSpec>;
  const sheetName = checkSheetName(i.sheetName);
  const fields = Array.isArray(i.fields) && i.fields.length ? i.fields.map(String) : [...DEFAULT_IMPORT_FIELDS];
  const unknown = fields.filter((f) => !LP_FIELDS.includes(f) && !FIT_FIELDS.includes(f));
  if (unknown.length)
    throw badInput(`Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 5).join(', ')}.`);
  const unique = [...new Set(fields)];
  if (!unique.includes('id')) unique.unshift('id');
  const mode = i.mode ?? 'replace';
  if (mode !== 'replace' && mode !== 'merge') throw badInput('The mode is "replace" or "merge".');
  const filters = checkFilters(i.filters);
  const sort = checkSort(i.sort);
  const fit = checkFitSort(i.fit, sort, unique);
  const id = typeof i.id === 'string' && existing.some((e) => e.id === i.id) ? i.id : newId();
  const clash = existing.find((e) => e.id !== id && sameSheetName(e.sheetName, sheetName));
  if (clash) throw badInput(`Another saved import already writes the sheet "${sheetName}".`);
  const before = existing.find((e) => e.id === id);
  const history = checkHistory(i.history, before?.history);
  const historyClash = existing.find(
    (e) =>
      e.id !== id &&
      ((history && sameSheetName(e.sheetName, historySheetName(sheetName))) ||
        (e.history && sameSheetName(historySheetName(e.sheetName), sheetName))),
  );
  if (historyClash)
    throw badInput(
      `The sheet "${historyClash.sheetName}" and this import's history sheet would be the same sheet; pick another sheet name.`,
    );
  const alert = checkAlert(i.alert, unique, before?.alert, user);
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
    replaceAnyway: before && sameSheetName(before.sheetName, sheetName) ? before.replaceAnyway : undefined,
  };
}
