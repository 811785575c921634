/**
 * The record of a read (src/api/pages.ts) driven page by page, as the import drives it across
 * executions: what it asks for next, when a refused page is the end of the list and when it is not,
 * a list that changes under the read, a page known by its ids, pages that answer out of their turn,
 * the verdict, and the size of the record an import saves between executions.
 */
import { ServiceError } from '../../../src/api/errors';
import {
  MAX_AHEAD,
  newStep,
  pageIn,
  plan,
  startRead,
  takePage,
  takeRefusal,
  verdict,
  factsOf,
} from '../../../src/api/pages';
import type { Page, ServiceRecord } from '../../../src/api/records';
import { readUpTo, servedPage } from '../../helpers/cursor-pages';
import { records } from '../../helpers/fake-list';

const notFound = () => new ServiceError('NOT_FOUND', 'Not found (HTTP 404).');
const badRequest = () => new ServiceError('BAD_INPUT', 'Bad request (HTTP 400).');
const asks = (r: ReturnType<typeof startRead>, max: number, now = 0) => plan(r, now, max).ask;

/** `page` with every record's name changed (the same records, edited between two requests). */
const renamed = (page: Page<ServiceRecord>): Page<ServiceRecord> => ({
  ...page,
  items: page.items.map((r) => ({ ...r, fullName: `${String(r.fullName)} (renamed)` })),
});

describe('what to ask next', () => {
  test('page 1 alone first; then at most `max` pages at once, in order, and at least one', () => {
    expect(asks(startRead(1000), 50)).toEqual([1]);
    const r = readUpTo(records(1000), 1); // 10 pages of 100
    expect(asks(r, 3)).toEqual([2, 3, 4]);
    expect(asks(r, 1)).toEqual([2]);
    expect(asks(r, 0)).toEqual([2]);
    expect(asks(r, 50)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]); // 1,000 is a multiple of 100: page 11 confirms the end
  });

  test('a page that waits is asked for at its time, not before; one that failed, in the next step', () => {
    const r = readUpTo(records(300), 1);
    const limited = new ServiceError('RATE_LIMITED', 'Rate limited.', { retryAfterMs: 30_000 });
    expect(takeRefusal(r, 2, limited, 1000)).toBeUndefined();
    expect(takeRefusal(r, 3, new ServiceError('SERVER', 'Server error.'), 1000)).toBeUndefined();
    expect(plan(r, 1000, 5)).toEqual({ ask: [4] });
    takePage(r, 4, factsOf(servedPage(records(300), 4, r.limit)));
    expect(plan(r, 1000, 5)).toEqual({ ask: [], wake: 31_000, page: 2 });
    expect(asks(r, 5, 31_000)).toEqual([2]);
    newStep(r);
    expect(asks(r, 5, 31_000)).toEqual([2, 3]);
  });

  test('a page ahead of its turn is kept in its slot: the pages before it are still asked for, and it is not asked again', () => {
    const items = records(300);
    const r = readUpTo(items, 1);
    expect(takePage(r, 3, factsOf(servedPage(items, 3, r.limit)))).toBe(true);
    expect(asks(r, 5)).toEqual([2, 4]);
    takePage(r, 2, factsOf(servedPage(items, 2, r.limit)));
    takePage(r, 4, factsOf(servedPage(items, 4, r.limit)));
    expect(verdict(r, 300)).toEqual({ complete: true });
  });
});

describe('a list that changes under the read', () => {
  test('a page whose total is not the one page 1 reported ends the read at once, to be done again', () => {
    for (const [total, grown] of [
      [1000, 1001],
      [1000, 999],
      [250, 251],
    ]) {
      const r = readUpTo(records(total), 2);
      takePage(r, 3, factsOf(servedPage(records(grown), 3, r.limit)));
      expect(r.over).toBe('changed');
      expect(asks(r, 50)).toEqual([]);
      expect(verdict(r, 200)).toEqual({ complete: false, reason: 'the list changed while it was read', changed: true });
    }
  });

  test('a list that shrinks under the read, served by a server that repeats its last page past the end, changed: it is no repeat', () => {
    const r = readUpTo(records(300), 2);
    // Page 3 asked after the list shrank to 200: the server answers with its last page, page 2, again.
    takePage(r, 3, factsOf(servedPage(records(200), 2, r.limit)));
    expect(verdict(r, 200)).toEqual({ complete: false, reason: 'the list changed while it was read', changed: true });
  });
});

describe('a refused page', () => {
  test('a refusal of a page inside the list is never the end: the list shrank, and is read again', () => {
    for (const total of [250, 300]) {
      for (const page of [2, 3]) {
        const r = readUpTo(records(total), 1);
        expect(takeRefusal(r, page, notFound(), 0)).toBeUndefined();
        expect(r.over).toBe('changed');
        expect(verdict(r, 100)).toMatchObject({ complete: false, changed: true });
      }
    }
    const r = readUpTo(records(300), 2);
    takeRefusal(r, 3, notFound(), 0);
    expect(verdict(r, 200)).toEqual({
      complete: false,
      reason: 'page 3 of 3 was gone by the time it was asked for (the list shrank while it was read)',
      changed: true,
    });
  });

  test('the page after the last, refused before the pages ahead of it are in, ends the list once they are', () => {
    const r = readUpTo(records(300), 1);
    takeRefusal(r, 4, notFound(), 0);
    expect(r.over).toBeUndefined();
    expect(asks(r, 5)).toEqual([2, 3]);
    takePage(r, 2, factsOf(servedPage(records(300), 2, r.limit)));
    takePage(r, 3, factsOf(servedPage(records(300), 3, r.limit)));
    expect(verdict(r, 300)).toEqual({ complete: true });
  });

  test('the page after the last refused as not found or as a bad request ends the read exactly as an empty page does', () => {
    const items = records(300);
    const empty = readUpTo(items, 3);
    takePage(empty, 4, factsOf(servedPage(items, 4, empty.limit)));
    expect(empty.over).toBe('done');
    for (const error of [notFound(), badRequest()]) {
      const refused = readUpTo(items, 3);
      expect(takeRefusal(refused, 4, error, 0)).toBeUndefined();
      expect(refused).toEqual(empty);
    }
  });

  test("any other failure of the page after the last ends nothing; a final one is the read's error", () => {
    for (const code of ['SERVER', 'AUTH', 'RATE_LIMITED', 'MALFORMED'] as const) {
      const r = readUpTo(records(300), 3);
      const error = new ServiceError(code, 'failed');
      expect(takeRefusal(r, 4, error, 0)).toBe(error.transient ? undefined : error);
      expect(r.over).toBeUndefined();
      newStep(r);
      expect(asks(r, 5)).toEqual([4]);
    }
  });

  test('a page already taken in, refused afterwards, changes nothing: the read goes on and completes', () => {
    const items = records(300);
    const r = readUpTo(items, 2);
    const before = structuredClone(r);
    for (const [page, error] of [
      [1, notFound()],
      [2, badRequest()],
    ] as const) {
      expect(takeRefusal(r, page, error, 0)).toBeUndefined();
      expect(r).toEqual(before);
    }
    expect(asks(r, 5)).toEqual([3, 4]);
    takePage(r, 3, factsOf(servedPage(items, 3, r.limit)));
    takePage(r, 4, factsOf(servedPage(items, 4, r.limit)));
    expect(verdict(r, 300)).toEqual({ complete: true });
  });
});

describe('a page is known by its ids', () => {
  test('a page that brings back the first and last text ids of the page before is a repeat, even with other fields changed', () => {
    const items = records(250);
    const r = readUpTo(items, 1);
    takePage(r, 2, factsOf(renamed(servedPage(items, 1, r.limit))));
    expect(r.over).toBe('problem');
    expect(verdict(r, 100)).toEqual({ complete: false, reason: 'page 2 repeats page 1', changed: false });
  });

  test('a server that repeats its last page past the end, its records edited since, still ends the list', () => {
    for (const ids of ['text', 'numbers'] as const) {
      const items = records(300).map((r, i) => (ids === 'text' ? r : { ...r, id: i + 1 }));
      const r = readUpTo(items, 3);
      takePage(r, 4, factsOf(renamed(servedPage(items, 3, r.limit))));
      expect(verdict(r, 300)).toEqual({ complete: true });
    }
  });

  test('records alike in their first 120 characters of text are told apart by their ids', () => {
    for (const ids of ['text', 'numbers'] as const) {
      const items = Array.from({ length: 250 }, (_, i) => ({
        description: 'A long description every partner shares. '.repeat(4),
        id: ids === 'text' ? `p${i}` : i + 1,
      }));
      expect(verdict(readUpTo(items, 3), 250)).toEqual({ complete: true });
    }
  });
});

describe('a page is taken once, and only while the read goes on', () => {
  test('a page given again is not taken twice, nor taken for a repeat of the page before', () => {
    const items = records(300);
    const r = readUpTo(items, 2);
    const before = structuredClone(r);
    expect(takePage(r, 2, factsOf(servedPage(items, 2, r.limit)))).toBe(false);
    expect(r).toEqual(before);
    takePage(r, 3, factsOf(servedPage(items, 3, r.limit)));
    takePage(r, 4, factsOf(servedPage(items, 4, r.limit)));
    expect(verdict(r, 300)).toEqual({ complete: true });
  });

  test('a page given once the read is over changes nothing, whatever it holds', () => {
    const items = records(300);
    const ended = readUpTo(items, 4); // page 4, past the end, is empty: the list is complete
    const afterProblem = readUpTo(items, 1);
    takePage(afterProblem, 2, factsOf(servedPage(items, 1, afterProblem.limit))); // page 2 repeats page 1
    for (const r of [ended, afterProblem]) {
      expect(r.over).toBeDefined();
      const before = structuredClone(r);
      const more = servedPage(records(301), 3, r.limit); // another total, and items past the end
      takePage(r, r.next, factsOf(more));
      takePage(r, r.next, factsOf({ ...more, items: [] }));
      expect(r).toEqual(before);
    }
    expect(verdict(ended, 300)).toEqual({ complete: true });
  });
});

describe('the verdict, and what an import saves', () => {
  test('a read that has not reached the end of the list is not complete, and is not a list that moved', () => {
    for (const r of [startRead(100), readUpTo(records(300), 2)])
      expect(verdict(r, 200)).toEqual({
        complete: false,
        reason: 'the end of the list was not reached',
        changed: false,
      });
  });

  test('a read that holds every page it may ask for ahead of a missing one stays small enough for one document property', () => {
    const items = records(100_000); // 1,000 pages of 100
    const r = readUpTo(items, 1);
    // Page 2 never comes; every other page planned comes in.
    for (
      let ask = asks(r, 1000).filter((p) => p !== 2);
      ask.length;
      ask = asks(r, 1000).filter((p) => p !== 2 && !pageIn(r, p))
    )
      for (const p of ask) takePage(r, p, factsOf(servedPage(items, p, r.limit)));
    expect(r.slots).toBe(`.${'i'.repeat(MAX_AHEAD)}`);
    expect(asks(r, 1000)).toEqual([2]);
    // A property holds 9 KB, and the run keeps more than its read.
    expect(JSON.stringify(r).length).toBeLessThan(6000);
  });

  test('the record stays small whatever the records hold (long records without ids)', () => {
    const long = (i: number): ServiceRecord => ({ name: `Industry ${i} ${'x'.repeat(5000)}` });
    const items = Array.from({ length: 250 }, (_, i) => long(i));
    const r = startRead(1000);
    takePage(r, 1, factsOf(servedPage(items, 1, r.limit)));
    takePage(r, 3, factsOf(servedPage(items, 3, r.limit)));
    expect(r.over).toBeUndefined();
    expect(JSON.stringify(r).length).toBeLessThan(600);
  });
});
