/**
 * Every active partner for LP_FIND (`PartnerLookup.activeRecords`, src/api/partners.ts): the fresh
 * snapshot without a request; else the list read now; else, when the read failed in a way the last
 * good copy may stand in for (or another execution is reading it and time ran out), the stale
 * snapshot marked with when it was read; else an error: the read's own, "too many" when the list
 * is longer than a formula may read, or "try again" when nothing is known.
 */
import { MAX_FILL_PAGES } from '../../../src/api/partners';
import { lookupWorld, TTL_MS } from '../../helpers/partner-lookup';

const ids = (r: { records: Array<{ id?: unknown }> }) => r.records.map((x) => x.id);

test('a fresh snapshot gives every partner in list order, without a request', () => {
  const w = lookupWorld();
  w.readRange();
  const from = w.mark();
  const out = w.execution('mine').activeRecords();
  expect(ids(out)).toEqual(w.ids);
  expect(out.staleSince).toBeUndefined();
  expect(w.mark()).toBe(from);
});

test('without a snapshot the list is read now, in list order', () => {
  const w = lookupWorld();
  const out = w.execution('mine').activeRecords();
  expect(ids(out)).toEqual(w.ids);
  expect(out.staleSince).toBeUndefined();
  expect(w.listRequests()).toBe(4);
});

test(`a list of more than ${MAX_FILL_PAGES} pages is refused, pointing to the import`, () => {
  const w = lookupWorld({ total: MAX_FILL_PAGES * 100 + 1, pageCap: 100 });
  expect(() => w.execution('mine').activeRecords()).toThrow(
    expect.objectContaining({
      code: 'BAD_INPUT',
      message: expect.stringMatching(/^30001 active partners are too many to read in a formula; run .*Import/),
    }),
  );
  expect(w.listRequests()).toBe(1);
});

test('a refused key is reported as such, with or without a stale snapshot', () => {
  let status = 401;
  const failing = lookupWorld({ listStatus: () => status });
  expect(() => failing.execution('mine').activeRecords()).toThrow(expect.objectContaining({ code: 'AUTH' }));
  status = 200;
  expect(ids(failing.execution('reader').activeRecords())).toEqual(failing.ids);
  failing.clock.t += TTL_MS;
  status = 401;
  expect(() => failing.execution('later').activeRecords()).toThrow(expect.objectContaining({ code: 'AUTH' }));
});

test('when the service fails, the stale snapshot stands in, marked with when it was read', () => {
  let status = 200;
  const w = lookupWorld({ listStatus: () => status });
  const readAt = w.clock.now();
  expect(ids(w.execution('reader').activeRecords())).toEqual(w.ids);
  w.clock.t += TTL_MS;
  status = 500;
  const out = w.execution('later').activeRecords();
  expect(ids(out)).toEqual(w.ids);
  expect(out.staleSince).toBe(readAt);
});

test('no snapshot, the service failing: the failure is reported', () => {
  const w = lookupWorld({ listStatus: () => 500 });
  expect(() => w.execution('mine').activeRecords()).toThrow(expect.objectContaining({ code: 'SERVER' }));
});

describe('another execution is reading the list and this one has no time to wait', () => {
  const short = 9_000;

  test('with no snapshot left, it says to try again', () => {
    const w = lookupWorld();
    expect(w.execution('reader').activeRecords().records).toHaveLength(300);
    w.evictSnapshot();
    w.claimList();
    const from = w.mark();
    expect(() => w.execution('mine', short).activeRecords()).toThrow(
      expect.objectContaining({ code: 'SERVER', message: expect.stringMatching(/try again in a minute/) }),
    );
    expect(w.mark()).toBe(from);
  });

  test(`a list of exactly ${MAX_FILL_PAGES} pages is not "too many": it says to try again`, () => {
    const w = lookupWorld({ total: MAX_FILL_PAGES, pageCap: 1 });
    expect(w.execution('reader').activeRecords().records).toHaveLength(MAX_FILL_PAGES);
    w.evictSnapshot();
    w.claimList();
    expect(() => w.execution('mine', short).activeRecords()).toThrow(
      expect.objectContaining({ code: 'SERVER', message: expect.stringMatching(/try again/) }),
    );
  });

  test('with a stale snapshot, the stale snapshot stands in', () => {
    const w = lookupWorld();
    const readAt = w.clock.now();
    expect(w.execution('reader').activeRecords().records).toHaveLength(300);
    w.clock.t += TTL_MS;
    w.claimList();
    const out = w.execution('mine', short).activeRecords();
    expect(ids(out)).toEqual(w.ids);
    expect(out.staleSince).toBe(readAt);
  });
});
