/**
 * The record budget and the depth limit at their edges. A record's characters are its texts and
 * field names, nested ones too, plus one for each value (a list of two texts is 1 + 2 values +
 * their lengths): a record of exactly MAX_RECORD_CHARS keeps every field, one character more and
 * the field that passes it is an error, wherever the excess sits (a text, a field name, a list
 * still waiting to be read). Shown fields take the budget before the others, `id` is counted once,
 * and a shown field left no room at all says so. A field exactly MAX_DEPTH levels deep is kept
 * whatever its innermost values are (numbers, null), one level more is too deep; a field too large
 * says so even when it would also be too deep. Values that are not records, null values, an
 * answer without `data`, and a field named `__proto__` keep their plain JSON meaning.
 */
import { keepAnswer, MAX_DEPTH, MAX_RECORD_CHARS, TOO_DEEP, TOO_LARGE } from '../../../src/api/answer';

const KEY = 'sk_live_SECRET_9f8e7d';
const keep = (body: Record<string, unknown>) => keepAnswer(body, [KEY], JSON.stringify(body));
const record = (data: Record<string, unknown>) => keep({ data }).data as Record<string, unknown>;

/** The characters a value counts for: one, plus its text, or its slots' names and values. */
function cost(value: unknown): number {
  if (typeof value === 'string') return 1 + value.length;
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, v) => sum + cost(v), 0);
  if (typeof value === 'object' && value !== null)
    return 1 + Object.entries(value).reduce((sum, [k, v]) => sum + k.length + cost(v), 0);
  return 1;
}
const recordCost = (r: Record<string, unknown>) =>
  Object.entries(r).reduce((sum, [k, v]) => sum + k.length + cost(v), 0);

describe('a record of exactly its budget keeps every field; one character more loses the field that passes it', () => {
  const shapes: Array<[string, (fill: string) => unknown]> = [
    ['a text', (fill) => fill],
    ['a list whose last text passes it', (fill) => [fill, 'b']],
    ['a list with a nested list still to read', (fill) => [[''], fill]],
    ['an object whose field name passes it', (fill) => ({ [fill]: 'v' })],
    ['an object whose nested text passes it', (fill) => ({ a: 1, b: fill })],
  ];
  test.each(shapes)('%s', (_, shape) => {
    const at = (n: number) => ({ id: 'a', expertise: shape('x'.repeat(n)) });
    const exact = MAX_RECORD_CHARS - recordCost(at(0));
    expect(recordCost(at(exact))).toBe(MAX_RECORD_CHARS);
    expect(record(at(exact))).toEqual(at(exact));
    expect(record(at(exact + 1))).toEqual({ id: 'a', expertise: TOO_LARGE });
  });

  test('id is counted once, first, wherever it stands', () => {
    const at = (n: number) => ({ fullName: 'x'.repeat(n), id: 'abc' });
    const exact = MAX_RECORD_CHARS - recordCost(at(0));
    expect(record(at(exact))).toEqual(at(exact));
    expect(record(at(exact + 1))).toEqual({ id: 'abc', fullName: TOO_LARGE });
  });

  test('a shown field left no room at all is an error; a field nothing shows is left out', () => {
    const at = (n: number) => ({ id: 'a', fullName: 'x'.repeat(n) });
    const full = at(MAX_RECORD_CHARS - recordCost(at(0)));
    expect(record({ ...full, description: 'd', extraField: 'e' })).toEqual({ ...full, description: TOO_LARGE });
  });

  test('shown fields take the budget before the fields nothing shows, whatever their order', () => {
    const big = 'x'.repeat(MAX_RECORD_CHARS / 2 + 10);
    expect(record({ extraField: big, fullName: big, id: 'a' })).toEqual({ id: 'a', fullName: big });
  });
});

describe('depth at its edge', () => {
  const deep = (levels: number, inner: unknown): unknown => {
    let v: unknown = inner;
    for (let i = 0; i < levels; i++) v = [v];
    return v;
  };

  test(`a field ${MAX_DEPTH} levels deep is kept, whatever its innermost values; one level more is too deep`, () => {
    for (const inner of [1, true, null, 'text']) {
      const field = deep(MAX_DEPTH - 1, [inner]);
      expect(record({ id: 'a', feedbackEntries: field })).toEqual({ id: 'a', feedbackEntries: field });
    }
    expect(record({ id: 'a', feedbackEntries: deep(MAX_DEPTH, []) })).toEqual({
      id: 'a',
      feedbackEntries: TOO_DEEP,
    });
  });

  test('a field too large is said to be too large, even where it also goes too deep', () => {
    const field = deep(MAX_DEPTH - 1, [[], 'x'.repeat(MAX_RECORD_CHARS)]);
    expect(record({ id: 'a', feedbackEntries: field })).toEqual({ id: 'a', feedbackEntries: TOO_LARGE });
  });
});

describe('plain JSON values', () => {
  // An answer that holds nothing like a key is kept as parsed; one that holds the key is walked, field by field.
  const ways: Array<[string, Record<string, unknown>]> = [
    ['kept as parsed', {}],
    ['walked', { note: `?apiKey=${KEY}` }],
  ];

  test.each(ways)('null values, at the top of a field and nested, stay null (%s)', (_, extra) => {
    const r = { id: 'a', fullName: null, metadata: { x: null, y: [null, 2] }, ...extra };
    const kept = keep({ data: [r, null, 3] }).data as unknown[];
    expect(kept.slice(1)).toEqual([null, 3]);
    expect(kept[0]).toEqual(extra.note ? { ...r, note: '?apiKey=***' } : r);
  });

  test('a value of data that is not a record and is too large is the error text', () => {
    const kept = keep({ data: ['x'.repeat(MAX_RECORD_CHARS + 1), 7] }).data;
    expect(kept).toEqual([TOO_LARGE, 7]);
  });

  test.each(ways)('an answer without data gets no data field (%s)', (_, extra) => {
    const kept = keep({ pagination: { totalItems: 0 }, ...extra });
    expect(Object.keys(kept)).toEqual(['pagination', ...Object.keys(extra)]);
  });

  test('a field named __proto__ is a plain field, as JSON.parse makes it', () => {
    const text = `{"data":{"id":"a","__proto__":{"polluted":1},"metadata":{"__proto__":"?apiKey=${KEY}"}}}`;
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const data = keepAnswer(parsed, [KEY], text).data as Record<string, unknown>;
    const plain = (JSON.parse(text) as { data: Record<string, unknown> }).data;
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')).toEqual(
      Object.getOwnPropertyDescriptor(plain, '__proto__'),
    );
    expect(Object.keys(data)).toContain('__proto__');
    const meta = data.metadata as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(meta, '__proto__')).toEqual({
      ...Object.getOwnPropertyDescriptor(plain.metadata as Record<string, unknown>, '__proto__'),
      value: '?apiKey=***',
    });
  });
});
