/**
 * The arguments of =LP_FILTER as Sheets passes them, into the checked query of the filter
 * engine (./filter.ts). Conditions are a range of rows: field | operator | value, blank rows
 * skipped, and a first row reading "field | operator | value" taken as a header. `isAnyOf`
 * takes its values from every cell from the third on, each cell split at ";" or a line break;
 * the other operators take one value (a date cell becomes the day it shows, TRUE/FALSE its text). Sort is
 * field names, comma-separated or a range, each optionally followed by "desc" or "asc" (in the
 * same text or the next cell). Messages name the row or key they are about.
 */
import { badInput } from '../api/errors';
import { type FieldSpec, LP_FIELD_SPECS } from '../api/records';
import { MAX_CELL_CHARS } from './cells';
import { checkCondition, checkSort, type FilterCondition, MAX_CONDITIONS, opKey, type SortKey } from './filter';
import { readPositiveInt } from './input';

export const DEFAULT_FILTER_LIMIT = 1000;
export const MAX_FILTER_LIMIT = 20000;
/**
 * Longest text of a sort cell, or of a condition's field or operator cell: three field names with
 * their directions fit in far less, and every text is refused past it before any pattern reads it.
 */
export const MAX_NAME_TEXT = 1000;

/**
 * Refuses a text longer than `max` by its length alone, before anything reads it (a formula can
 * pass far longer text than a cell holds, e.g. from REPT or a literal array).
 */
function checkLength(cell: unknown, max: number, what: string): void {
  if (typeof cell === 'string' && cell.length > max)
    throw badInput(
      `${what} is ${cell.length.toLocaleString('en-US')} characters long; at most ${max.toLocaleString('en-US')}.`,
    );
}

/** A condition row's cells checked for length: field and operator are names, the values at most a cell's text. */
function checkRowLengths(row: readonly unknown[], where: string): void {
  checkLength(row[0], MAX_NAME_TEXT, `${where}: the field`);
  checkLength(row[1], MAX_NAME_TEXT, `${where}: the operator`);
  for (let i = 2; i < row.length; i++) checkLength(row[i], MAX_CELL_CHARS, `${where}: a value`);
}

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A date's wall-clock time where the spreadsheet is (its time zone), as yyyy-MM-ddTHH:mm:ss. */
export type WallTime = (d: Date) => string;

/** The wall clock of a spreadsheet in UTC. */
export const utcWallTime: WallTime = (d) => d.toISOString().slice(0, 19);

/**
 * A cell as a filter value: a date as the day it shows in the spreadsheet (Sheets passes a date
 * cell as midnight in the spreadsheet's time zone), or as its instant when it holds a time too;
 * booleans as TRUE/FALSE text, the rest as is.
 */
function cellValue(cell: unknown, wallTime: WallTime): unknown {
  if (Object.prototype.toString.call(cell) === '[object Date]') {
    const d = cell as Date;
    if (Number.isNaN(d.getTime())) return 'an invalid date';
    const wall = wallTime(d);
    return wall.endsWith('T00:00:00') ? wall.slice(0, 10) : d.toISOString();
  }
  if (typeof cell === 'boolean') return String(cell).toUpperCase();
  return typeof cell === 'string' ? cell.trim() : cell;
}

const rowsOf = (input: unknown): unknown[][] =>
  Array.isArray(input) ? input.map((r) => (Array.isArray(r) ? r : [r])) : [[input]];

const isHeader = (row: readonly unknown[]): boolean =>
  typeof row[0] === 'string' &&
  row[0].trim().toLowerCase() === 'field' &&
  typeof row[1] === 'string' &&
  /^(op|operator)$/i.test(row[1].trim());

/** The conditions argument: rows of field | operator | value; blank means no condition. */
export function readConditions(
  input: unknown,
  specs: readonly FieldSpec[] = LP_FIELD_SPECS,
  wallTime: WallTime = utcWallTime,
): FilterCondition[] {
  if (blank(input)) return [];
  if (!Array.isArray(input))
    throw badInput('conditions must be a range of rows: field | operator | value (for example A1:C3).');
  const rows = rowsOf(input);
  const out: FilterCondition[] = [];
  rows.forEach((row, i) => checkRowLengths(row, `conditions row ${i + 1}`));
  rows.forEach((row, i) => {
    if (row.every(blank) || (i === 0 && isHeader(row))) return;
    if (out.length === MAX_CONDITIONS)
      throw badInput(`conditions: more than ${MAX_CONDITIONS} rows; at most ${MAX_CONDITIONS}.`);
    const values = row
      .slice(2)
      .filter((v) => !blank(v))
      .map((v) => cellValue(v, wallTime));
    const value =
      opKey(row[1]) === 'isanyof'
        ? values
            .flatMap((v) => (typeof v === 'string' ? v.split(/[;\n]/).map((s) => s.trim()) : [String(v)]))
            .filter((s) => s !== '')
        : values.length > 1
          ? values
          : values[0];
    out.push(checkCondition({ field: row[0], op: row[1], value }, `conditions row ${i + 1}`, specs));
  });
  return out;
}

const DIRECTION = /^(asc|ascending|desc|descending)$/i;

/**
 * One sort part (trimmed, not empty): its field, then its direction when its last word is one.
 * Linear: the last word is found by one split, never by a pattern that backtracks over the text.
 */
function sortWords(text: string): string[] {
  const words = text.split(/\s+/);
  const last = words[words.length - 1];
  if (words.length < 2 || !DIRECTION.test(last)) return [text];
  return [text.slice(0, text.length - last.length).trimEnd(), last];
}

/** The sort argument: field names, each optionally followed by asc or desc. */
export function readSortArg(input: unknown, specs: readonly FieldSpec[] = LP_FIELD_SPECS): SortKey[] {
  const all = rowsOf(input).flat();
  for (const cell of all) checkLength(cell, MAX_NAME_TEXT, 'sort: a text');
  const cells = all.filter((v) => !blank(v));
  const words: string[] = [];
  for (const cell of cells) {
    if (typeof cell !== 'string')
      throw badInput(
        `sort takes field names, each optionally followed by asc or desc; got ${JSON.stringify(cellValue(cell, utcWallTime))?.slice(0, 40)}.`,
      );
    for (const part of cell.split(/[,;\n]/)) {
      const text = part.trim();
      if (text) words.push(...sortWords(text));
    }
  }
  const keys: Array<{ field: string; descending?: boolean }> = [];
  for (const word of words) {
    if (!DIRECTION.test(word)) keys.push({ field: word });
    else if (keys.length === 0 || keys[keys.length - 1].descending !== undefined)
      throw badInput(`sort: "${word}" must follow a field name.`);
    else keys[keys.length - 1].descending = /^desc/i.test(word);
  }
  return checkSort(keys, specs);
}

/** The limit argument of LP_FILTER: a whole number from 1 to 20,000 (default 1,000). */
export function readFilterLimit(input: unknown): number {
  return readPositiveInt(input, 'limit', DEFAULT_FILTER_LIMIT, MAX_FILTER_LIMIT) as number;
}
