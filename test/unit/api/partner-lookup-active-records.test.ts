/**
 * Every active partner for LP_FIND (`PartnerLookup.activeRecords`, src/api/partners.ts): the fresh
 * snapshot without a request; else the list read now; else, when the read failed in a way the last
 * good copy may stand in for (or another execution is reading it and time ran out), the stale
 * snapshot marked with when it was read; else an error: the read's own, "too many" when the list
 * is longer than a formula may read, or "try again" when nothing is known.
 */
import { MAX_FILL_PAGES } from '../../../src/api/lookup-cache';
import { json } from '../../helpers/fakes';
import { partnerWorld, TTL_MS } from '../../helpers/partner-world';

const ids = (r: { records: Array<{ id?: unknown }> }) => r.records.map((x) => x.id);
/** The service answers every page of the list with this status. */
const failing = (status: number) => () => json(status, { message: 'failed' });

test('a fresh snapshot gives every partner in list order, without a request', () => {
  const w = partnerWorld();
  w.readRange();
  const after = w.log();
  const out = w.execution('mine').activeRecords();
  expect(ids(out)).toEqual(w.ids);
  expect(out.staleSince).toBeUndefined();
  expect(after.count()).toBe(0);
});

test('without a snapshot the list is read now, in list order', () => {
  const w = partnerWorld();
  const out = w.execution('mine').activeRecords();
  expect(ids(out)).toEqual(w.ids);
  expect(out.staleSince).toBeUndefined();
  expect(w.listRequests()).toBe(4);
});

test(`a list of more than ${MAX_FILL_PAGES} pages is refused, pointing to the import`, () => {
  const w = partnerWorld({ total: MAX_FILL_PAGES * 100 + 1, pageCap: 100 });
  expect(() => w.execution('mine').activeRecords()).toThrow(
    expect.objectContaining({
      code: 'BAD_INPUT',
      message: expect.stringMatching(/^30,001 active partners are too many to read in a formula; run .*Import/),
    }),
  );
  expect(w.listRequests()).toBe(1);
});

test('a refused key is reported as such, with or without a stale snapshot', () => {
  const w = partnerWorld();
  w.hooks.onList = failing(401);
  expect(() => w.execution('mine').activeRecords()).toThrow(expect.objectContaining({ code: 'AUTH' }));
  w.hooks.onList = undefined;
  expect(ids(w.execution('reader').activeRecords())).toEqual(w.ids);
  w.clock.t += TTL_MS;
  w.hooks.onList = failing(401);
  expect(() => w.execution('later').activeRecords()).toThrow(expect.objectContaining({ code: 'AUTH' }));
});

test('when the service fails, the stale snapshot stands in, marked with when it was read', () => {
  const w = partnerWorld();
  const readAt = w.clock.now();
  expect(ids(w.execution('reader').activeRecords())).toEqual(w.ids);
  w.clock.t += TTL_MS;
  w.hooks.onList = failing(500);
  const out = w.execution('later').activeRecords();
  expect(ids(out)).toEqual(w.ids);
  expect(out.staleSince).toBe(readAt);
});

test('no snapshot, the service failing: the failure is reported', () => {
  const w = partnerWorld();
  w.hooks.onList = failing(500);
  expect(() => w.execution('mine').activeRecords()).toThrow(expect.objectContaining({ code: 'SERVER' }));
});

describe('another execution is reading the list and this one has no time to wait', () => {
  const short = 9_000;

  test('with no snapshot left, it says to try again', () => {
    const w = partnerWorld();
    expect(w.execution('reader').activeRecords().records).toHaveLength(300);
    w.evictSnapshot();
    w.claim('theirs');
    const after = w.log();
    expect(() => w.execution('mine', short).activeRecords()).toThrow(
      expect.objectContaining({ code: 'SERVER', message: expect.stringMatching(/try again in a minute/) }),
    );
    expect(after.count()).toBe(0);
  });

  test(`a list of exactly ${MAX_FILL_PAGES} pages is not "too many": it says to try again`, () => {
    const w = partnerWorld({ total: MAX_FILL_PAGES, pageCap: 1 });
    expect(w.execution('reader').activeRecords().records).toHaveLength(MAX_FILL_PAGES);
    w.evictSnapshot();
    w.claim('theirs');
    expect(() => w.execution('mine', short).activeRecords()).toThrow(
      expect.objectContaining({ code: 'SERVER', message: expect.stringMatching(/try again/) }),
    );
  });

  test('with a stale snapshot, the stale snapshot stands in', () => {
    const w = partnerWorld();
    const readAt = w.clock.now();
    expect(w.execution('reader').activeRecords().records).toHaveLength(300);
    w.clock.t += TTL_MS;
    w.claim('theirs');
    const out = w.execution('mine', short).activeRecords();
    expect(ids(out)).toEqual(w.ids);
    expect(out.staleSince).toBe(readAt);
  });
});

describe('the whole list’s formula never reads the run’s buckets (they hold the answers of cells, not the list)', () => {
  /** The store's reads from now on; `bucketReads` those that read a run's bucket. */
  const storeReads = (w: ReturnType<typeof partnerWorld>) => {
    const reads: string[][] = [];
    const getAll = w.store.getAll.bind(w.store);
    w.store.getAll = (keys) => {
      reads.push(keys);
      return getAll(keys);
    };
    return { reads, bucketReads: () => reads.filter((keys) => keys.some((k) => k.includes(':copy:'))) };
  };

  test('when its own read of the list fails', () => {
    const w = partnerWorld({ total: 1000 });
    w.hooks.onList = (page) => (page === 2 ? json(400, { message: 'bad' }) : undefined);
    const { bucketReads } = storeReads(w);
    expect(() => w.execution('reader').activeRecords()).toThrow();
    expect(bucketReads()).toEqual([]);
  });

  test('while it waits for another execution’s read', () => {
    const w = partnerWorld({ total: 1000 });
    w.readRange(w.ids.slice(0, 50), 'first');
    w.evictSnapshot();
    w.claim('theirs');
    const { reads, bucketReads } = storeReads(w);
    // At its second look the other execution has read the list and published it (its own reads are not this formula's).
    w.hooks.onSleep = (polls) => {
      if (polls !== 2) return;
      const mine = reads.length;
      w.readRange(w.ids.slice(500, 550), 'theirs');
      reads.length = mine;
    };
    expect(w.execution('mine').activeRecords().records).toHaveLength(1000);
    expect(w.clock.sleeps.length).toBeGreaterThanOrEqual(2);
    expect(bucketReads()).toEqual([]);
  });
});
