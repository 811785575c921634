/**
 * What the filter engine (src/table/filter.ts) tells the sidebar: the one-line summary of a saved
 * import's query (every operator in words), whether a compiled query does anything at all, and
 * the suggested values for a field (most frequent first, ties alphabetical, trimmed; structured,
 * over-long and letterless values left out).
 */
import type { ServiceRecord } from '../../../src/api/records';
import { checkFilters, commonValues, compileQuery, describeQuery } from '../../../src/table/filter';

const lp = (id: string, fields: Record<string, unknown> = {}): ServiceRecord => ({ id, ...fields }) as ServiceRecord;

describe('describeQuery', () => {
  test('every operator in words', () => {
    const filters = checkFilters([
      { field: 'firm', op: 'is', value: 'Acme' },
      { field: 'fullName', op: 'contains', value: 'Ann' },
      { field: 'headquarters', op: 'startsWith', value: 'Ber' },
      { field: 'ticketSize', op: 'atMost', value: 9 },
      { field: 'email', op: 'isEmpty' },
    ]);
    expect(describeQuery({ filters, sort: [] })).toBe(
      'firm is Acme and fullName contains Ann and headquarters starts with Ber and ticketSize ≤ 9 and email is empty',
    );
  });
  test('a sort alone', () => {
    expect(describeQuery({ filters: [], sort: [{ field: 'firm' }] })).toBe('sorted by firm');
  });
});

describe('compileQuery', () => {
  test('a query is active when it has a condition or a sort key', () => {
    expect(compileQuery({ filters: [], sort: [] }).active).toBe(false);
    expect(compileQuery({ filters: [{ field: 'email', op: 'isEmpty' }], sort: [] }).active).toBe(true);
    expect(compileQuery({ filters: [], sort: [{ field: 'firm' }] }).active).toBe(true);
  });
});

describe('commonValues', () => {
  test('most frequent first, ties alphabetically, whatever order they were met in', () => {
    const cities = ['Oslo', 'Zurich', 'Amsterdam', 'Berlin', 'Berlin', 'Zurich', 'Berlin'];
    const records = cities.map((headquarters, k) => lp(String(k), { headquarters }));
    expect(commonValues(records, 'headquarters')).toEqual(['Berlin', 'Zurich', 'Amsterdam', 'Oslo']);
  });
  test('values offered trimmed; structured, letterless and over-long ones left out', () => {
    const records = [
      lp('a', { portfolioCompanies: [' Klarna ', { name: 'Spotify' }, '---', 'y'.repeat(60), 'z'.repeat(61)] }),
    ];
    expect(commonValues(records, 'portfolioCompanies')).toEqual(['Klarna', 'y'.repeat(60)]);
  });
});
