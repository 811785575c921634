/**
 * The list cursor (src/api/pages.ts) driven page by page, as the import drives it across
 * executions: how many pages it plans at once, when a refused page is the end of the list and
 * when it is not, a list that changes under the read, the verdict on a read that is not finished or does not add up, and the size of
 * the cursor an import saves between executions.
 */
import { ServiceError } from '../../../src/api/errors';
import { acceptPage, acceptRefusal, cursorDone, listVerdict, nextPages, startCursor } from '../../../src/api/pages';
import type { ServiceRecord } from '../../../src/api/records';
import { readUpTo, servedPage } from '../../helpers/cursor-pages';
import { records } from '../../helpers/fake-list';

const notFound = () => new ServiceError('NOT_FOUND', 'Not found (HTTP 404).');

describe('list cursor: planning', () => {
  test('at most `max` pages are planned at once, in order, and at least one', () => {
    const c = readUpTo(records(1000), 1); // 10 pages of 100
    expect(nextPages(c, 3)).toEqual([2, 3, 4]);
    expect(nextPages(c, 1)).toEqual([2]);
    expect(nextPages(c, 0)).toEqual([2]);
    expect(nextPages(c, 50)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]); // 1,000 is a multiple of 100: page 11 confirms the end
  });
});

describe('list cursor: a list that changes under the read', () => {
  test('a page whose total is not the one page 1 reported ends the read at once, to be done again', () => {
    for (const [total, grown] of [
      [1000, 1001],
      [1000, 999],
      [250, 251],
    ]) {
      const c = readUpTo(records(total), 2);
      acceptPage(c, 3, servedPage(records(grown), 3, c.limit));
      expect(cursorDone(c)).toBe(true);
      expect(nextPages(c, 50)).toEqual([]);
      expect(c.received).toBe(200);
      expect(listVerdict(c, 200)).toEqual({
        complete: false,
        reason: 'the list changed while it was read',
        changed: true,
      });
    }
  });

  test('a list that shrinks under the read, served by a server that repeats its last page past the end, changed: it is no repeat', () => {
    const c = readUpTo(records(300), 2);
    // Page 3 asked after the list shrank to 200: the server answers with its last page, page 2, again.
    acceptPage(c, 3, servedPage(records(200), 2, c.limit));
    expect(listVerdict(c, 200)).toEqual({
      complete: false,
      reason: 'the list changed while it was read',
      changed: true,
    });
  });
});

describe('list cursor: a refused page', () => {
  test('a refusal of a page inside the list is never the end: the list shrank, and is read again', () => {
    for (const total of [250, 300]) {
      for (const page of [2, 3]) {
        const c = readUpTo(records(total), 1);
        expect(acceptRefusal(c, page, notFound())).toBe(true);
        expect(c.endConfirmed).toBe(false);
        expect(listVerdict(c, 100)).toMatchObject({ complete: false, changed: true });
      }
    }
  });

  test('the page after the last, refused before the pages ahead of it are in, is not the end yet', () => {
    const c = readUpTo(records(300), 1);
    const before = structuredClone(c);
    expect(acceptRefusal(c, 4, notFound())).toBe(false);
    expect(c).toEqual(before);
    acceptPage(c, 2, servedPage(records(300), 2, c.limit));
    acceptPage(c, 3, servedPage(records(300), 3, c.limit));
    expect(acceptRefusal(c, 4, notFound())).toBe(true);
    expect(listVerdict(c, 300)).toEqual({ complete: true });
  });

  test('the page after the last refused as not found or as a bad request ends the read exactly as an empty page does', () => {
    const items = records(300);
    const empty = readUpTo(items, 3);
    acceptPage(empty, 4, servedPage(items, 4, empty.limit));
    expect(empty.endConfirmed).toBe(true);
    for (const error of [notFound(), new ServiceError('BAD_INPUT', 'Bad request (HTTP 400).')]) {
      const refused = readUpTo(items, 3);
      expect(acceptRefusal(refused, 4, error)).toBe(true);
      expect(refused).toEqual(empty);
    }
  });

  test('any other failure of the page after the last ends nothing', () => {
    for (const code of ['SERVER', 'AUTH', 'RATE_LIMITED', 'MALFORMED'] as const) {
      const c = readUpTo(records(300), 3);
      const before = structuredClone(c);
      expect(acceptRefusal(c, 4, new ServiceError(code, 'failed'))).toBe(false);
      expect(c).toEqual(before);
      expect(nextPages(c, 5)).toEqual([4]);
    }
  });
});

describe('list cursor: the verdict', () => {
  test('a read that has not reached the end of the list is not complete, and is not a list that moved', () => {
    expect(listVerdict(startCursor(100))).toEqual({
      complete: false,
      reason: 'the end of the list was not reached',
      changed: false,
    });
    expect(listVerdict(readUpTo(records(300), 2), 200)).toEqual({
      complete: false,
      reason: 'the end of the list was not reached',
      changed: false,
    });
  });

  test('a saved cursor whose count of items received disagrees with the total is never complete', () => {
    const c = readUpTo(records(300), 3);
    acceptPage(c, 4, servedPage(records(300), 4, c.limit));
    expect(listVerdict(c, 300)).toEqual({ complete: true });
    for (const received of [299, 1, 301]) {
      expect(listVerdict({ ...c, received }, 300)).toEqual({
        complete: false,
        reason: `${received === 1 ? '1 item' : `${received} items`} arrived where the service reports 300`,
        changed: false,
      });
    }
  });
});

describe('list cursor: what an import saves', () => {
  test('the cursor stays small whatever the records hold (long records without ids)', () => {
    const long = (i: number): ServiceRecord => ({ name: `Industry ${i} ${'x'.repeat(5000)}` });
    const items = Array.from({ length: 250 }, (_, i) => long(i));
    const c = startCursor(1000);
    acceptPage(c, 1, servedPage(items, 1, c.limit));
    acceptPage(c, 2, servedPage(items, 2, c.limit));
    expect(cursorDone(c)).toBe(false);
    expect(JSON.stringify(c).length).toBeLessThan(600);
  });
});
