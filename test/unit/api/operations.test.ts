/**
 * Reading `data` into one shape whatever the service sends: one record (an object, or a list
 * holding it; null or empty is "no such record"; a record naming another id is a wrong answer),
 * a list of records, and the pagination object (numbers or numeric text, floored; a missing
 * total is a broken page, other fields fall back to what was asked).
 */
import { OPERATIONS, readPagination, recordList, singleRecord } from '../../../src/api/operations';

const lp = OPERATIONS.getLimitedPartnerById;
const act = OPERATIONS.getAllActiveLimitedPartners;
const fail = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('expected a failure');
};

describe('one record', () => {
  test('an object, or the first of a list; an id matching after trimming the one asked for', () => {
    expect(singleRecord({ id: 'lp_1', a: 1 }, lp, 'lp_1')).toEqual({ id: 'lp_1', a: 1 });
    expect(singleRecord([{ id: 'lp_1' }, { id: 'other' }], lp, ' lp_1 ')).toEqual({ id: 'lp_1' });
    expect(singleRecord({ id: 7 }, lp, '7')).toEqual({ id: 7 });
    expect(singleRecord({ name: 'no id' }, lp, 'lp_1')).toEqual({ name: 'no id' });
    expect(singleRecord({ id: null }, lp, 'lp_1')).toEqual({ id: null });
  });

  test.each([[null], [[]], [undefined], [[null]]])('%j is no such record (NOT_FOUND)', (data) => {
    expect(fail(() => singleRecord(data as never, lp, 'lp_1'))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'The data service has no limited partner with id lp_1.',
    });
  });

  test('an operation without a subject says "record"', () => {
    expect(fail(() => singleRecord(null, act, 'x')).message).toBe('The data service has no record with id x.');
    expect(fail(() => singleRecord({ id: 'y' }, act, 'x')).message).toBe(
      'The data service answered with record id y when asked for x.',
    );
  });

  test.each([['text'], [5], [true], [[['nested']]]])('%j is not a record (BAD_RESPONSE)', (data) => {
    expect(fail(() => singleRecord(data as never, lp, 'lp_1'))).toMatchObject({
      code: 'BAD_RESPONSE',
      message: 'The service sent an unexpected getLimitedPartnerById record.',
    });
  });

  test('a record naming another id is a wrong answer, its id shown cut to 40 characters', () => {
    expect(fail(() => singleRecord({ id: 'lp_2' }, lp, 'lp_1'))).toMatchObject({
      code: 'BAD_RESPONSE',
      message: 'The data service answered with limited partner id lp_2 when asked for lp_1.',
    });
    expect(fail(() => singleRecord({ id: 'z'.repeat(41) }, lp, 'lp_1')).message).toBe(
      `The data service answered with limited partner id ${'z'.repeat(40)}… when asked for lp_1.`,
    );
    expect(fail(() => singleRecord({ id: 'z'.repeat(40) }, lp, 'lp_1')).message).toBe(
      `The data service answered with limited partner id ${'z'.repeat(40)} when asked for lp_1.`,
    );
    expect(fail(() => singleRecord({ id: { x: 1 } }, lp, 'lp_1')).message).toBe(
      'The data service answered with limited partner id object when asked for lp_1.',
    );
  });
});

describe('a list of records', () => {
  test('a list is the list, an item that is no record an empty one; anything but a list is BAD_RESPONSE', () => {
    expect(recordList([{ id: 'a' }, {}], act)).toEqual([{ id: 'a' }, {}]);
    expect(recordList([], act)).toEqual([]);
    expect(recordList([{ id: 'a' }, null, [], 'x', 3], act)).toEqual([{ id: 'a' }, {}, {}, {}, {}]);
    for (const bad of [null, {}, 'x']) {
      expect(fail(() => recordList(bad as never, act))).toMatchObject({
        code: 'BAD_RESPONSE',
        message: 'The service sent an unexpected getAllActiveLimitedPartners list.',
      });
    }
  });
});

describe('pagination', () => {
  const asked = { page: 3, limit: 50 };

  test('numbers, or numeric text, floored', () => {
    expect(readPagination({ totalItems: 120, totalPages: 3, currentPage: 2, pageSize: 50 }, asked)).toEqual({
      totalItems: 120,
      totalPages: 3,
      currentPage: 2,
      pageSize: 50,
    });
    expect(readPagination({ totalItems: ' 120 ', totalPages: '3', currentPage: '2.9', pageSize: '50' }, asked)).toEqual(
      { totalItems: 120, totalPages: 3, currentPage: 2, pageSize: 50 },
    );
    expect(readPagination({ totalItems: 0 }, asked)).toEqual({
      totalItems: 0,
      totalPages: 0,
      currentPage: 3,
      pageSize: 50,
    });
  });

  test('missing or unusable fields fall back: the page and size asked for, pages from the total', () => {
    expect(readPagination({ totalItems: 101, totalPages: -1, currentPage: 'x', pageSize: 0 }, asked)).toEqual({
      totalItems: 101,
      totalPages: 3,
      currentPage: 3,
      pageSize: 50,
    });
    expect(readPagination({ totalItems: 101, pageSize: '' }, { page: 1, limit: 0 })).toEqual({
      totalItems: 101,
      totalPages: 101,
      currentPage: 1,
      pageSize: 0,
    });
    expect(readPagination({ totalItems: 100, pageSize: Number.POSITIVE_INFINITY }, asked)).toMatchObject({
      pageSize: 50,
      totalPages: 2,
    });
  });

  test('no object, or no usable total, is a broken page (MALFORMED, retried)', () => {
    for (const bad of [null, undefined, [], 'x']) {
      expect(fail(() => readPagination(bad as never, asked))).toMatchObject({
        code: 'MALFORMED',
        message: 'The data service sent a list page without its pagination object.',
      });
    }
    for (const totalItems of [undefined, -1, 'many', '', null]) {
      expect(fail(() => readPagination({ totalItems } as never, asked))).toMatchObject({
        code: 'MALFORMED',
        message: 'The data service sent a list page without a usable totalItems.',
      });
    }
  });
});

test('every per-id operation names its id parameter and subject; the lists are the paginated ones; tags are distinct', () => {
  const ops = Object.values(OPERATIONS);
  expect(
    ops
      .filter((o) => o.paginated)
      .map((o) => o.name)
      .sort(),
  ).toEqual(['getAllActiveLimitedPartners', 'getIndustriesByVentureFundId']);
  expect(new Set(ops.map((o) => o.tag)).size).toBe(ops.length);
  for (const o of ops) expect(o.paths.length).toBeGreaterThan(0);
  expect(ops.filter((o) => o.idParam === 'limitedPartnerId').every((o) => o.subject === 'limited partner')).toBe(true);
  expect(ops.filter((o) => o.idParam === 'ventureFundId').every((o) => o.subject === 'venture fund')).toBe(true);
});
