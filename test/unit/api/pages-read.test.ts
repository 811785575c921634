/**
 * Reading a whole list with `readList` (src/api/pages.ts), beyond the honest and lying services
 * of pages.test.ts: a list not keyed by id (a fund's industries) taken as it comes, a page as
 * long as the limit asked for, refusals inside and after the list, a list that shrinks under a
 * read, records without a usable id at the edges of pages, the cap on a list's length, the reasons a read is not complete, and the error an analyst
 * reads for it.
 */
import type { Outcome } from '../../../src/api/client';
import { ServiceError } from '../../../src/api/errors';
import { incompleteError, type PageFetcher, readList } from '../../../src/api/pages';
import type { Page, ServiceRecord } from '../../../src/api/records';
import { fakeList, records } from '../../helpers/fake-list';

const industries = (n: number): ServiceRecord[] => Array.from({ length: n }, (_, i) => ({ name: `Industry ${i}` }));

/** `fetch` with each outcome passed through `change` (page number, outcome). */
const through =
  (
    fetch: PageFetcher,
    change: (page: number, o: Outcome<Page<ServiceRecord>>) => Outcome<Page<ServiceRecord>>,
  ): PageFetcher =>
  (pages, limit) =>
    fetch(pages, limit).map((o, k) => change(pages[k], o));

describe('reading a list not keyed by id', () => {
  test('records without ids, pages of the same length: every page is taken, none is a repeat', () => {
    const list = fakeList(industries(250));
    const r = readList(list.fetch, { limit: 1000, batch: 20, keyed: false });
    expect(r.verdict).toEqual({ complete: true });
    expect(r.records).toEqual(industries(250));
    // Read once: a list without ids has no repeats to count, so nothing sends it to a second read.
    expect(list.asked.map((a) => a.page)).toEqual([1, 2, 3]);
  });

  test('a server that repeats its last page past the end adds nothing to the list', () => {
    for (const n of [100, 300]) {
      const list = fakeList(industries(n), { pastEnd: 'clamp' });
      const r = readList(list.fetch, { limit: 1000, batch: 20, keyed: false });
      expect(r.verdict).toEqual({ complete: true });
      expect(r.records).toEqual(industries(n));
    }
  });

  test('a page that brings back the first and last numeric ids of the page before is a repeat, even with other fields changed', () => {
    const items = Array.from({ length: 250 }, (_, i) => ({ id: i + 1, name: `Industry ${i}` }));
    const list = fakeList(items);
    const fetch = through(list.fetch, (page, o) => {
      if (page !== 2 || !o.ok) return o;
      const again = items.slice(0, 100).map((r) => ({ ...r, name: `${r.name} (renamed)` }));
      return { ...o, value: { ...o.value, items: again } };
    });
    const r = readList(fetch, { limit: 1000, batch: 20, keyed: false });
    expect(r.verdict).toEqual({ complete: false, reason: 'page 2 repeats page 1', changed: false });
  });
});

describe('when the whole list seems to fit on page 1', () => {
  test('a page 1 as long as the limit asked for is checked against page 2, whatever pageSize the service reports', () => {
    const list = fakeList(records(25), { reportTotal: () => 10, reportedPageSize: 100 });
    const r = readList(list.fetch, { limit: 10, batch: 20 });
    expect(r.verdict).toEqual({
      complete: false,
      reason: 'the service reports 10 items but page 2, past the end, holds 10 more',
      changed: false,
    });
    expect(list.asked.map((a) => a.page)).toEqual([1, 2]);
  });
});

describe('refusals', () => {
  test('a page inside the list refused as not found is never the end of the list: the read is done again, and fails naming it', () => {
    for (const total of [250, 300]) {
      const list = fakeList(records(total), {
        fail: (page) => (page === 2 ? new ServiceError('NOT_FOUND', 'Not found (HTTP 404).') : undefined),
      });
      expect(readList(list.fetch, { limit: 1000, batch: 20 }).verdict).toEqual({
        complete: false,
        reason: `page 2 of ${Math.ceil(total / 100)} was gone by the time it was asked for (the list shrank while it was read)`,
        changed: true,
      });
      expect(list.asked.map((a) => a.page).filter((p) => p === 1)).toEqual([1, 1]);
    }
  });

  test('a list that shrank under the read, its last page gone (404), is read again whole', () => {
    const list = fakeList(records(300), {
      pastEnd: '404',
      // A hundred partners leave after page 1 is read: page 3 no longer exists.
      before: (_page, call) => {
        if (call === 1) list.items.splice(0, 100);
      },
    });
    const read = readList(list.fetch, { limit: 1000, batch: 20 });
    expect(read.verdict).toEqual({ complete: true });
    expect(read.records.map((r) => r.id)).toEqual(
      records(300)
        .slice(100)
        .map((r) => r.id),
    );
  });

  test('the page after the last refused as a bad request (400) ends the list', () => {
    const list = fakeList(records(300), {
      fail: (page) => (page === 4 ? new ServiceError('BAD_INPUT', 'Bad request (HTTP 400).') : undefined),
    });
    const r = readList(list.fetch, { limit: 1000, batch: 20 });
    expect(r.verdict).toEqual({ complete: true });
    expect(r.records).toHaveLength(300);
  });

  test('once a page shows the list cannot be trusted, the refusal of a later page of the batch is not what the reader reports', () => {
    const list = fakeList(records(300), { repeatPage: 2, pastEnd: '404' });
    const r = readList(list.fetch, { limit: 1000, batch: 20 });
    expect(r.verdict).toEqual({ complete: false, reason: 'page 2 repeats page 1', changed: false });
  });
});

describe('a list that moves under the read', () => {
  test('a list that shrinks after page 1, leaving the later pages empty, is read again and settles', () => {
    const list = fakeList(records(300), {
      before: (page, call) => {
        if (page === 2 && call === 1) list.items = list.items.slice(0, 100);
      },
    });
    const r = readList(list.fetch, { limit: 1000, batch: 20, passes: 2 });
    expect(r.verdict).toEqual({ complete: true });
    expect(r.records).toEqual(records(100));
  });

  test('ids the list holds twice, alike in two reads, are the list: complete, each id once', () => {
    for (const twice of [1, 2]) {
      const items = records(250);
      for (let k = 0; k < twice; k++) items[120 + k] = { id: `p${5 + k}` };
      const r = readList(fakeList(items).fetch, { limit: 100, batch: 20 });
      expect(r.verdict).toEqual({ complete: true });
      expect(r.records.map((x) => x.id)).toEqual([...new Set(items.map((x) => x.id))]);
    }
  });

  test('ids that come twice because the list moved between pages, unlike in the next read, are counted in the reason', () => {
    for (const twice of [1, 2]) {
      const all = records(250);
      const list = fakeList(all, {
        // When page 2 is read, the last `shift` partners of page 1 have moved after it (as a live list's order can):
        // page 2 brings them again and the rest shifts, one more each read.
        before: (page, call) => {
          const shift = twice + (call === 1 ? 0 : 1);
          if (page === 2) list.items = [...all.slice(0, 100), ...all.slice(100 - shift, 250 - shift)];
          if (page === 1) list.items = all;
        },
      });
      const r = readList(list.fetch, { limit: 100, batch: 20 });
      expect(r.verdict).toEqual({
        complete: false,
        reason: `${twice + 1} items came twice, so others were missed`,
        changed: true,
        repeated: twice + 1,
      });
    }
  });
});

describe('the cap on a list', () => {
  test('a list of exactly the most items allowed, or fewer, is read whole', () => {
    for (const maxItems of [300, 301, 10_000]) {
      const list = fakeList(records(300));
      const r = readList(list.fetch, { limit: 100, batch: 20, refuse: (n) => (n > maxItems ? 'too many' : undefined) });
      expect(r.verdict).toEqual({ complete: true });
      expect(r.records).toHaveLength(300);
    }
  });

  test('a longer list is refused as a bad request, with the reason given by the caller', () => {
    const list = fakeList(records(300));
    const o = { limit: 100, batch: 20, refuse: (n: number) => (n > 299 ? `${n} is too many.` : undefined) };
    expect(() => readList(list.fetch, o)).toThrow(
      expect.objectContaining({ code: 'BAD_INPUT', message: '300 is too many.' }),
    );
  });

  test('a list of few items in too many pages (a small limit) is refused by its pages, after page 1 alone', () => {
    const list = fakeList(records(300));
    const refuse = (_: number, pages: number) => (pages > 30 ? `${pages} pages are too many.` : undefined);
    expect(() => readList(list.fetch, { limit: 5, batch: 20, refuse })).toThrow('60 pages are too many.');
    expect(list.asked).toEqual([{ page: 1, limit: 5 }]);
    expect(readList(list.fetch, { limit: 10, batch: 20, refuse }).records).toHaveLength(300);
  });
});

describe('the error for a list that could not be read completely', () => {
  test('names the list and the reason, and says nothing is shown; the service is not to be trusted for now', () => {
    const r = readList(fakeList(records(300), { repeatPage: 2 }).fetch, { limit: 1000, batch: 20 });
    const e = incompleteError('list of active partners', r.verdict);
    expect(e).toBeInstanceOf(ServiceError);
    expect(e.code).toBe('BAD_RESPONSE');
    expect(e.message).toBe(
      'The data service sent an inconsistent list of active partners (page 2 repeats page 1); nothing is shown rather than a partial list. Try again later.',
    );
  });

  test('a complete verdict gives no reason', () => {
    expect(incompleteError('list', { complete: true }).message).toBe(
      incompleteError('list', { complete: false, reason: '', changed: false }).message,
    );
  });
});

describe('records without a usable id at the edges of pages', () => {
  /**
   * readList (LP_ACTIVE, LP_FIND's list, a filled-down column's read) skips and counts records
   * without a usable id (missing, null, blank or spaces): two pages in a row whose first and last
   * records have none are not taken for a repeat of each other (the cursor's page signature knows
   * such a record by its fields, src/api/pages.ts).
   */
  const list = (missing: unknown): ServiceRecord[] =>
    records(400).map((r, i) => ([100, 199, 200, 299].includes(i) ? { ...r, id: missing } : r) as ServiceRecord);

  test.each([[undefined], [null], [''], ['  ']])(
    'records whose id is %p at the edges of pages 2 and 3: the list reads complete, those 4 skipped',
    (missing) => {
      const read = readList(fakeList(list(missing)).fetch, { limit: 1000, batch: 20, passes: 2 });
      expect(read.verdict).toEqual({ complete: true });
      expect(read.records).toHaveLength(396);
    },
  );
});
