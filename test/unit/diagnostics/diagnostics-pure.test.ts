/** The pure part of Diagnostics: what a list page must hold per the spec (the report's redaction is src/api/redact.ts, tested there). */
import { pageProblems } from '../../../src/entry/diagnostics';

describe('pageProblems', () => {
  test('a page as the spec says has none', () => {
    expect(
      pageProblems({ data: [{ id: 'a' }], pagination: { totalItems: 1, totalPages: 1, currentPage: 1, pageSize: 10 } }),
    ).toEqual([]);
  });

  test('a missing pagination object, mistyped counts and data that is not a list of records are each named', () => {
    expect(pageProblems({ data: [{ id: 'a' }] })).toEqual(['no "pagination" object']);
    expect(
      pageProblems({ data: [], pagination: { totalItems: '3', totalPages: 1.5, currentPage: 1, pageSize: -1 } }),
    ).toEqual(['pagination without a whole number in totalItems, totalPages, pageSize']);
    expect(pageProblems({ data: { id: 'a' }, pagination: [] })).toEqual([
      '"data" is not a list of records',
      'no "pagination" object',
    ]);
  });
});
