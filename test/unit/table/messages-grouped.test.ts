/**
 * Messages an analyst reads write their counts as the sidebar does: thousands grouped by commas
 * (`20,001 distinct ids`, `2,500 characters`), whatever the argument that was refused.
 */
import { normaliseBaseUrl } from '../../../src/api/url';
import { checkFilters } from '../../../src/table/filter';
import { readIds, readPositiveInt } from '../../../src/table/input';
import { readQuery } from '../../../src/table/search';

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('no message');
};

test('too many ids: both counts grouped', () => {
  const ids = Array.from({ length: 20_001 }, (_, i) => [`lp_${i}`]);
  expect(message(() => readIds(ids))).toBe('20,001 distinct ids in one formula; at most 20,000. Split the range.');
});

test('a number past its limit, an id, an address and a query too long: grouped', () => {
  expect(message(() => readPositiveInt(1_234_567, 'limit', undefined, 20_000))).toBe(
    'limit must be at most 20,000 (got 1,234,567).',
  );
  expect(message(() => readIds('x'.repeat(1_500)))).toBe('An id is 1,500 characters long; ids are at most 1,000.');
  expect(message(() => normaliseBaseUrl(`https://a.example/${'p'.repeat(2_500)}`))).toBe(
    'The service address is 2,518 characters long; at most 2,000.',
  );
  expect(message(() => readQuery('q'.repeat(1_200)))).toBe('query is 1,200 characters long; at most 200.');
  expect(message(() => checkFilters([{ field: 'firm', op: 'is', value: 'v'.repeat(3_000) }]))).toMatch(
    /the value is 3,000 characters long; at most 200\./,
  );
});
