/**
 * What the service's own pagination and record ids say, taken as said: a page size and a page
 * count it names win over what was asked for and what the total implies; text of spaces only is
 * no number; a wrong answer's message shows a numeric id as the number and the asked id trimmed.
 */
import { OPERATIONS, readPagination, singleRecord } from '../../../src/api/operations';

const lp = OPERATIONS.getLimitedPartnerById;

describe('pagination as the service states it', () => {
  const asked = { page: 1, limit: 50 };

  test('the page size the service names wins over the size asked for', () => {
    expect(readPagination({ totalItems: 100, pageSize: 25 }, asked)).toMatchObject({ pageSize: 25, totalPages: 4 });
  });

  test('the page count the service names wins over the count the total implies', () => {
    expect(readPagination({ totalItems: 120, pageSize: 50, totalPages: 5 }, asked)).toMatchObject({ totalPages: 5 });
  });

  test('text of spaces only is no number: a total of spaces is a broken page', () => {
    expect(() => readPagination({ totalItems: '   ' }, asked)).toThrow(
      'The data service sent a list page without a usable totalItems.',
    );
    expect(readPagination({ totalItems: 10, pageSize: ' ', currentPage: '\t' }, asked)).toMatchObject({
      pageSize: 50,
      currentPage: 1,
    });
  });
});

describe('a record naming another id', () => {
  test('a numeric id is shown as the number', () => {
    expect(() => singleRecord({ id: 42 }, lp, 'lp_1')).toThrow(
      'The data service answered with limited partner id 42 when asked for lp_1.',
    );
  });

  test('the id asked for is shown trimmed', () => {
    expect(() => singleRecord({ id: 'lp_2' }, lp, '  lp_1 ')).toThrow(
      'The data service answered with limited partner id lp_2 when asked for lp_1.',
    );
  });
});
