/**
 * What the add-in keeps of a service answer, decided once, where every answer becomes data
 * (response.ts): every formula, import, memo entry, snapshot, change log row and Diagnostics line
 * is made from this copy and never from the text the service sent. Two rules hold for the copy:
 *
 * - No text in it holds the key: every string, field names included, has the key redacted, raw,
 *   encoded or in part (redact.ts), so a service that echoes the request URL (a `self` link
 *   ending `?apiKey=…`) cannot put the owner's key into a cell, a cache value or a sheet. Other
 *   text is left as it is (an id the analyst typed, `a&apiKey=b`, comes back as it was sent).
 * - Each record costs bounded work: a field nested deeper than MAX_DEPTH, or one that would take
 *   the record past MAX_RECORD_CHARS, is replaced by an error text for that field (its `id`, by
 *   null: no id), and the rest of the record, and every other record, keep their values. The copy
 *   is made without recursion, so no answer can overflow the stack, here or in any later step
 *   (JSON.stringify, cell typing), since those only ever see the bounded copy.
 *
 * A "record" is each object in `data` (or `data` itself when it is one object); the rest of the
 * body (`pagination`) is bounded the same way, as one more record.
 */
import type { JsonValue, ServiceRecord } from './records';
import { keyRedactor } from './redact';

/** Levels of nesting a field's value may have (a list of objects is 2). */
export const MAX_DEPTH = 64;
/** Characters (texts, field names, and one a value) one record may hold. */
export const MAX_RECORD_CHARS = 500_000;

export const TOO_DEEP = `Error: the data service sent this field nested more than ${MAX_DEPTH} levels deep; it is not shown.`;
export const TOO_LARGE = `Error: the data service sent a record of more than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters; this field is not shown.`;

type Body = { [key: string]: JsonValue };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A function that redacts a text only when it could hold a key: a run of 8 characters of one
 * (or the whole of a short one), or a percent-encoded byte (an encoded form). Everything else,
 * nearly every text of nearly every answer ("a 20% hurdle" too), is returned as it is, cheaply.
 */
function redactor(secrets: readonly string[]): (text: string) => string {
  const parts = ['%[0-9A-Fa-f]{2}'];
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    if (secret.length <= 8) parts.push(escapeRegExp(secret));
    else for (let i = 0; i + 8 <= secret.length; i++) parts.push(escapeRegExp(secret.slice(i, i + 8)));
  }
  const suspect = new RegExp(parts.join('|'));
  const redact = keyRedactor(secrets);
  return (text) => (suspect.test(text) ? redact(text) : text);
}

/** Sets `key` as an own property, even `__proto__` (an assignment would set the prototype). */
function put(target: JsonValue[] | Body, key: string | number, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string | number, JsonValue>)[key] = value;
}

type Copied = { ok: true; value: JsonValue; chars: number } | { ok: false; problem: string };

/** A value to copy: [source, where the copy goes, under which key, depth]. */
type Frame = [unknown, JsonValue[] | Body, string | number, number];

/**
 * Copies one value into its place and pushes its children on `stack`; returns the characters it
 * counts (a list or object over `left` is counted, not copied), or TOO_DEEP.
 */
function copyOne([src, into, key, depth]: Frame, stack: Frame[], clean: (text: string) => string, left: number): number | string {
  if (typeof src === 'string') {
    const text = clean(src);
    put(into, key, text);
    return 1 + text.length;
  }
  if (typeof src === 'number' || typeof src === 'boolean' || src === null) {
    put(into, key, src);
    return 1;
  }
  if (!Array.isArray(src) && !isObject(src)) {
    put(into, key, null); // undefined and the like cannot come from JSON; kept as nothing
    return 1;
  }
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(src)) {
    if (1 + src.length > left) return 1 + src.length;
    const list: JsonValue[] = new Array(src.length).fill(null);
    put(into, key, list);
    for (let i = src.length - 1; i >= 0; i--) stack.push([src[i], list, i, depth + 1]);
    return 1 + src.length;
  }
  const names = Object.keys(src);
  let chars = 1 + names.length;
  if (chars > left) return chars;
  const object: Body = {};
  put(into, key, object);
  for (let i = names.length - 1; i >= 0; i--) {
    const name = clean(names[i]);
    chars += name.length;
    stack.push([src[names[i]], object, name, depth + 1]);
  }
  return chars;
}

/**
 * A redacted copy of one field's value, within `budget` characters and MAX_DEPTH levels, made
 * with an explicit stack of frames.
 */
function copyField(value: unknown, budget: number, clean: (text: string) => string): Copied {
  const holder: Body = {};
  const stack: Frame[] = [[value, holder, 'v', 0]];
  let chars = 0;
  while (stack.length && chars <= budget) {
    const counted = copyOne(stack.pop() as Frame, stack, clean, budget - chars);
    if (typeof counted === 'string') return { ok: false, problem: counted };
    chars += counted;
  }
  return chars > budget ? { ok: false, problem: TOO_LARGE } : { ok: true, value: holder.v, chars };
}

/** One record, field by field (`id` first, so that it is never the field the budget runs out on). */
function keepRecord(record: Record<string, unknown>, clean: (text: string) => string): ServiceRecord {
  const out: Body = {};
  let left = MAX_RECORD_CHARS;
  const names = Object.keys(record);
  if (names.includes('id')) names.unshift(...names.splice(names.indexOf('id'), 1));
  for (const raw of names) {
    const name = clean(raw);
    const copied = copyField(record[raw], left - name.length, clean);
    if (copied.ok) {
      put(out, name, copied.value);
      left -= name.length + copied.chars;
    } else put(out, name, raw === 'id' ? null : copied.problem);
  }
  return out;
}

/** A value of `data` that is not a record (a list that should hold records may hold other things). */
function keepValue(value: unknown, clean: (text: string) => string): JsonValue {
  const copied = copyField(value, MAX_RECORD_CHARS, clean);
  return copied.ok ? copied.value : copied.problem;
}

/** The body of a 200 answer as the add-in keeps it: redacted of `secrets`, bounded per record. */
export function keepAnswer(body: Record<string, unknown>, secrets: readonly string[]): Body {
  const clean = redactor(secrets);
  const { data, ...rest } = body;
  const out: Body = keepRecord(rest, clean) as Body;
  if (!('data' in body)) return out;
  const one = (v: unknown): JsonValue => (isObject(v) ? (keepRecord(v, clean) as Body) : keepValue(v, clean));
  put(out, 'data', Array.isArray(data) ? data.map(one) : one(data));
  return out;
}
