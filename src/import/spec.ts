/**
 * Saved imports: what an analyst asked for (target sheet, columns, replace or merge by id, the
 * partners to keep and their order, an optional schedule) and what its last run did. Checked here, so every endpoint and trigger
 * works with a valid spec; pure, so it is tested without Apps Script.
 */
import { badInput } from '../api/errors';
import { LP_FIELDS } from '../api/records';
import { checkFilters, checkSort, type FilterCondition, type FilterOp, type SortKey } from '../table/filter';

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

export interface ImportSpec {
  id: string;
  sheetName: string;
  fields: string[];
  mode: ImportMode;
  /** Conditions every written partner meets (src/table/filter.ts), applied after the complete read; absent: every active partner. */
  filters?: FilterCondition[];
  /** Up to three sort keys; absent: the service's order. */
  sort?: SortKey[];
  schedule?: Schedule;
  nextDueAt?: number;
  last?: LastRun;
  /** The analyst chose Replace anyway for every run of this import, scheduled ones included. */
  replaceAnyway?: boolean;
}

export const DEFAULT_IMPORT_FIELDS: readonly string[] = [
  'id', 'fullName', 'firm', 'currentInvestingPosition', 'investorType', 'headquarters', 'region',
  'ticketSize', 'sectorsFocused', 'email', 'linkedinProfile', 'updatedAt',
];

/** Names Sheets refuses or that the add-in uses for itself. */
const RESERVED = /^(Investor Data (log|changes)|__staging_.*)$/i;
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
    if (!Number.isInteger(h) || (h as number) < 0 || (h as number) > 23) throw badInput('The hour must be a whole number from 0 to 23.');
    return h as number;
  };
  if (s.every === 'hours') {
    if (![1, 2, 4, 6, 8, 12].includes(s.hours as number)) throw badInput('Refresh every 1, 2, 4, 6, 8 or 12 hours.');
    return { every: 'hours', hours: s.hours };
  }
  if (s.every === 'day') return { every: 'day', atHour: hour(s.atHour) };
  if (s.every === 'week') {
    if (!Number.isInteger(s.weekday) || (s.weekday as number) < 0 || (s.weekday as number) > 6) throw badInput('The weekday must be 0 (Sunday) to 6 (Saturday).');
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

/** A spec from the sidebar's form: checked, fields in the order chosen, unknown ones refused, filters and sort checked (refused with a message naming the problem). */
export function checkSpec(input: unknown, existing: readonly ImportSpec[], newId: () => string): ImportSpec {
  if (!input || typeof input !== 'object') throw badInput('No import settings were given.');
  const i = input as Partial<ImportSpec>;
  const sheetName = checkSheetName(i.sheetName);
  const fields = Array.isArray(i.fields) && i.fields.length ? i.fields.map(String) : [...DEFAULT_IMPORT_FIELDS];
  const unknown = fields.filter((f) => !LP_FIELDS.includes(f));
  if (unknown.length) throw badInput(`Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 5).join(', ')}.`);
  const unique = [...new Set(fields)];
  if (!unique.includes('id')) unique.unshift('id');
  const mode = i.mode ?? 'replace';
  if (mode !== 'replace' && mode !== 'merge') throw badInput('The mode is "replace" or "merge".');
  const filters = checkFilters(i.filters);
  const sort = checkSort(i.sort);
  const id = typeof i.id === 'string' && existing.some((e) => e.id === i.id) ? i.id : newId();
  const clash = existing.find((e) => e.id !== id && sameSheetName(e.sheetName, sheetName));
  if (clash) throw badInput(`Another saved import already writes the sheet "${sheetName}".`);
  const before = existing.find((e) => e.id === id);
  return {
    id, sheetName, fields: unique, mode, ...(filters.length ? { filters } : {}), ...(sort.length ? { sort } : {}),
    schedule: before?.schedule, nextDueAt: before?.nextDueAt, last: before?.last,
    replaceAnyway: before && sameSheetName(before.sheetName, sheetName) ? before.replaceAnyway : undefined,
  };
}
