/**
 * Where a condition of the filter engine (src/table/filter.ts) starts and stops holding: a day's
 * first and last millisecond, an instant matched exactly, "is" as a whole value rather than its
 * start, text across line breaks, and list elements the service sends as structured values.
 */
import type { ServiceRecord } from '../../../src/api/records';
import { applyQuery, checkFilters } from '../../../src/table/filter';

const lp = (id: string, fields: Record<string, unknown> = {}): ServiceRecord => ({ id, ...fields }) as ServiceRecord;
const run = (records: ServiceRecord[], filters: unknown[]) =>
  applyQuery(records, { filters: checkFilters(filters), sort: [] }).map((r) => r.id);

describe('dates', () => {
  const records = [
    lp('before', { createdAt: '2024-03-30T23:59:59.999Z' }),
    lp('first', { createdAt: '2024-03-31T00:00:00.000Z' }),
    lp('last', { createdAt: '2024-03-31T23:59:59.999Z' }),
    lp('after', { createdAt: '2024-04-01T00:00:00.000Z' }),
  ];
  test("a day holds from its first to its last millisecond, whichever operator and however it's typed", () => {
    expect(run(records, [{ field: 'createdAt', op: 'is', value: ' 2024-03-31 ' }])).toEqual(['first', 'last']);
    expect(run(records, [{ field: 'createdAt', op: 'atMost', value: '2024-03-31' }])).toEqual([
      'before',
      'first',
      'last',
    ]);
  });
  test('a date and time matches that instant exactly', () => {
    expect(run(records, [{ field: 'createdAt', op: 'is', value: '2024-03-31T23:59:59.999Z' }])).toEqual(['last']);
    expect(run(records, [{ field: 'createdAt', op: 'atMost', value: '2024-03-31T00:00:00Z' }])).toEqual([
      'before',
      'first',
    ]);
  });
});

describe('text', () => {
  test('"is" is the whole value, not its start', () => {
    const records = [lp('a', { firm: 'Acme Capital' }), lp('b', { firm: 'ACME' })];
    expect(run(records, [{ field: 'firm', op: 'is', value: 'acme' }])).toEqual(['b']);
  });
  test('a line break separates words like a space', () => {
    const records = [lp('a', { description: 'Seed fund\nTwo partners' }), lp('b', { description: 'Growth' })];
    expect(run(records, [{ field: 'description', op: 'contains', value: 'fund two' }])).toEqual(['a']);
  });
  test('a structured element of a list is matched on its content', () => {
    const records = [
      lp('a', { portfolioCompanies: [{ name: 'Klarna', country: 'Sweden' }] }),
      lp('b', { portfolioCompanies: ['Object Inc'] }),
    ];
    expect(run(records, [{ field: 'portfolioCompanies', op: 'contains', value: 'klarna' }])).toEqual(['a']);
    expect(run(records, [{ field: 'portfolioCompanies', op: 'contains', value: 'object' }])).toEqual(['b']);
  });
});
