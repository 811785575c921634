/**
 * What the add-in keeps of a service answer, decided once, where every answer becomes data
 * (response.ts): every formula, import, memo entry, snapshot, change log row and Diagnostics line
 * is made from what this keeps and never from the text the service sent. Two rules hold for it:
 *
 * - No text in it holds the key: every string, field names included, has the key redacted, raw,
 *   encoded or in part (redact.ts), so a service that echoes the request URL (a `self` link
 *   ending `?apiKey=…`) cannot put the owner's key into a cell, a cache value or a sheet. Other
 *   text is left as it is (an id the analyst typed, `a&apiKey=b`, comes back as it was sent).
 * - Each record costs bounded work: a field nested deeper than MAX_DEPTH, or one that would take
 *   the record past MAX_RECORD_CHARS, is replaced by an error text for that field (its `id`, by
 *   null: no id; a field the add-in never shows is left out), and the rest of the record, and
 *   every other record, keep their values. Fields are checked without recursion, so no answer can
 *   overflow the stack, here or in any later step (JSON.stringify, cell typing), since those only
 *   ever see bounded records.
 *
 * A "record" is each object in `data` (or `data` itself when it is one object); the rest of the
 * body (`pagination`) is bounded the same way, as one more record. The parsed body is checked and
 * redacted in place (JSON.parse made it, nothing else holds it); a record is rebuilt only when a
 * field does not fit its budget or a field name must be redacted.
 */
import { grouped } from './numbers';
import { FUND_FIELDS, isObject, type JsonValue, LP_FIELDS, put, type ServiceRecord } from './records';
import { screenedRedactor, unchanged } from './redact';

/** Levels of nesting a field's value may have (a list of objects is 2). */
export const MAX_DEPTH = 64;
/** Characters (texts, field names, and one a value) one record may hold. */
export const MAX_RECORD_CHARS = 500_000;

export const TOO_DEEP = `Error: the data service sent this field nested more than ${MAX_DEPTH} levels deep; it is not shown.`;
export const TOO_LARGE = `Error: the data service sent a record of more than ${grouped(MAX_RECORD_CHARS)} characters; this field is not shown.`;

type Body = { [key: string]: JsonValue };

type Checked = { ok: true; value: JsonValue; chars: number } | { ok: false; problem: string };

/** A field's containers still to check, each with its depth, and the redaction to apply. */
interface Walk {
  containers: Array<JsonValue[] | Body>;
  depths: number[];
  clean: (text: string) => string;
}

/** A field name redacted in place (the value moves to the redacted name); returns the name. */
function renameSlot(container: Body, name: string, clean: (text: string) => string): string {
  const renamed = clean(name);
  if (renamed !== name) {
    const moved = container[name];
    delete container[name];
    put(container, renamed, moved);
  }
  return renamed;
}

/** One slot's value: a text is redacted in place (its length counted), a container waits on the walk. */
function checkItem(container: JsonValue[] | Body, slot: string | number, depth: number, walk: Walk): number {
  const item = (container as Record<string | number, JsonValue>)[slot];
  if (typeof item === 'string') {
    const text = walk.clean(item);
    if (text !== item) put(container, slot, text);
    return text.length;
  }
  if (typeof item === 'object' && item !== null) {
    walk.containers.push(item);
    walk.depths.push(depth + 1);
  }
  return 0;
}

/**
 * The slots of one container (a list's indexes, an object's field names, redacted and counted
 * too); returns the characters counted, stopping once they pass `left`.
 */
function checkSlots(container: JsonValue[] | Body, depth: number, walk: Walk, left: number): number {
  const names = Array.isArray(container) ? undefined : Object.keys(container);
  const n = names ? names.length : (container as JsonValue[]).length;
  let chars = n;
  for (let i = 0; i < n && chars <= left; i++) {
    const slot = names ? renameSlot(container as Body, names[i], walk.clean) : i;
    if (names) chars += (slot as string).length;
    chars += checkItem(container, slot, depth, walk);
  }
  return chars;
}

/**
 * One field's value, parsed by JSON.parse (so plain data the add-in owns), checked within
 * `budget` characters and MAX_DEPTH levels and redacted in place, with an explicit stack of
 * containers and their depths: nothing is copied, and nothing recurses.
 */
function checkField(value: unknown, budget: number, clean: (text: string) => string): Checked {
  let chars = 1;
  if (typeof value === 'string') {
    value = clean(value);
    chars += (value as string).length;
  } else if (typeof value === 'object' && value !== null) {
    const walk: Walk = { containers: [value as Body], depths: [0], clean };
    while (walk.containers.length && chars <= budget) {
      const container = walk.containers.pop() as JsonValue[] | Body;
      const depth = walk.depths.pop() as number;
      if (depth >= MAX_DEPTH) return { ok: false, problem: TOO_DEEP };
      chars += checkSlots(container, depth, walk, budget - chars);
    }
  }
  return chars > budget ? { ok: false, problem: TOO_LARGE } : { ok: true, value: value as JsonValue, chars };
}

/** The fields the add-in shows: they get a record's budget first, and one that does not fit says so. */
const SHOWN = new Set(['id', ...LP_FIELDS, ...FUND_FIELDS]);

/**
 * What is left of `left` characters once field `raw` of a record, kept as `name`, is kept (its
 * texts redacted in place, so the field then holds what is kept), or the problem that keeps it out.
 */
function afterField(
  record: Body,
  raw: string,
  name: string,
  left: number,
  clean: (text: string) => string,
): number | string {
  const budget = left - name.length;
  const checked = budget > 0 ? checkField(record[raw], budget, clean) : undefined;
  if (!checked?.ok) return checked?.problem ?? TOO_LARGE;
  if (checked.value !== record[raw]) put(record, raw, checked.value);
  return budget - checked.chars;
}

/**
 * Whether a record is kept as JSON.parse made it, its texts redacted in place: when every field
 * fits and no field name must be redacted (nearly every record of nearly every answer), every field
 * is kept as it is whatever the order the budget is spent in, so nothing is copied.
 */
function keptAsParsed(record: Body, clean: (text: string) => string): boolean {
  let left: number | string = MAX_RECORD_CHARS;
  for (const raw of Object.keys(record)) {
    if (clean(raw) !== raw) return false;
    left = afterField(record, raw, raw, left, clean);
    if (typeof left === 'string') return false;
  }
  return true;
}

/**
 * One record, field by field: `id` first, then the fields the add-in shows, then the others (kept
 * while the budget lasts, and left out, since nothing shows them, once it is spent: a record of a
 * million fields costs no more than one of a few). A shown field that does not fit gets the
 * error text; an `id` that does not fit is no id (null).
 */
function keepRecord(record: Body, clean: (text: string) => string): ServiceRecord {
  if (keptAsParsed(record, clean)) return record;
  const out: Body = {};
  let left = MAX_RECORD_CHARS;
  const names = Object.keys(record);
  const rank = (n: string) => (n === 'id' ? 0 : SHOWN.has(n) ? 1 : 2);
  // A stable sort: each rank keeps the order the service sent.
  const order = names.sort((a, b) => rank(a) - rank(b));
  for (const raw of order) {
    const name = clean(raw);
    const after = afterField(record, raw, name, left, clean);
    if (typeof after === 'number') {
      put(out, name, record[raw]);
      left = after;
    } else if (SHOWN.has(raw)) put(out, name, raw === 'id' ? null : after);
  }
  return out;
}

/** A value of `data` that is not a record (a list that should hold records may hold other things). */
function keepValue(value: unknown, clean: (text: string) => string): JsonValue {
  const checked = checkField(value, MAX_RECORD_CHARS, clean);
  return checked.ok ? checked.value : checked.problem;
}

/** Where the string opened before `from` ends (its closing quote), or -1 when it does not. */
function stringEnd(text: string, from: number): number {
  let k = text.indexOf('"', from);
  for (;;) {
    // No quote left (-1) has no backslash before it (charCodeAt(-2) is NaN): it is returned as it is.
    let slashes = 0;
    while (text.charCodeAt(k - 1 - slashes) === 92) slashes++;
    // A quote after an odd run of backslashes is escaped: the string goes on.
    if (slashes % 2 === 0) return k;
    k = text.indexOf('"', k + 1);
  }
}

/**
 * Whether the text of a JSON answer nests containers fewer than `limit` levels deep anywhere
 * (brackets inside its strings are not counted): one pass, each string skipped by indexOf.
 */
export function nestsUnder(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34) {
      i = stringEnd(text, i + 1);
      if (i < 0) return false;
    } else if (ch === 123 || ch === 91) {
      if (++depth >= limit) return false;
    } else if (ch === 125 || ch === 93) depth--;
  }
  return true;
}

/**
 * The body of a 200 answer as the add-in keeps it: redacted of `secrets`, bounded per record.
 * `text` is the body as sent: when nothing in it could be a key (nor a JSON escape that could
 * hide one), no string is looked at one by one; and when it is also shorter than one record's
 * budget and nests less than MAX_DEPTH deep (so no field of it can pass either bound: every
 * character counted is one of the text), it is kept as JSON.parse made it, with no record walked.
 */
export function keepAnswer(body: Record<string, unknown>, secrets: readonly string[], text: string): Body {
  const clean = screenedRedactor(secrets, text);
  const { data, ...rest } = body;
  if (clean === unchanged && text.length <= MAX_RECORD_CHARS && nestsUnder(text, MAX_DEPTH)) {
    if ('data' in body) put(rest as Body, 'data', data as JsonValue);
    return rest as Body;
  }
  const out: Body = keepRecord(rest as Body, clean) as Body;
  if (!('data' in body)) return out;
  const one = (v: unknown): JsonValue => (isObject(v) ? (keepRecord(v as Body, clean) as Body) : keepValue(v, clean));
  put(out, 'data', Array.isArray(data) ? data.map(one) : one(data));
  return out;
}
