/** The pure parts of Diagnostics: what a list page must hold per the spec, and blanking runs of the key. */
import { pageProblems, scrubSecret } from '../../../src/entry/diagnostics';

describe('pageProblems', () => {
  test('a page as the spec says has none', () => {
    expect(pageProblems({ data: [{ id: 'a' }], pagination: { totalItems: 1, totalPages: 1, currentPage: 1, pageSize: 10 } })).toEqual([]);
  });

  test('a missing pagination object, mistyped counts and data that is not a list of records are each named', () => {
    expect(pageProblems({ data: [{ id: 'a' }] })).toEqual(['no "pagination" object']);
    expect(pageProblems({ data: [], pagination: { totalItems: '3', totalPages: 1.5, currentPage: 1, pageSize: -1 } })).toEqual(['pagination without a whole number in totalItems, totalPages, pageSize']);
    expect(pageProblems({ data: { id: 'a' }, pagination: [] })).toEqual(['"data" is not a list of records', 'no "pagination" object']);
  });
});

describe('scrubSecret', () => {
  const key = 'AbCdEfGh-1234/5678';

  test('no run of six or more characters of the key survives, raw or URL-encoded, overlapping or not', () => {
    const text = `a ${key} b ${key.slice(2, 9)} c ${key.slice(5, 17)}x d ${encodeURIComponent(key)} e ${key.slice(-4)}`;
    const out = scrubSecret(text, key);
    for (const form of [key, encodeURIComponent(key)]) {
      for (let i = 0; i + 6 <= form.length; i++) expect(out).not.toContain(form.slice(i, i + 6));
    }
    expect(out.endsWith(` e ${key.slice(-4)}`)).toBe(true);
  });

  test('text without the key, or with no key at all, is unchanged', () => {
    expect(scrubSecret('nothing secret here', key)).toBe('nothing secret here');
    expect(scrubSecret('anything', '')).toBe('anything');
  });
});
