/**
 * Each record costs bounded work (src/api/answer.ts): the walk over a field's items stops as soon as
 * the record is past its character budget, so a field of a million items is refused without reading
 * them one by one. The work is counted through a list that records each item read.
 */
import { keepAnswer, MAX_RECORD_CHARS, TOO_LARGE } from '../../../src/api/answer';

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

test.each([MAX_RECORD_CHARS + 1, 2 * MAX_RECORD_CHARS])('a field of %i items is refused without reading them', (n) => {
  const { list, reads } = countedList(n);
  const kept = keepAnswer({ data: [{ id: 'p1', investorType: list }] }, [], '');
  const record = (kept.data as Array<Record<string, unknown>>)[0];
  expect(record.id).toBe('p1');
  expect(record.investorType).toBe(TOO_LARGE);
  expect(reads()).toBeLessThan(1000);
});

test('a field within the budget is read whole', () => {
  const { list, reads } = countedList(1000);
  const kept = keepAnswer({ data: [{ id: 'p1', investorType: list }] }, [], '');
  expect((kept.data as Array<Record<string, unknown>>)[0].investorType).toHaveLength(1000);
  expect(reads()).toBeGreaterThanOrEqual(1000);
});
