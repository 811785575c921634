/**
 * A page refused as no such page (404 or 400), handed to the list cursor (src/api/pages.ts) with
 * `acceptRefusal`: a page within the list not yet taken in means the list shrank under the read (the
 * read ends, to be done again); a page the cursor has already taken in is no news about the list
 * (a late or repeated answer), so it leaves the cursor as it was and the read goes on.
 */
import { ServiceError } from '../../../src/api/errors';
import { acceptPage, acceptRefusal, cursorDone, listVerdict, nextPages } from '../../../src/api/pages';
import { readUpTo, servedPage } from '../../helpers/cursor-pages';
import { records } from '../../helpers/fake-list';

const notFound = () => new ServiceError('NOT_FOUND', 'Not found (HTTP 404).');
const badRequest = () => new ServiceError('BAD_INPUT', 'Bad request (HTTP 400).');

describe('a page refused as no such page', () => {
  test('a page already taken in, refused afterwards, changes nothing: the read goes on and completes', () => {
    const items = records(300);
    const c = readUpTo(items, 2);
    const before = structuredClone(c);
    for (const [page, error] of [
      [1, notFound()],
      [2, badRequest()],
    ] as const) {
      expect(acceptRefusal(c, page, error)).toBe(false);
      expect(c).toEqual(before);
    }
    expect(nextPages(c, 5)).toEqual([3, 4]);
    acceptPage(c, 3, servedPage(items, 3, c.limit));
    acceptPage(c, 4, servedPage(items, 4, c.limit));
    expect(listVerdict(c, 300)).toEqual({ complete: true });
  });

  test('a page within the list not yet taken in ends the read as a list that shrank', () => {
    const c = readUpTo(records(300), 2);
    expect(acceptRefusal(c, 3, notFound())).toBe(true);
    expect(cursorDone(c)).toBe(true);
    expect(listVerdict(c, 200)).toEqual({
      complete: false,
      reason: 'page 3 of 3 was gone by the time it was asked for (the list shrank while it was read)',
      changed: true,
    });
  });
});
