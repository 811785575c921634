/**
 * What the list cursor (src/api/pages.ts) takes from a page, page by page: a page is known by its
 * length and the ids of its first and last records (text or numbers), so a page that brings those
 * back is a repeat whatever its other fields say, and records alike in everything but their ids
 * are told apart; and a page is taken only in its turn and only while the read is going on, so a
 * page given again, ahead of its turn or after the end leaves the cursor as it was.
 */
import { acceptPage, cursorDone, listVerdict, nextPages } from '../../../src/api/pages';
import type { Page, ServiceRecord } from '../../../src/api/records';
import { readUpTo, servedPage } from '../../helpers/cursor-pages';
import { records } from '../../helpers/fake-list';

/** `page` with every record's name changed (the same records, edited between two requests). */
const renamed = (page: Page<ServiceRecord>): Page<ServiceRecord> => ({
  ...page,
  items: page.items.map((r) => ({ ...r, fullName: `${String(r.fullName)} (renamed)` })),
});

describe('list cursor: a page is known by its ids', () => {
  test('a page that brings back the first and last text ids of the page before is a repeat, even with other fields changed', () => {
    const items = records(250);
    const c = readUpTo(items, 1);
    acceptPage(c, 2, renamed(servedPage(items, 1, c.limit)));
    expect(cursorDone(c)).toBe(true);
    expect(listVerdict(c, 100)).toEqual({ complete: false, reason: 'page 2 repeats page 1', changed: false });
  });

  test('a server that repeats its last page past the end, its records edited since, still ends the list', () => {
    for (const ids of ['text', 'numbers'] as const) {
      const items = records(300).map((r, i) => (ids === 'text' ? r : { ...r, id: i + 1 }));
      const c = readUpTo(items, 3);
      acceptPage(c, 4, renamed(servedPage(items, 3, c.limit)));
      expect(listVerdict(c, 300)).toEqual({ complete: true });
    }
  });

  test('records alike in their first 120 characters of text are told apart by their ids', () => {
    for (const ids of ['text', 'numbers'] as const) {
      const items = Array.from({ length: 250 }, (_, i) => ({
        description: 'A long description every partner shares. '.repeat(4),
        id: ids === 'text' ? `p${i}` : i + 1,
      }));
      const c = readUpTo(items, 3);
      expect(listVerdict(c, 250)).toEqual({ complete: true });
    }
  });
});

describe('list cursor: a page is taken in its turn only', () => {
  test('a page given again is not taken twice, nor taken for a repeat of the page before', () => {
    const items = records(300);
    const c = readUpTo(items, 2);
    const before = structuredClone(c);
    acceptPage(c, 2, servedPage(items, 2, c.limit));
    expect(c).toEqual(before);
    acceptPage(c, 3, servedPage(items, 3, c.limit));
    acceptPage(c, 4, servedPage(items, 4, c.limit));
    expect(listVerdict(c, 300)).toEqual({ complete: true });
  });

  test('a page ahead of its turn is not taken: the pages before it are still asked for', () => {
    const items = records(300);
    const c = readUpTo(items, 1);
    const before = structuredClone(c);
    acceptPage(c, 3, servedPage(items, 3, c.limit));
    expect(c).toEqual(before);
    expect(nextPages(c, 5)).toEqual([2, 3, 4]);
  });

  test('a page given once the read is over changes nothing, whatever it holds', () => {
    const items = records(300);
    const ended = readUpTo(items, 4); // page 4, past the end, is empty: the list is complete
    const afterProblem = readUpTo(items, 1);
    acceptPage(afterProblem, 2, servedPage(items, 1, afterProblem.limit)); // page 2 repeats page 1
    for (const c of [ended, afterProblem]) {
      expect(cursorDone(c)).toBe(true);
      const before = structuredClone(c);
      const more = servedPage(records(301), 3, c.limit); // another total, and items past the end
      acceptPage(c, c.nextPage, more);
      acceptPage(c, c.nextPage, { ...more, items: [] });
      expect(c).toEqual(before);
    }
    expect(listVerdict(ended, 300)).toEqual({ complete: true });
  });
});
