/**
 * Each record costs bounded work (src/api/answer.ts): the walk over a field's items stops as soon as
 * the record is past its character budget, so a field of a million items is refused without reading
 * them one by one; and an answer whose text as sent is itself within one record's budget, nests less
 * than MAX_DEPTH deep and holds nothing that could be a key is kept as parsed, with no item read. The
 * work is counted through a list that records each item read.
 */
import { keepAnswer, MAX_DEPTH, MAX_RECORD_CHARS, nestsUnder, TOO_DEEP, TOO_LARGE } from '../../../src/api/answer';

/** A list of `n` small items that counts how many of them are read. */
function countedList(n: number): { list: number[]; reads: () => number } {
  let reads = 0;
  const list = new Proxy(new Array<number>(n).fill(1), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { list, reads: () => reads };
}

/** The text a service sends for a body of one record whose `investorType` lists `n` ones (and `extra`, a text in it). */
const sent = (n: number, extra = ''): string =>
  `{"data":[{"id":"p1","investorType":[${new Array<string>(n).fill('1').join(',')}]${extra ? `,"note":"${extra}"` : ''}}]}`;

test.each([MAX_RECORD_CHARS + 1, 2 * MAX_RECORD_CHARS])('a field of %i items is refused without reading them', (n) => {
  const { list, reads } = countedList(n);
  const kept = keepAnswer({ data: [{ id: 'p1', investorType: list }] }, [], sent(n));
  const record = (kept.data as Array<Record<string, unknown>>)[0];
  expect(record.id).toBe('p1');
  expect(record.investorType).toBe(TOO_LARGE);
  expect(reads()).toBeLessThan(1000);
});

test('a field within the budget, in an answer that may hold a key, is read whole', () => {
  const { list, reads } = countedList(1000);
  const kept = keepAnswer({ data: [{ id: 'p1', investorType: list }] }, ['k-0123456789'], sent(1000, '%6B'));
  expect((kept.data as Array<Record<string, unknown>>)[0].investorType).toHaveLength(1000);
  expect(reads()).toBeGreaterThanOrEqual(1000);
});

describe('an answer whose text is within the budget', () => {
  test('and shallow, with nothing that could be a key, is kept as parsed: no item is read', () => {
    const { list, reads } = countedList(1000);
    const kept = keepAnswer(
      { pagination: { page: 1 }, data: [{ id: 'p1', investorType: list }] },
      ['k-0123456789'],
      sent(1000),
    );
    expect((kept.data as Array<Record<string, unknown>>)[0].investorType).toBe(list);
    expect(kept.pagination).toEqual({ page: 1 });
    expect(reads()).toBe(0);
  });

  test('but nested MAX_DEPTH deep is walked: the deep field is refused, the rest kept', () => {
    let deep: unknown = 1;
    for (let k = 0; k < MAX_DEPTH + 1; k++) deep = [deep];
    const body = { data: [{ id: 'p1', firm: 'Acme', investorType: deep }] };
    const record = (keepAnswer(body, [], JSON.stringify(body)).data as Array<Record<string, unknown>>)[0];
    expect(record).toEqual({ id: 'p1', firm: 'Acme', investorType: TOO_DEEP });
  });

  test.each([
    ['{"a":[[[1]]]}', 5, true],
    ['{"a":[[[1]]]}', 4, false],
    ['{"a":"[[[[[[{{{{"}', 2, true],
    ['{"a":"x\\\\"}', 2, true],
    ['{"a":"x\\\\\\"[[["}', 2, true],
    ['[[1],[2],[3],[4]]', 3, true],
    ['{"a":{},"b":{},"c":{}}', 3, true],
    ['{"a":"[[[', 5, false],
    ['[]"x', 5, false],
    ['{"a":"x\\"', 5, false],
  ])(
    'nesting of %s under %i: %s (brackets in strings, escaped quotes and backslashes skipped; a string never closed is not under)',
    (text, limit, under) => {
      expect(nestsUnder(text, limit)).toBe(under);
    },
  );
});
