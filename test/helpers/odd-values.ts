/**
 * Odd but valid JSON, drawn from a seed: the values a real data service may send where the spec
 * says "not shown" (nulls, huge and tiny numbers, text Sheets would parse, lone surrogates, long
 * text, nested and empty lists, objects whose keys shadow Object.prototype) and ids of every kind.
 * Every value is made by JSON.parse, as the add-in receives it, so an object keyed `__proto__`
 * holds it as an own field. Each draw depends on the seed alone.
 */
import { mulberry32 } from '../../dev/service/rng';
import type { JsonValue, ServiceRecord } from '../../src/api/records';

/** A small seeded generator (mulberry32): the same seed, the same draws. */
export const seeded = mulberry32;

export const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  -12.5,
  1e308,
  -1e308,
  5e-324,
  1e11,
  1e11 + 1,
  1e15,
  8.64e15,
  8.64e15 + 1,
  1e300,
  2 ** 53,
];

const TEXTS = [
  '',
  ' ',
  '   ',
  '=1+1',
  '=HYPERLINK("http://x")',
  ' =SUM(A1)',
  '+1',
  '-1',
  '@x',
  "'quoted",
  '\t=1',
  '\n=1',
  'a\tb\nc',
  'Müller-Łódź',
  '日本語',
  '\ud800',
  'a\udc00b',
  '😀',
  '42',
  ' 42 ',
  '-0',
  '1e400',
  '-1e400',
  '1e-400',
  '1,000',
  '12%',
  '$5',
  '(5)',
  '2024-02-29',
  '2024-02-30',
  '2024-02-29T12:00:00Z',
  '9999-12-31T23:59:59Z',
  '0000-01-01',
  '275760-09-13',
  '12:30',
  'Jan 5',
  'true',
  'FALSE',
  'NaN',
  'Infinity',
  'null',
  '__proto__',
  'constructor',
  'ACTIVE',
  'active',
  'Fund 10',
  'fund 9',
];

const KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'a', 'id', 'fullName', 'toJSON'];

function text(rnd: () => number, long: boolean): string {
  const r = rnd();
  if (!long && r < 0.1) return pick(rnd, TEXTS);
  if (r < 0.03) return 'x'.repeat(60_000);
  if (r < 0.06) return `=${'y'.repeat(50_010)}`;
  if (r < 0.1) return `${'z'.repeat(49_986)}😀😀😀😀😀😀😀😀`;
  return pick(rnd, TEXTS);
}

/** The JSON text of one odd value, nested at most `depth` more levels; `long`: text past a cell's limit one time in ten. */
function source(rnd: () => number, depth: number, long = true): string {
  const r = rnd();
  if (r < 0.1) return 'null';
  if (r < 0.18) return rnd() < 0.5 ? 'true' : 'false';
  if (r < 0.35) return JSON.stringify(pick(rnd, NUMBERS));
  if (r < 0.4) return pick(rnd, ['1e400', '-1e400', '1e-400', '-0.0', '123456789012345678901234567890']);
  if (r < 0.75 || depth <= 0) return JSON.stringify(text(rnd, long));
  if (r < 0.88) {
    const n = Math.floor(rnd() * 4);
    return `[${Array.from({ length: n }, () => source(rnd, depth - 1, long)).join(',')}]`;
  }
  const n = Math.floor(rnd() * 3);
  const fields = Array.from({ length: n }, () => `${JSON.stringify(pick(rnd, KEYS))}:${source(rnd, depth - 1, long)}`);
  return `{${fields.join(',')}}`;
}

/** One odd JSON value, as JSON.parse makes it. */
export function oddValue(rnd: () => number): JsonValue {
  return JSON.parse(source(rnd, 2)) as JsonValue;
}

/** An id of any kind: text (odd text included), numbers, null, lists and objects, or missing. */
export function oddId(rnd: () => number): string {
  const r = rnd();
  if (r < 0.5) return JSON.stringify(`lp_${Math.floor(rnd() * 20)}`);
  if (r < 0.6)
    return JSON.stringify(
      pick(rnd, ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'LP_1', 'lp_1 ', ' lp_1']),
    );
  return source(rnd, 1);
}

/**
 * A record with odd values in the given fields (some left out), its id odd one time in three;
 * `long` false: no text past a cell's limit (it costs time where many records are handled).
 */
export function oddRecord(rnd: () => number, fields: readonly string[], n: number, long = true): ServiceRecord {
  const parts: string[] = [`"id":${rnd() < 0.33 ? oddId(rnd) : JSON.stringify(`lp_${n}`)}`];
  for (const f of fields) if (f !== 'id' && rnd() < 0.7) parts.push(`${JSON.stringify(f)}:${source(rnd, 2, long)}`);
  if (rnd() < 0.2) parts.push(`"__proto__":${source(rnd, 1, long)}`);
  return JSON.parse(`{${parts.join(',')}}`) as ServiceRecord;
}
