/**
 * Formula arguments as Sheets passes them (a value, or a 2D array for a range) into checked
 * values: ids with blanks kept in place and the range's direction (a row of ids comes back as a
 * row; a blank id, or a range of blanks, is no error but blank rows, so a formula can be filled
 * down ahead of its data), whole numbers for page and limit, a yes/no for headers. A bad argument is a BAD_INPUT
 * error that says what was expected; in a range of ids, a bad cell (a lone surrogate, a boolean,
 * a date, an id too long) fails only its own row.
 */
import { grouped } from '../api/numbers';
import { badInput } from '../api/errors';

/** Most distinct ids one formula call fetches. */
export const MAX_IDS = 20000;
/** Longest id accepted (the request URL must stay under 2,082 characters). */
export const MAX_ID_LENGTH = 1000;

export interface IdList {
  /** One entry per input cell, in order; null for a blank cell (whitespace only is blank). */
  rows: Array<string | null>;
  /** The distinct ids, in first-seen order; empty when every cell is blank. */
  unique: string[];
  /** Whether the input was a single value rather than a range. */
  single: boolean;
  /** Whether the input was one row of several cells, so the answer goes back as a row. */
  across: boolean;
  /** Cells that hold no usable id, by position in `rows` (where they are null): why. */
  invalid: Record<number, string>;
}

/** A UTF-16 surrogate without its partner: such text cannot be URL-encoded or sent. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The id a cell holds (null when blank); throws BAD_INPUT for what cannot be an id. */
export function idText(cell: unknown): string | null {
  if (cell === undefined || cell === null) return null;
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) throw badInput('An id is not a finite number.');
    return String(cell);
  }
  if (typeof cell === 'string') {
    const text = cell.trim();
    if (text === '') return null;
    if (text.length > MAX_ID_LENGTH)
      throw badInput(`An id is ${grouped(text.length)} characters long; ids are at most ${grouped(MAX_ID_LENGTH)}.`);
    if (LONE_SURROGATE.test(text))
      throw badInput('An id holds a broken character (half of a UTF-16 surrogate pair) and cannot be sent.');
    return text;
  }
  if (typeof cell === 'boolean')
    throw badInput(`${String(cell).toUpperCase()} is not an id: pass id text or a range of ids.`);
  if (cell instanceof Date) throw badInput('A date is not an id: pass id text or a range of ids.');
  throw badInput('Not an id: pass id text or a range of ids.');
}

export function readIds(input: unknown): IdList {
  if (!Array.isArray(input)) {
    const id = idText(input);
    return { rows: [id], unique: id === null ? [] : [id], single: true, across: false, invalid: {} };
  }
  const grid = input.map((row) => (Array.isArray(row) ? row : [row]));
  const height = grid.length;
  const width = Math.max(0, ...grid.map((r) => r.length));
  if (height > 1 && width > 1) throw badInput(`Pass one column or one row of ids (got ${height} × ${width}).`);
  const invalid: Record<number, string> = {};
  const rows = grid.flat().map((cell, i) => {
    try {
      return idText(cell);
    } catch (e) {
      invalid[i] = (e as Error).message;
      return null;
    }
  });
  const unique = [...new Set(rows.filter((r): r is string => r !== null))];
  const firstInvalid = Object.values(invalid)[0];
  if (unique.length === 0 && firstInvalid !== undefined) throw badInput(firstInvalid);
  if (unique.length > MAX_IDS)
    throw badInput(
      `${grouped(unique.length)} distinct ids in one formula; at most ${grouped(MAX_IDS)}. Split the range.`,
    );
  // Several rows and several columns were refused above: a range wider than one cell is one row.
  return { rows, unique, single: false, across: width > 1, invalid };
}

/** One value where one is expected: a range of one cell is that cell, a larger range is an error. */
export function oneValue(input: unknown, name: string): unknown {
  if (!Array.isArray(input)) return input;
  const cells = input.flat(2);
  if (cells.length <= 1) return cells[0];
  const width = Math.max(0, ...input.map((r) => (Array.isArray(r) ? r.length : 1)));
  throw badInput(`${name} takes one value, not a range (got ${input.length} × ${width} cells).`);
}

/** A whole number ≥ 1 (a number, or plain decimal digits as text) or the default when blank. */
export function readPositiveInt(
  input: unknown,
  name: string,
  fallback: number | undefined,
  max = 1_000_000,
): number | undefined {
  const value = oneValue(input, name);
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (!Number.isInteger(n) || (n as number) < 1) {
    throw badInput(`${name} must be a whole number of 1 or more (got ${JSON.stringify(value).slice(0, 40)}).`);
  }
  if ((n as number) > max) throw badInput(`${name} must be at most ${grouped(max)} (got ${grouped(n as number)}).`);
  return n as number;
}

export function readFlag(input: unknown, name: string, fallback: boolean): boolean {
  const value = oneValue(input, name);
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw badInput(`${name} must be TRUE or FALSE (got ${JSON.stringify(value).slice(0, 40)}).`);
}
