/**
 * Formula arguments as Sheets passes them (a value, or a 2D array for a range) into checked
 * values: ids with blanks kept in place, whole numbers for page and limit, a yes/no for headers.
 * Every bad argument is a BAD_INPUT error that says what was expected.
 */
import { badInput } from '../api/errors';

/** Most distinct ids one formula call fetches. */
export const MAX_IDS = 5000;
/** Longest id accepted (the request URL must stay under 2,082 characters). */
export const MAX_ID_LENGTH = 1000;

export interface IdList {
  /** One entry per input cell, in order; null for a blank cell. */
  rows: Array<string | null>;
  /** The distinct ids, in first-seen order. */
  unique: string[];
  /** Whether the input was a single value rather than a range. */
  single: boolean;
}

function idText(cell: unknown): string | null {
  if (cell === undefined || cell === null || cell === '') return null;
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) throw badInput('An id is not a finite number.');
    return String(cell);
  }
  if (typeof cell === 'string') {
    const text = cell.trim();
    if (text === '') return null;
    if (text.length > MAX_ID_LENGTH) throw badInput(`An id is ${text.length} characters long; ids are at most ${MAX_ID_LENGTH}.`);
    return text;
  }
  if (typeof cell === 'boolean') throw badInput(`${String(cell).toUpperCase()} is not an id: pass id text or a range of ids.`);
  if (cell instanceof Date) throw badInput('A date is not an id: pass id text or a range of ids.');
  throw badInput('Not an id: pass id text or a range of ids.');
}

export function readIds(input: unknown): IdList {
  if (!Array.isArray(input)) {
    const id = idText(input);
    if (id === null) throw badInput('No id given: pass an id or a range of ids.');
    return { rows: [id], unique: [id], single: true };
  }
  const grid = input.map((row) => (Array.isArray(row) ? row : [row]));
  const height = grid.length;
  const width = Math.max(0, ...grid.map((r) => r.length));
  if (height > 1 && width > 1) throw badInput(`Pass one column or one row of ids (got ${height} × ${width}).`);
  const rows = grid.flat().map(idText);
  const unique = [...new Set(rows.filter((r): r is string => r !== null))];
  if (unique.length === 0) throw badInput('The range holds no ids.');
  if (unique.length > MAX_IDS) throw badInput(`${unique.length} distinct ids in one formula; at most ${MAX_IDS}. Split the range.`);
  return { rows, unique, single: false };
}

/** A whole number ≥ 1 or the default when blank. */
export function readPositiveInt(input: unknown, name: string, fallback: number | undefined, max = 1_000_000): number | undefined {
  const value = Array.isArray(input) ? input.flat(2)[0] : input;
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw badInput(`${name} must be a whole number of 1 or more (got ${JSON.stringify(value)?.slice(0, 40)}).`);
  }
  if (n > max) throw badInput(`${name} must be at most ${max} (got ${n}).`);
  return n;
}

export function readFlag(input: unknown, name: string, fallback: boolean): boolean {
  const value = Array.isArray(input) ? input.flat(2)[0] : input;
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw badInput(`${name} must be TRUE or FALSE (got ${JSON.stringify(value)?.slice(0, 40)}).`);
}
