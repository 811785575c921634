/**
 * How the filter engine orders records (src/table/filter.ts): text as a person reads it (runs of
 * digits by value, then fewer leading zeros first; digits before letters), numbers by value
 * (decimals, negatives, numeric text), dates by instant whatever their zone, list fields by their
 * elements in order, blanks and unreadable values last in either direction; and the compiled
 * comparator an import keeps between executions: a missing key is a blank, numbers come before
 * texts should stored keys mix them.
 */
import type { ServiceRecord } from '../../../src/api/records';
import {
  applyQuery,
  checkSort,
  compareText,
  compileQuery,
  SORT_TEXT_CHARS,
  type SortCell,
} from '../../../src/table/filter';

const lp = (id: string, fields: Record<string, unknown> = {}): ServiceRecord => ({ id, ...fields }) as ServiceRecord;
const ids = (records: ServiceRecord[]) => records.map((r) => r.id);
const sorted = (records: ServiceRecord[], sort: unknown[]) =>
  ids(applyQuery(records, { filters: [], sort: checkSort(sort) }));
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : n === 0 ? 0 : Number.NaN);

describe('compareText: text as a person reads it', () => {
  // Each pair in the order it sorts; checked both ways round, since a rule may hold one way only.
  test.each<[string, string]>([
    ['fund 2', 'fund 10'],
    ['fund 9', 'fund 10'],
    ['fund 12', 'fund 13'],
    ['fund 21', 'fund 23'],
    ['fund 5', 'fund 05'],
    ['fund 05', 'fund 6'],
    ['fund 0', 'fund 00'],
    ['fund 2 a', 'fund 2 b'],
    ['fund 2 b', 'fund 10 a'],
    ['fund 9 bb', 'fund 10 a'],
    ['3i group', 'accel'],
    ['a1', 'ab'],
    ['ab', 'b'],
    ['ab', 'ab 1'],
    ['abc', 'abd'],
  ])('%p sorts before %p', (first, second) => {
    expect(sign(compareText(first, second))).toBe(-1);
    expect(sign(compareText(second, first))).toBe(1);
  });
  test('the same text is a tie', () => {
    expect(compareText('fund 007 b', 'fund 007 b')).toBe(0);
  });
});

describe('sort values by kind of field', () => {
  test('numbers by value: decimals, negatives and numeric text from the service', () => {
    const records = [
      lp('a', { ticketSize: 2.5 }),
      lp('b', { ticketSize: '2.25' }),
      lp('c', { ticketSize: -1 }),
      lp('d', { ticketSize: 10 }),
    ];
    expect(sorted(records, [{ field: 'ticketSize' }])).toEqual(['c', 'b', 'a', 'd']);
  });
  test('a number or date the service sends unreadable sorts last, as a blank, in either direction', () => {
    const numbers = [lp('a', { ticketSize: 'n/a' }), lp('b', { ticketSize: 5 }), lp('c', { ticketSize: 7 })];
    expect(sorted(numbers, [{ field: 'ticketSize', descending: true }])).toEqual(['c', 'b', 'a']);
    const dates = [lp('a', { createdAt: 'soon' }), lp('b', { createdAt: '2024-01-01' })];
    expect(sorted(dates, [{ field: 'createdAt', descending: true }])).toEqual(['b', 'a']);
  });
  test('dates by instant, whatever the zone they are written in', () => {
    const records = [
      lp('a', { createdAt: '2024-01-01T23:00:00-05:00' }), // 2 January, 04:00 UTC
      lp('b', { createdAt: '2024-01-02T01:00:00Z' }),
      lp('c', { createdAt: '2024-01-01T12:00:00Z' }),
    ];
    expect(sorted(records, [{ field: 'createdAt' }])).toEqual(['c', 'b', 'a']);
  });
  test('a list field by its elements in order, a word apart', () => {
    const records = [lp('a', { sectorsFocused: ['HealthCare'] }), lp('b', { sectorsFocused: ['Health', 'Care'] })];
    expect(sorted(records, [{ field: 'sectorsFocused' }])).toEqual(['b', 'a']);
  });
  test('text compares on its first SORT_TEXT_CHARS characters: texts alike that far tie and keep their order', () => {
    const stem = 'x'.repeat(SORT_TEXT_CHARS);
    const records = [lp('a', { firm: `${stem}b` }), lp('b', { firm: `${stem}a` }), lp('c', { firm: 'w' })];
    expect(sorted(records, [{ field: 'firm' }])).toEqual(['c', 'a', 'b']);
  });
});

describe('the compiled comparator', () => {
  const byTicket = compileQuery({ filters: [], sort: [{ field: 'ticketSize' }] });
  const byFirmDown = compileQuery({ filters: [], sort: [{ field: 'firm', descending: true }] });
  const cmp = (q: ReturnType<typeof compileQuery>, a: SortCell[], b: SortCell[]) => sign(q.compare(a, b));
  test('a blank sorts after any value, either way round and in either direction', () => {
    expect(cmp(byTicket, [5], [''])).toBe(-1);
    expect(cmp(byTicket, [''], [5])).toBe(1);
    expect(cmp(byFirmDown, ['zeta'], [''])).toBe(-1);
    expect(cmp(byFirmDown, [''], ['zeta'])).toBe(1);
    expect(cmp(byFirmDown, [''], [''])).toBe(0);
  });
  test('a missing key counts as a blank', () => {
    expect(cmp(byFirmDown, [], [5])).toBe(1);
    expect(cmp(byFirmDown, [5], [])).toBe(-1);
    expect(cmp(byTicket, [], ['zeta'])).toBe(1);
    expect(cmp(byTicket, ['zeta'], [])).toBe(-1);
  });
  test('numbers before texts should stored keys mix them; descending reverses that', () => {
    expect(cmp(byTicket, [5], ['abc'])).toBe(-1);
    expect(cmp(byTicket, ['abc'], [5])).toBe(1);
    expect(cmp(byFirmDown, [5], ['abc'])).toBe(1);
    expect(cmp(byFirmDown, ['abc'], [5])).toBe(-1);
  });
  test('numbers by value, texts as a person reads them', () => {
    expect(cmp(byTicket, [2], [10])).toBe(-1);
    expect(cmp(byTicket, ['fund 9'], ['fund 10'])).toBe(-1);
    expect(cmp(byFirmDown, ['fund 9'], ['fund 10'])).toBe(1);
  });
});
