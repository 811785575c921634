/**
 * The search behind =LP_FIND (pure: no Apps Script). `normalize` makes text case- and
 * accent-insensitive (compatibility decomposition, combining marks stripped, lower case, and the
 * letters decomposition leaves alone folded by hand: ß→ss, ø→o, æ→ae, ł→l, đ→d, …), with
 * punctuation and runs of spaces as one space. `searchRecords` finds the active partners whose
 * name, firm, headquarters or sectors hold every query word, ranked: an exact whole-field match
 * above a word-prefix match above a substring match, then a name above a firm above a
 * headquarters or sector, each record ranked by its weakest word (then by how many words match
 * in names and firms); ties keep input order.
 * `readQuery` and `readFindLimit` check the formula's arguments (BAD_INPUT with a clear message).
 */
import { grouped } from '../api/numbers';
import { badInput } from '../api/errors';
import type { ServiceRecord } from '../api/records';
import { oneValue, readPositiveInt } from './input';

/** Longest query accepted, in characters. */
export const MAX_QUERY_CHARS = 200;
export const DEFAULT_FIND_LIMIT = 50;
export const MAX_FIND_LIMIT = 5000;

/**
 * Lower-case letters that compatibility decomposition does not split into a base letter and a
 * mark (folding runs after lower-casing, so ẞ arrives as ß; NFKD already turns ſ into s and ŀ into l·).
 */
const FOLDS: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ı: 'i',
  ŧ: 't',
  ŋ: 'n',
  ĸ: 'k',
  ς: 'σ',
  ƒ: 'f',
  ɨ: 'i',
  ʉ: 'u',
  ɛ: 'e',
  ɔ: 'o',
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'g');
const ASCII = /^[ -~]*$/;
/**
 * Marks, and what is neither letter nor digit: built on first use, for text beyond ASCII only.
 * As literals their Unicode classes would cost V8 about 0.3 ms to parse in every execution (the
 * script is compiled in each), whether it searches or not.
 */
let unicode: { marks: RegExp; others: RegExp } | undefined;
const MARKS = '\\p{M}+';
const NOT_WORD = '[^\\p{L}\\p{N}]+';

/** Case- and accent-insensitive form of a text: `Müller-Łódź, Ørsted` → `muller lodz orsted`. */
export function normalize(text: string): string {
  // Plain ASCII (most text) has no accents or folded letters: the same result without decomposing.
  if (ASCII.test(text))
    return text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  unicode ??= { marks: new RegExp(MARKS, 'gu'), others: new RegExp(NOT_WORD, 'gu') };
  return text
    .normalize('NFKD')
    .replace(unicode.marks, '')
    .toLowerCase()
    .replace(FOLDABLE, (c) => FOLDS[c] ?? c)
    .replace(unicode.others, ' ')
    .trim();
}

/** How close a field comes to a query: higher is better. */
export const MatchKind = { Substring: 1, WordPrefix: 2, Exact: 3 } as const;

/** A searched field and its rank group: 0 name, 1 firm, 2 headquarters or sector (lower ranks higher). */
export interface SearchField {
  name: string;
  group: 0 | 1 | 2;
}

export const SEARCH_FIELDS: readonly SearchField[] = [
  { name: 'fullName', group: 0 },
  { name: 'name', group: 0 },
  { name: 'surname', group: 0 },
  { name: 'firm', group: 1 },
  { name: 'headquarters', group: 2 },
  { name: 'sectorsFocused', group: 2 },
];

/** Every field searchRecords reads: the searched ones, and the status that keeps inactive partners out. */
export const SEARCH_READS: readonly string[] = ['activeStatus', ...SEARCH_FIELDS.map((f) => f.name)];

export interface Query {
  /** The query as typed, trimmed. */
  text: string;
  /** Its normalized form and words. */
  normalized: string;
  words: string[];
}

export interface SearchOptions {
  limit?: number;
  /** The fields searched, with their rank groups (default SEARCH_FIELDS). */
  fields?: readonly SearchField[];
}

/** The query argument of LP_FIND: one non-blank value of at most 200 characters with a letter or digit. */
export function readQuery(input: unknown): Query {
  const value = oneValue(input, 'query');
  if (typeof value === 'boolean' || value instanceof Date)
    throw badInput('query must be text: the name, firm, headquarters or sector to find.');
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (text === '') throw badInput('query is blank: type a name, firm, headquarters or sector to find.');
  if (text.length > MAX_QUERY_CHARS)
    throw badInput(`query is ${grouped(text.length)} characters long; at most ${MAX_QUERY_CHARS}.`);
  const normalized = normalize(text);
  if (normalized === '') throw badInput(`query "${text}" holds no letters or digits to search for.`);
  return { text, normalized, words: normalized.split(' ') };
}

/** The limit argument of LP_FIND: a whole number from 1 to 5,000 (default 50). */
export function readFindLimit(input: unknown): number {
  return readPositiveInt(input, 'limit', DEFAULT_FIND_LIMIT, MAX_FIND_LIMIT) as number;
}

/** The texts of one field: a list gives one text per element (numbers as text; objects and blanks give none). */
export function texts(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' || typeof value === 'number') out.push(String(value));
  // A loop, not flatMap: LP_MATCH takes the texts of five fields of every partner.
  else if (Array.isArray(value)) for (const v of value) texts(v, out);
  return out;
}

/** How one query word matches a field: a word of the query never counts as more than a prefix (only the whole query can match exactly). */
function kindOf(field: string, word: string): number {
  if (field.startsWith(word) || field.includes(` ${word}`)) return MatchKind.WordPrefix;
  return field.includes(word) ? MatchKind.Substring : 0;
}

interface Ranked {
  record: ServiceRecord;
  kind: number;
  group: number;
  /** The groups of every word's best match, summed: breaks ties in favour of more words in names. */
  total: number;
}

/** Better first: higher kind, then lower group. */
const better = (a: { kind: number; group: number }, b: { kind: number; group: number }) =>
  a.kind > b.kind || (a.kind === b.kind && a.group < b.group);

function rank(record: ServiceRecord, query: Query, fields: readonly SearchField[]): Ranked | undefined {
  const values = fields.flatMap((f) => texts(record[f.name]).map((t) => ({ text: normalize(t), group: f.group })));
  // An exact whole-field match of the whole query outranks everything.
  const exact = values.filter((v) => v.text === query.normalized).sort((a, b) => a.group - b.group)[0];
  if (exact) return { record, kind: MatchKind.Exact, group: exact.group, total: exact.group };
  // Otherwise every word must match somewhere; the record ranks by its weakest word's best match.
  let weakest: { kind: number; group: number } | undefined;
  let total = 0;
  for (const word of query.words) {
    let best: { kind: number; group: number } | undefined;
    for (const v of values) {
      const kind = kindOf(v.text, word);
      if (kind && (!best || better({ kind, group: v.group }, best))) best = { kind, group: v.group };
    }
    if (!best) return undefined;
    total += best.group;
    if (!weakest || better(weakest, best)) weakest = best;
  }
  return weakest && { record, ...weakest, total };
}

/**
 * No status, true, or ACTIVE in any case and spacing (as text, or a list holding it alone); never
 * String() of an object, which may throw.
 */
const isActive = (r: ServiceRecord): boolean =>
  r.activeStatus === undefined ||
  r.activeStatus === null ||
  r.activeStatus === true ||
  texts(r.activeStatus).join(',').trim().toUpperCase() === 'ACTIVE';

/** The active records that match every word of the query, best first, at most `limit`. */
export function searchRecords(
  records: readonly ServiceRecord[],
  query: Query | string,
  options: SearchOptions = {},
): ServiceRecord[] {
  const q = typeof query === 'string' ? readQuery(query) : query;
  const fields = options.fields ?? SEARCH_FIELDS;
  const found: Ranked[] = [];
  records.forEach((record) => {
    if (!isActive(record)) return;
    const r = rank(record, q, fields);
    if (r) found.push(r);
  });
  // The sort is stable: ties keep the input order.
  found.sort((a, b) => b.kind - a.kind || a.group - b.group || a.total - b.total);
  return found.slice(0, options.limit ?? DEFAULT_FIND_LIMIT).map((r) => r.record);
}
