/**
 * Filters and sort over partner records (pure: no Apps Script), one engine for a saved import
 * and for =LP_FILTER. A filter is a list of conditions that must all hold; a condition names a
 * field, an operator and (for most operators) a value. Text compares ignoring case and accents,
 * exactly as LP_FIND does (`normalize` in ./search.ts); on a list field a condition holds when
 * any element meets it; `atLeast`/`atMost` compare numbers and dates (a date without a time
 * covers its whole day). Sort takes up to three keys; text sorts as a person reads it (case and
 * accents do not split runs, "Fund 9" before "Fund 10"), blanks come last in either direction,
 * and ties keep the service's order. `checkFilters`/`checkSort` refuse, with a message naming
 * the condition, unknown fields, operators that do not fit the field's type, and missing or
 * ill-typed values; what they return is canonical (field names as the catalogue spells them,
 * numbers as numbers), so a checked query can be saved and compiled without further checks.
 */
import { grouped } from '../api/numbers';
import { badInput } from '../api/errors';
import { type FieldSpec, type FieldType, type JsonValue, LP_FIELD_SPECS, type ServiceRecord } from '../api/records';
import { asDate, asNumber } from './cells';
import { normalize } from './search';

export const FILTER_OPS = [
  'is',
  'isAnyOf',
  'contains',
  'startsWith',
  'atLeast',
  'atMost',
  'isEmpty',
  'isNotEmpty',
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface FilterCondition {
  field: string;
  op: FilterOp;
  value?: string | number | string[];
}

export interface SortKey {
  field: string;
  descending?: boolean;
}

export const MAX_CONDITIONS = 20;
export const MAX_SORT_KEYS = 3;
/** Values one isAnyOf condition may list. */
export const MAX_ANY_OF = 100;
/** Longest value text, in characters. */
export const MAX_VALUE_CHARS = 200;
/** Text sort keys are compared on their first this-many characters. */
export const SORT_TEXT_CHARS = 200;

/** How a field's values are compared: its declared type, as far as filters and sort are concerned. */
type Kind = 'text' | 'number' | 'date' | 'boolean' | 'other';

const kindOf = (type: FieldType): Kind =>
  type === 'string' || type === 'list'
    ? 'text'
    : type === 'integer' || type === 'float'
      ? 'number'
      : type === 'datetime'
        ? 'date'
        : type === 'boolean'
          ? 'boolean'
          : 'other';

/** The operators each kind of field takes. */
export const OPS_BY_KIND: Readonly<Record<Kind, readonly FilterOp[]>> = {
  text: ['is', 'isAnyOf', 'contains', 'startsWith', 'isEmpty', 'isNotEmpty'],
  number: ['is', 'isAnyOf', 'atLeast', 'atMost', 'isEmpty', 'isNotEmpty'],
  date: ['is', 'atLeast', 'atMost', 'isEmpty', 'isNotEmpty'],
  boolean: ['is', 'isEmpty', 'isNotEmpty'],
  other: ['isEmpty', 'isNotEmpty'],
};

const KIND_NAMES: Readonly<Record<Kind, string>> = {
  text: 'text',
  number: 'a number',
  date: 'a date',
  boolean: 'TRUE/FALSE',
  other: 'structured data',
};

/** The operators a field takes (for the sidebar's operator picker). */
export function opsFor(field: string, specs: readonly FieldSpec[] = LP_FIELD_SPECS): readonly FilterOp[] {
  const spec = specs.find((s) => s.name === field);
  return spec ? OPS_BY_KIND[kindOf(spec.type)] : [];
}

const shown = (v: unknown): string => {
  const text = typeof v === 'string' ? `"${v}"` : (JSON.stringify(v) ?? String(v));
  return text.length > 42 ? `${text.slice(0, 40)}…"` : text;
};

const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.every(isBlank));

/** A field by its name as typed: case and spaces do not matter. */
function resolveField(name: unknown, specs: readonly FieldSpec[], where: string): FieldSpec {
  if (typeof name !== 'string' || name.trim() === '') throw badInput(`${where}: no field given.`);
  const key = name.replace(/\s+/g, '').toLowerCase();
  const spec = specs.find((s) => s.name.toLowerCase() === key);
  if (!spec) throw badInput(`${where}: unknown field ${shown(name.trim())}. See LP_FIELDS() for the field names.`);
  return spec;
}

/** An operator as typed, for matching: case, spaces, "_" and "-" do not matter. */
export const opKey = (op: unknown): string => (typeof op === 'string' ? op.replace(/[\s_-]+/g, '').toLowerCase() : '');

function resolveOp(op: unknown, where: string): FilterOp {
  const key = opKey(op);
  const found = FILTER_OPS.find((o) => o.toLowerCase() === key);
  if (!found)
    throw badInput(
      `${where}: ${isBlank(op) ? 'no operator given' : `unknown operator ${shown(op)}`}. Operators: ${FILTER_OPS.join(', ')}.`,
    );
  return found;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** One value for a field of this kind, canonical; throws with `where` for one that does not fit. */
function checkOne(value: unknown, kind: Kind, where: string): string | number {
  if (isBlank(value)) throw badInput(`${where}: no value given.`);
  if (Array.isArray(value)) throw badInput(`${where}: takes one value, not a list.`);
  if (typeof value === 'string' && value.trim().length > MAX_VALUE_CHARS)
    throw badInput(
      `${where}: the value is ${grouped(value.trim().length)} characters long; at most ${MAX_VALUE_CHARS}.`,
    );
  if (kind === 'number') {
    const n = typeof value === 'number' ? value : typeof value === 'string' ? asNumber(value) : undefined;
    if (n === undefined || !Number.isFinite(n)) throw badInput(`${where}: needs a number, got ${shown(value)}.`);
    return n;
  }
  if (kind === 'date') {
    const text = typeof value === 'string' ? value.trim() : '';
    if (!asDate(text))
      throw badInput(`${where}: needs a date as YYYY-MM-DD (or a date and time), got ${shown(value)}.`);
    return text;
  }
  if (kind === 'boolean') {
    const text = String(value).trim().toLowerCase();
    if (text !== 'true' && text !== 'false') throw badInput(`${where}: needs TRUE or FALSE, got ${shown(value)}.`);
    return text;
  }
  if (typeof value !== 'string' && typeof value !== 'number')
    throw badInput(`${where}: needs text, got ${shown(value)}.`);
  const text = String(value).trim();
  if (normalize(text) === '')
    throw badInput(`${where}: the value ${shown(text)} holds no letters or digits to compare.`);
  return text;
}

/** One condition, checked and canonical; `label` says which in messages ("Filter 2"). */
export function checkCondition(
  input: unknown,
  label: string,
  specs: readonly FieldSpec[] = LP_FIELD_SPECS,
): FilterCondition {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw badInput(`${label}: expected a field, an operator and a value.`);
  const c = input as { field?: unknown; op?: unknown; value?: unknown };
  const spec = resolveField(c.field, specs, label);
  const op = resolveOp(c.op, `${label} (${spec.name})`);
  const where = `${label} (${spec.name} ${op})`;
  const kind = kindOf(spec.type);
  if (!OPS_BY_KIND[kind].includes(op)) {
    throw badInput(
      `${where}: ${op} does not apply to ${spec.name}, which holds ${KIND_NAMES[kind]}; use ${OPS_BY_KIND[kind].join(', ')}.`,
    );
  }
  if (op === 'isEmpty' || op === 'isNotEmpty') {
    if (!isBlank(c.value)) throw badInput(`${where}: takes no value, got ${shown(c.value)}.`);
    return { field: spec.name, op };
  }
  if (op === 'isAnyOf') {
    const list = Array.isArray(c.value) ? c.value.filter((v) => !isBlank(v)) : [];
    if (!Array.isArray(c.value))
      throw badInput(`${where}: needs a list of values${isBlank(c.value) ? '' : `, got ${shown(c.value)}`}.`);
    if (list.length === 0) throw badInput(`${where}: no values given.`);
    if (list.length > MAX_ANY_OF) throw badInput(`${where}: ${grouped(list.length)} values; at most ${MAX_ANY_OF}.`);
    return { field: spec.name, op, value: list.map((v, k) => String(checkOne(v, kind, `${where}, value ${k + 1}`))) };
  }
  return { field: spec.name, op, value: checkOne(c.value, kind, where) };
}

/** A filter as saved or typed: a list of conditions (none is no filter). */
export function checkFilters(input: unknown, specs: readonly FieldSpec[] = LP_FIELD_SPECS): FilterCondition[] {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) throw badInput('Filters must be a list of conditions (field, operator, value).');
  if (input.length > MAX_CONDITIONS)
    throw badInput(`${grouped(input.length)} filter conditions; at most ${MAX_CONDITIONS}.`);
  return input.map((c, i) => checkCondition(c, `Filter ${i + 1}`, specs));
}

/** A sort as saved or typed: up to three keys, each field once. */
export function checkSort(input: unknown, specs: readonly FieldSpec[] = LP_FIELD_SPECS): SortKey[] {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) throw badInput('Sort must be a list of keys (field, descending).');
  if (input.length > MAX_SORT_KEYS) throw badInput(`${grouped(input.length)} sort keys; at most ${MAX_SORT_KEYS}.`);
  const keys: SortKey[] = [];
  input.forEach((k: unknown, i) => {
    const where = `Sort key ${i + 1}`;
    if (!k || typeof k !== 'object' || Array.isArray(k)) throw badInput(`${where}: expected a field and a direction.`);
    const { field, descending } = k as { field?: unknown; descending?: unknown };
    const spec = resolveField(field, specs, where);
    if (kindOf(spec.type) === 'other')
      throw badInput(`${where}: ${spec.name} holds structured data and cannot be sorted on.`);
    if (descending !== undefined && descending !== null && typeof descending !== 'boolean')
      throw badInput(`${where} (${spec.name}): descending must be TRUE or FALSE, got ${shown(descending)}.`);
    if (keys.some((x) => x.field === spec.name)) throw badInput(`${where}: sorts by ${spec.name} twice.`);
    keys.push(descending ? { field: spec.name, descending: true } : { field: spec.name });
  });
  return keys;
}

/** A record's value as the elements a condition looks at: a list gives its elements, a blank none. */
function elements(value: JsonValue | undefined): JsonValue[] {
  if (Array.isArray(value)) return value.filter((v) => !isBlank(v));
  return isBlank(value) ? [] : [value as JsonValue];
}

const textOf = (v: JsonValue): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

const DAY = 86_400_000;

/** The instants a date value covers: a day without a time covers the whole day (UTC, the script's zone). */
function span(text: string): [number, number] {
  const t = (asDate(text) as Date).getTime();
  return ISO_DAY.test(text) ? [t, t + DAY - 1] : [t, t];
}

/** A boolean field's value: true or false, as a value or as text; undefined for anything else. */
function truth(v: JsonValue): boolean | undefined {
  if (typeof v === 'boolean') return v;
  const text = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return text === 'true' ? true : text === 'false' ? false : undefined;
}

/** One element against one condition (the condition is checked). */
function elementTest(c: FilterCondition, kind: Kind): (v: JsonValue) => boolean {
  if (kind === 'number') {
    const num = (v: JsonValue) => (typeof v === 'number' || typeof v === 'string' ? asNumber(v) : undefined);
    if (c.op === 'isAnyOf') {
      const set = new Set((c.value as string[]).map(Number));
      return (v) => set.has(num(v) as number);
    }
    const x = c.value as number;
    if (c.op === 'atLeast') return (v) => (num(v) ?? Number.NaN) >= x;
    if (c.op === 'atMost') return (v) => (num(v) ?? Number.NaN) <= x;
    return (v) => num(v) === x;
  }
  if (kind === 'date') {
    const [from, to] = span(c.value as string);
    const time = (v: JsonValue) => asDate(v)?.getTime() ?? Number.NaN;
    if (c.op === 'atLeast') return (v) => time(v) >= from;
    if (c.op === 'atMost') return (v) => time(v) <= to;
    return (v) => time(v) >= from && time(v) <= to;
  }
  if (kind === 'boolean') {
    const want = c.value === 'true';
    return (v) => truth(v) === want;
  }
  const norm = (v: JsonValue) => normalize(textOf(v));
  if (c.op === 'isAnyOf') {
    const set = new Set((c.value as string[]).map(normalize));
    return (v) => set.has(norm(v));
  }
  const x = normalize(c.value as string);
  if (c.op === 'contains') return (v) => norm(v).includes(x);
  if (c.op === 'startsWith') return (v) => norm(v).startsWith(x);
  return (v) => norm(v) === x;
}

function conditionTest(c: FilterCondition, specs: readonly FieldSpec[]): (r: ServiceRecord) => boolean {
  const spec = specs.find((s) => s.name === c.field) as FieldSpec;
  if (c.op === 'isEmpty') return (r) => elements(r[c.field]).length === 0;
  if (c.op === 'isNotEmpty') return (r) => elements(r[c.field]).length > 0;
  const test = elementTest(c, kindOf(spec.type));
  // The same as elements(…).some(test), without building a list per record.
  return (r) => {
    const v = r[c.field];
    if (!Array.isArray(v)) return !isBlank(v) && test(v as JsonValue);
    for (const e of v) if (!isBlank(e) && test(e)) return true;
    return false;
  };
}

/** A sort key's value for one record: a number, a comparable text, or '' for a blank (last). */
export type SortCell = number | string;

function sortValue(spec: FieldSpec): (r: ServiceRecord) => SortCell {
  const kind = kindOf(spec.type);
  return (r) => {
    const els = elements(r[spec.name]);
    if (els.length === 0) return '';
    if (kind === 'number')
      return (typeof els[0] === 'number' || typeof els[0] === 'string' ? asNumber(els[0]) : undefined) ?? '';
    if (kind === 'date') return asDate(els[0])?.getTime() ?? '';
    if (kind === 'boolean') return truth(els[0]) ? 1 : 0;
    return normalize(els.map(textOf).join(' ')).slice(0, SORT_TEXT_CHARS);
  };
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Text as a person reads it: runs of digits compare by value ("fund 9" < "fund 10"; of equal
 * values, the one with fewer leading zeros first), everything else by character. One pass, no
 * allocation: a sort of 10,000 rows makes about 140,000 of these.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      const ei = digitsEnd(a, i);
      const ej = digitsEnd(b, j);
      const d = compareDigits(a, i, ei, b, j, ej);
      if (d !== 0) return d;
      i = ei;
      j = ej;
      continue;
    }
    if (ca !== cb) return ca < cb ? -1 : 1;
    i++;
    j++;
  }
  return a.length - i - (b.length - j);
}

/** Where the run of digits starting at `i` ends. */
function digitsEnd(s: string, i: number): number {
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return i;
}

/** Two runs of digits, a[i, ei) and b[j, ej), by value, then the one with fewer leading zeros first; 0 when equal. */
function compareDigits(a: string, i: number, ei: number, b: string, j: number, ej: number): number {
  let si = i;
  let sj = j;
  while (si < ei - 1 && a.charCodeAt(si) === 48) si++;
  while (sj < ej - 1 && b.charCodeAt(sj) === 48) sj++;
  if (ei - si !== ej - sj) return ei - si - (ej - sj);
  for (let k = 0; k < ei - si; k++) {
    const d = a.charCodeAt(si + k) - b.charCodeAt(sj + k);
    if (d !== 0) return d;
  }
  return ei - i - (ej - j);
}

/** Two sort values: blanks last whatever the direction; numbers before texts should a field mix them. */
function compareCell(a: SortCell, b: SortCell, descending: boolean): number {
  if (a === '' || b === '') return a === b ? 0 : a === '' ? 1 : -1;
  const d =
    typeof a === 'number' && typeof b === 'number'
      ? a - b
      : typeof a === 'string' && typeof b === 'string'
        ? compareText(a, b)
        : typeof a === 'number'
          ? -1
          : 1;
  return descending ? -d : d;
}

export interface Query {
  filters: readonly FilterCondition[];
  sort: readonly SortKey[];
}

export interface CompiledQuery {
  /** Whether any condition or sort key is given. */
  readonly active: boolean;
  matches(record: ServiceRecord): boolean;
  /** A record's sort values, one per key (stored beside an import's rows between executions). */
  keys(record: ServiceRecord): SortCell[];
  /** Orders two records' sort values; 0 for a tie (the caller keeps the service's order). */
  compare(a: readonly SortCell[], b: readonly SortCell[]): number;
}

/** A checked query, ready to run over many records. */
export function compileQuery(query: Query, specs: readonly FieldSpec[] = LP_FIELD_SPECS): CompiledQuery {
  const tests = query.filters.map((c) => conditionTest(c, specs));
  const values = query.sort.map((k) => sortValue(specs.find((s) => s.name === k.field) as FieldSpec));
  return {
    active: tests.length > 0 || values.length > 0,
    matches: (r) => tests.every((t) => t(r)),
    keys: (r) => values.map((v) => v(r)),
    compare: (a, b) => {
      for (let i = 0; i < query.sort.length; i++) {
        const d = compareCell(a[i] ?? '', b[i] ?? '', !!query.sort[i].descending);
        if (d !== 0) return d;
      }
      return 0;
    },
  };
}

/** Items kept by the query, in its order; ties (and no sort) keep the input's order. */
export function orderBy<T>(
  items: readonly T[],
  keep: (item: T) => boolean,
  keys: (item: T) => readonly SortCell[],
  compare: CompiledQuery['compare'],
): T[] {
  // Array.prototype.sort is stable (ES2019, and Apps Script's V8): equal keys keep the input's order.
  const kept = items.filter(keep).map((item) => ({ item, keys: keys(item) }));
  kept.sort((a, b) => compare(a.keys, b.keys));
  return kept.map((k) => k.item);
}

/** The records that meet every condition, sorted; the engine behind LP_FILTER. */
export function applyQuery(
  records: readonly ServiceRecord[],
  query: Query,
  specs: readonly FieldSpec[] = LP_FIELD_SPECS,
): ServiceRecord[] {
  const q = compileQuery(query, specs);
  return orderBy(records, q.matches, q.keys, q.compare);
}

const opText = (c: FilterCondition): string => {
  if (c.op === 'isEmpty' || c.op === 'isNotEmpty')
    return `${c.field} ${c.op === 'isEmpty' ? 'is empty' : 'is not empty'}`;
  const words: Record<FilterOp, string> = {
    is: 'is',
    isAnyOf: 'is any of',
    contains: 'contains',
    startsWith: 'starts with',
    atLeast: '≥',
    atMost: '≤',
    isEmpty: '',
    isNotEmpty: '',
  };
  const value = Array.isArray(c.value) ? c.value.join(' | ') : String(c.value);
  return `${c.field} ${words[c.op]} ${value}`;
};

/** One line for a saved import's summary: "ticketSize ≥ 1000000 and region is any of Europe; sorted by firm, ticketSize ↓". */
export function describeQuery(query: Query): string {
  const parts: string[] = [];
  if (query.filters.length) parts.push(query.filters.map(opText).join(' and '));
  if (query.sort.length)
    parts.push(`sorted by ${query.sort.map((k) => `${k.field}${k.descending ? ' ↓' : ''}`).join(', ')}`);
  return parts.join('; ');
}

/** Most values `commonValues` suggests, and the longest one it offers. */
export const MAX_SUGGESTIONS = 30;
const MAX_SUGGESTION_CHARS = 60;

/**
 * The commonest values of a field over `records`, most frequent first (ties alphabetical), for
 * the filter editor's suggestions: list fields count each element, spellings that compare equal
 * (case, accents) count as one, shown as first met; long texts and structured values are left out.
 */
export function commonValues(records: readonly ServiceRecord[], field: string, limit = MAX_SUGGESTIONS): string[] {
  const counts = new Map<string, { text: string; n: number }>();
  for (const r of records) {
    for (const e of elements(r[field])) {
      if (typeof e === 'object') continue;
      const text = String(e).trim();
      if (text.length > MAX_SUGGESTION_CHARS) continue;
      const key = normalize(text);
      if (!key) continue;
      const seen = counts.get(key);
      if (seen) seen.n++;
      else counts.set(key, { text, n: 1 });
    }
  }
  return [...counts.values()]
    .sort((a, b) => b.n - a.n || compareText(normalize(a.text), normalize(b.text)))
    .slice(0, limit)
    .map((c) => c.text);
}
