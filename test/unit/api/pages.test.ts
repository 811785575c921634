import { ServiceError } from '../../../src/api/errors';
import { readList } from '../../../src/api/pages';
import { fakeList, records } from '../../helpers/fake-list';

const read = (list: ReturnType<typeof fakeList>, limit = 1000) => readList(list.fetch, { limit, batch: 20 });
const ids = (r: { records: Array<{ id?: unknown }> }) => r.records.map((x) => x.id);

describe('page reader: honest services', () => {
  test('every list size and page cap reads completely, at ceil(n / size) pages plus one only when the last page is full', () => {
    for (const cap of [1, 3, 10, 100]) {
      for (let n = 0; n <= 32; n++) {
        const list = fakeList(records(n), { cap });
        const r = read(list);
        expect(r.verdict).toEqual({ complete: true });
        expect(ids(r)).toEqual(records(n).map((x) => x.id));
        const pages = Math.ceil(n / cap);
        const probe = n > 0 && n % cap === 0 ? 1 : 0;
        expect(list.asked).toHaveLength(Math.max(1, pages + probe));
      }
    }
  });

  test('the page size is learnt from page 1 and sent from then on', () => {
    const list = fakeList(records(230), { cap: 100 });
    expect(read(list).verdict).toEqual({ complete: true });
    expect(list.asked).toEqual([
      { page: 1, limit: 1000 },
      { page: 2, limit: 100 },
      { page: 3, limit: 100 },
    ]);
  });

  test('a server that refuses (404) or repeats (clamps) the page past the end still ends the list', () => {
    for (const pastEnd of ['404', 'clamp'] as const) {
      const r = read(fakeList(records(300), { pastEnd }));
      expect(r.verdict).toEqual({ complete: true });
      expect(r.records).toHaveLength(300);
    }
  });
});

describe('page reader: services that lie', () => {
  test('(a) a page without pagination is a transient, malformed answer, thrown to the caller', () => {
    expect(() => read(fakeList(records(50), { dropPagination: true }))).toThrow(
      expect.objectContaining({ code: 'MALFORMED', transient: true }),
    );
  });

  test('(b) an under-reported total is caught by the page past the end, or by a page longer than the total allows', () => {
    const byProbe = read(fakeList(records(350), { reportTotal: () => 100 }));
    expect(byProbe.verdict).toEqual({
      complete: false,
      changed: false,
      reason: 'the service reports 100 items but page 2, past the end, holds 100 more',
    });
    const byLength = read(fakeList(records(350), { reportTotal: () => 105 }));
    expect(byLength.verdict).toMatchObject({
      complete: false,
      reason: 'page 2 holds 100 items where 5 were expected (the service reports 105 items, 100 a page)',
    });
  });

  test('(c) a repeated page is named', () => {
    const r = read(fakeList(records(300), { repeatPage: 2 }));
    expect(r.verdict).toMatchObject({ complete: false, reason: 'page 2 repeats page 1' });
  });

  test('(d) a false pageSize changes nothing: the observed size is used', () => {
    for (const reportedPageSize of [1, 50, 150, 1000]) {
      const list = fakeList(records(230), { reportedPageSize });
      const r = read(list);
      expect(r.verdict).toEqual({ complete: true });
      expect(ids(r)).toEqual(records(230).map((x) => x.id));
    }
  });

  test('(e) a claim of 400 pages for 10 items costs at most ceil(10 / size) + 2 fetches', () => {
    for (const cap of [3, 5, 10, 100]) {
      const list = fakeList(records(10), { cap, reportedTotalPages: 400 });
      expect(read(list, 100).verdict).toEqual({ complete: true });
      expect(list.asked.length).toBeLessThanOrEqual(Math.ceil(10 / cap) + 2);
    }
  });

  test('page 1 empty although a total is reported; more items on page 1 than the total', () => {
    expect(read(fakeList([], { reportTotal: () => 5 })).verdict).toMatchObject({
      complete: false,
      reason: 'page 1 is empty although the service reports 5 items',
    });
    expect(read(fakeList(records(8), { reportTotal: () => 5 })).verdict).toMatchObject({
      complete: false,
      reason: 'page 1 holds 8 items although the service reports 5 in all',
    });
  });
});

describe('page reader: a live list', () => {
  test('a total that moves during a read is read again; it settles on the second read', () => {
    const list = fakeList(records(250));
    let moved = false;
    list.fetch = ((inner) => (pages, limit) => {
      if (!moved && pages.includes(2)) {
        moved = true;
        list.items = list.items.slice(1);
      }
      return inner(pages, limit);
    })(list.fetch);
    const r = readList(list.fetch, { limit: 1000, batch: 20, passes: 2 });
    expect(r.verdict).toEqual({ complete: true });
    expect(ids(r)).toEqual(
      records(250)
        .slice(1)
        .map((x) => x.id),
    );
  });

  test('ids that come twice (the order moved between pages) make the read incomplete, never a list with a gap', () => {
    const list = fakeList(records(250), {
      before: (page, call) => {
        if (page === 2 && call < 3) list.items = [...list.items].reverse();
      },
    });
    const once = readList(list.fetch, { limit: 1000, batch: 1, passes: 1 });
    expect(once.verdict).toMatchObject({ complete: false, changed: true });
  });

  test('a failure of one page is thrown (the caller decides), and a long list is refused before it is read', () => {
    const failing = fakeList(records(300), {
      fail: (page) => (page === 2 ? new ServiceError('SERVER', 'down') : undefined),
    });
    expect(() => read(failing)).toThrow('down');
    const long = fakeList(records(300));
    const refuse = (n: number, pages: number) => (n > 200 ? `${n} items in ${pages} pages are too many.` : undefined);
    expect(() => readList(long.fetch, { limit: 100, batch: 20, refuse })).toThrow('300 items in 3 pages are too many.');
    expect(long.asked).toHaveLength(1);
  });
});

describe('page reader: a list keyed by id (the default)', () => {
  test('records without a usable id (empty, missing, blank, not text: 1 beside "1") are skipped, and the read is complete in one pass', () => {
    const items = records(250);
    items[10] = { id: '' };
    items[20] = { fullName: 'no id' };
    items[30] = { id: 1 };
    items[31] = { id: '1' };
    items[40] = { id: ' ' };
    const list = fakeList(items);
    const r = readList(list.fetch, { limit: 100, batch: 20, passes: 2 });
    expect(r.verdict).toEqual({ complete: true });
    expect(r.records).toHaveLength(246);
    expect(ids(r)).toContain('1');
    expect(ids(r)).not.toContain(1);
    expect(list.asked).toHaveLength(3);
  });

  test('a usable id that comes twice in one read may mean the list moved: not complete, to be read again', () => {
    const items = records(250);
    items[120] = { id: 'p5' };
    expect(readList(fakeList(items).fetch, { limit: 100, batch: 20, passes: 1 }).verdict).toMatchObject({
      complete: false,
      changed: true,
      repeated: 1,
    });
  });
});
