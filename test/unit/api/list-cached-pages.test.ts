/**
 * A whole list read through the client's cached pages (what LP_ACTIVE does with `cache: true`)
 * while one of its pages is still fresh in the cache from an earlier formula (LP_ACTIVE(1, 100)
 * computed a few minutes before) and the service's list has moved since: one partner left the list
 * and another joined at its end. Pages read at two moments must never make a list that is
 * accepted as complete while it holds a partner that left and lacks one that was listed both times.
 */
import { Client } from '../../../src/api/client';
import { Memo } from '../../../src/api/memo';
import { OPERATIONS } from '../../../src/api/operations';
import { readList } from '../../../src/api/pages';
import type { ServiceRecord } from '../../../src/api/records';
import { FakeClock, FakeTransport, type Handler, json, LimitedStore, nodeCodec } from '../../helpers/fakes';

const KEY = 'sk_live_PAGES_7d8e9f';
const BASE = 'https://data.example.com';
const [PATH] = OPERATIONS.getAllActiveLimitedPartners.paths;

const partner = (n: number): ServiceRecord => ({ id: `lp${n}`, fullName: `Partner ${n}` });

/** A live list served by page (at most 100 a page). */
function service(list: ServiceRecord[]): Handler {
  return (url) => {
    if (url.pathname !== PATH) return json(404, { message: 'no such path' });
    const page = Number(url.searchParams.get('page') ?? 1);
    const size = Math.min(100, Number(url.searchParams.get('limit') ?? 10));
    const data = list.slice((page - 1) * size, page * size);
    const pagination = {
      totalItems: list.length,
      totalPages: Math.ceil(list.length / size),
      currentPage: page,
      pageSize: size,
    };
    return json(200, { data, pagination });
  };
}

function execution(clock: FakeClock, store: LimitedStore, list: ServiceRecord[]) {
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: KEY,
    baseUrl: BASE,
    ttlMs: 3_600_000,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  const transport = new FakeTransport(service(list));
  return new Client({ baseUrl: BASE, apiKey: KEY, transport, clock, memo, random: () => 0.5 });
}

describe('a whole list read while one of its pages is cached from before the list moved', () => {
  test('is either the list as it is now or refused, never a mix accepted as complete', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const list = Array.from({ length: 250 }, (_, i) => partner(i));
    // 9:00 — a formula shows page 1 alone.
    execution(clock, store, list).activePartnerPages([1], 100, { cache: true });
    // Partner 50 leaves the list; partner 250 joins it at the end.
    list.splice(50, 1);
    list.push(partner(250));
    clock.t += 10 * 60_000;
    // 9:10 — a formula lists every page, through the same cached pages.
    const client = execution(clock, store, list);
    const read = readList((pages, limit) => client.activePartnerPages(pages, limit, { cache: true }), {
      limit: 100,
      batch: 100,
      passes: 2,
    });
    const now = list.map((r) => r.id);
    // Complete means the list as it is now (partner 100, listed at 9:00 and at 9:10, included); else refused.
    const shown = read.verdict.complete ? read.records.map((r) => r.id) : now;
    expect(shown).toEqual(now);
  });
});
