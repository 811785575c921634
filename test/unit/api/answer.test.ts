import { keepAnswer, MAX_DEPTH, MAX_RECORD_CHARS, TOO_DEEP, TOO_LARGE } from '../../../src/api/answer';
import { interpret } from '../../../src/api/response';
import { leaksIn } from '../../helpers/secrets';

const KEY = 'sk_live_SECRET_9f8e7d';
const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
/** keepAnswer of a body built here, with the text it would have come as. */
const keep = (body: Record<string, unknown>) => keepAnswer(body, [KEY], JSON.stringify(body));
const ok200 = (body: string) => interpret({ status: 200, headers: {}, body }, 'https://x', [KEY], 0);

describe('what is kept of an answer: no key', () => {
  test('the key raw, percent-encoded, in part, in nested values and in field names is redacted; other text is kept as sent', () => {
    const encoded = Array.from(KEY, (c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const body = {
      data: [
        {
          id: 'a&apiKey=not-ours',
          website: `https://svc/x?limitedPartnerId=a&apiKey=${KEY}`,
          description: `key: ${encoded}, half: ${KEY.slice(0, 11)}`,
          feedbackEntries: [{ self: `https://svc/?apiKey=${encodeURIComponent(KEY)}` }, [[KEY]]],
          [KEY]: 'name',
          metadata: { [`x${KEY}`]: 1 },
          upvotes: '12%',
        },
      ],
    };
    const kept = keep(body);
    expect(leaksIn(JSON.stringify(kept), [KEY])).toEqual([]);
    const r = (kept.data as Array<Record<string, unknown>>)[0];
    expect(r.id).toBe('a&apiKey=not-ours');
    expect(r.website).toBe('https://svc/x?limitedPartnerId=a&apiKey=***');
    expect(r.upvotes).toBe('12%');
    expect(Object.keys(r)).toContain('***');
  });

  test('a record every field name of which holds the key has each one redacted', () => {
    const kept = keep({ data: [{ [KEY]: 'a', [`x${KEY}`]: 'b' }] });
    expect(leaksIn(JSON.stringify(kept), [KEY])).toEqual([]);
    expect(kept.data).toEqual([{ '***': 'a', 'x***': 'b' }]);
  });

  test('a record within its budget whose field names hold no key is kept as parsed, not copied, its texts redacted in place', () => {
    const record = { id: 'p1', website: `https://svc/?apiKey=${KEY}`, region: ['europe', KEY] };
    const kept = keep({ data: [record] });
    expect((kept.data as unknown[])[0]).toBe(record);
    expect(record).toEqual({ id: 'p1', website: 'https://svc/?apiKey=***', region: ['europe', '***'] });
  });

  test('a key spelled with JSON escapes is redacted too', () => {
    const escaped = Array.from(KEY, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const res = ok200(`{"data":{"id":"a","website":"https://svc/?apiKey=${escaped}"}}`);
    expect(res.ok && res.body.data).toEqual({ id: 'a', website: 'https://svc/?apiKey=***' });
  });

  test('a 200 hands on only the kept copy (the one place every answer becomes data)', () => {
    const res = ok200(
      JSON.stringify({ data: [{ id: 'a', website: `?apiKey=${KEY}` }], pagination: { totalItems: 1, note: KEY } }),
    );
    expect(res.ok && leaksIn(JSON.stringify(res.body), [KEY])).toEqual([]);
  });
});

describe('what is kept of an answer: bounded work per record', () => {
  test(`a field nested deeper than ${MAX_DEPTH} levels (even 1,000,000) is an error for that field; the record and the others keep their values`, () => {
    const body = `{"data":[{"id":"a","fullName":"A","feedbackEntries":${nested(1_000_000)}},{"id":"b","feedbackEntries":${nested(MAX_DEPTH)}}],"pagination":{"totalItems":2}}`;
    const res = ok200(body);
    if (!res.ok) throw res.error;
    const [a, b] = res.body.data as Array<Record<string, unknown>>;
    expect(a).toEqual({ id: 'a', fullName: 'A', feedbackEntries: TOO_DEEP });
    expect(JSON.stringify(b.feedbackEntries)).toBe(nested(MAX_DEPTH));
    expect(res.body.pagination).toEqual({ totalItems: 2 });
  });

  test('a record past its budget loses the fields that do not fit, never its id (an id too large is no id)', () => {
    const big = 'x'.repeat(MAX_RECORD_CHARS / 2);
    const kept = keep({ data: { fullName: 'A', description: big, investmentThesis: big, id: 'a' } }).data as Record<
      string,
      unknown
    >;
    expect(kept).toEqual({ id: 'a', fullName: 'A', description: big, investmentThesis: TOO_LARGE });
    const wide = keep({ data: { id: 'b', expertise: Array.from({ length: MAX_RECORD_CHARS }, () => 1) } })
      .data as Record<string, unknown>;
    expect(wide).toEqual({ id: 'b', expertise: TOO_LARGE });
    expect(keep({ data: { id: 'y'.repeat(MAX_RECORD_CHARS + 1), fullName: 'B' } }).data).toEqual({
      id: null,
      fullName: 'B',
    });
  });

  test('a record of 300,000 fields the add-in never shows keeps its shown fields, and no more of the rest than its budget', () => {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < 300_000; i++) record[`extra${i}`] = 'x';
    Object.assign(record, { id: 'c', fullName: 'C' });
    const kept = (keep({ data: [record] }).data as Array<Record<string, unknown>>)[0];
    expect(kept).toMatchObject({ id: 'c', fullName: 'C' });
    const extra = Object.keys(kept).length - 2;
    expect(extra).toBeGreaterThan(0);
    expect(extra).toBeLessThan(MAX_RECORD_CHARS / 10);
  });

  test('a field named __proto__ stays a field', () => {
    const res = ok200('{"data":{"id":"a","__proto__":{"polluted":1}}}');
    const r = res.ok ? (res.body.data as Record<string, unknown>) : {};
    expect(Object.getOwnPropertyDescriptor(r, '__proto__')?.value).toEqual({ polluted: 1 });
    expect((r as { polluted?: unknown }).polluted).toBeUndefined();
    const nestedKey = ok200(
      `{"data":{"id":"a","metadata":{"__proto__":"?apiKey=${KEY}","x":[{"__proto__":"${KEY}"}]}}}`,
    );
    expect(nestedKey.ok && leaksIn(JSON.stringify(nestedKey.body), [KEY])).toEqual([]);
  });
});
