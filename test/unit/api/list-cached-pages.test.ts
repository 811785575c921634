/**
 * A whole list read through the client (what LP_ACTIVE does: every page read by the page reader,
 * the answer remembered as one whole by `Client.whole`) while a page of it is still fresh in the
 * cache from an earlier formula (LP_ACTIVE(1, 100) computed a few minutes before) and the
 * service's list has moved since: one partner left the list and another joined at its end. Pages
 * read at two moments must never make a list that is accepted as complete while it holds a
 * partner that left and lacks one that was listed both times. The whole list, once read, is
 * served again from the cache while fresh (no request), and when the service fails later its
 * last good copy comes back whole, marked stale.
 */
import { Client } from '../../../src/api/client';
import { Memo } from '../../../src/api/memo';
import { OPERATIONS } from '../../../src/api/operations';
import { incompleteError, type ListRead, readList } from '../../../src/api/pages';
import type { ServiceRecord } from '../../../src/api/records';
import { FakeClock, FakeTransport, type Handler, json, LimitedStore, nodeCodec, pageAnswer } from '../../helpers/fakes';

const KEY = 'sk_live_PAGES_7d8e9f';
const BASE = 'https://data.example.com';
const [PATH] = OPERATIONS.getAllActiveLimitedPartners.paths;

const partner = (n: number): ServiceRecord => ({ id: `lp${n}`, fullName: `Partner ${n}` });

/** A live list served by page (at most 100 a page). */
function service(list: ServiceRecord[]): Handler {
  return (url) => {
    if (url.pathname !== PATH) return json(404, { message: 'no such path' });
    return pageAnswer(list, url);
  };
}

function execution(clock: FakeClock, store: LimitedStore, handler: Handler) {
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: KEY,
    baseUrl: BASE,
    ttlMs: 3_600_000,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  const transport = new FakeTransport(handler);
  const client = new Client({ baseUrl: BASE, apiKey: KEY, transport, clock, memo, random: () => 0.5 });
  return { client, transport };
}

/** One page of the list, as LP_ACTIVE(page, limit) reads it. */
function onePage(client: Client, page: number, limit: number) {
  return client.whole(OPERATIONS.getAllActiveLimitedPartners.name, { page, limit }, () => {
    const [o] = client.activePartnerPages([page], limit);
    if (!o.ok) throw o.error;
    return o.value.items;
  });
}

/** Every page of the list, as LP_ACTIVE(, limit) reads it: the verdict decides, never a short list. */
function everyPage(client: Client, limit: number) {
  return client.whole(OPERATIONS.getAllActiveLimitedPartners.name, { page: 'all', limit }, (): ListRead => {
    const read = readList((pages, size) => client.activePartnerPages(pages, size), { limit, batch: 100, passes: 2 });
    if (!read.verdict.complete) throw incompleteError('list of active partners', read.verdict);
    return read;
  });
}

const ids = (records: readonly ServiceRecord[]) => records.map((r) => r.id);

describe('a whole list read while one of its pages is cached from before the list moved', () => {
  test('is the list as it is now, never a mix of the cached page and the moved list', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const list = Array.from({ length: 250 }, (_, i) => partner(i));
    // 9:00 — a formula shows page 1 alone.
    expect(onePage(execution(clock, store, service(list)).client, 1, 100).ok).toBe(true);
    // Partner 50 leaves the list; partner 250 joins it at the end.
    list.splice(50, 1);
    list.push(partner(250));
    clock.t += 10 * 60_000;
    // 9:10 — a formula lists every page.
    const read = everyPage(execution(clock, store, service(list)).client, 100);
    // The list as it is now (partner 100, listed at 9:00 and at 9:10, included).
    expect(read.ok && ids(read.value.records)).toEqual(ids(list));
  });

  test('is served again whole while fresh, without a request; past that, a failing service gives its last good copy, marked stale', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const list = Array.from({ length: 250 }, (_, i) => partner(i));
    const first = everyPage(execution(clock, store, service(list)).client, 100);
    const readAt = clock.now();
    const then = ids(list);
    // The list moves; page 1 alone is shown by another formula, then the service fails.
    list.splice(50, 1);
    list.push(partner(250));
    clock.t += 10 * 60_000;
    expect(onePage(execution(clock, store, service(list)).client, 1, 100).ok).toBe(true);
    const recalc = execution(clock, store, () => json(503, { message: 'down' }));
    const again = everyPage(recalc.client, 100);
    expect(again).toEqual(first);
    expect(recalc.transport.requests).toHaveLength(0);
    // Past the freshness lifetime the list is asked again; the failing service leaves the whole last good copy.
    clock.t += 3_600_000;
    const late = execution(clock, store, () => json(503, { message: 'down' }));
    const stale = everyPage(late.client, 100);
    expect(late.transport.requests.length).toBeGreaterThan(0);
    expect(stale.ok && ids(stale.value.records)).toEqual(then);
    expect(stale.ok && stale.staleSince).toBe(readAt);
  });
});
