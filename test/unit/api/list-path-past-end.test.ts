/**
 * The active-partners list is listed under two paths; the client falls back to the second when
 * the first answers 404. A service that refuses the page after the last with a 404 (which the page
 * reader accepts as the end of the list) must not make the client give up a path that works: the
 * next read of the list, in this execution or the next one sharing the cache, must still succeed.
 */
import { Client } from '../../../src/api/client';
import { Memo } from '../../../src/api/memo';
import { readList } from '../../../src/api/pages';
import { OPERATIONS } from '../../../src/api/operations';
import { FakeClock, FakeTransport, type Handler, json, LimitedStore, nodeCodec } from '../../helpers/fakes';

const KEY = 'sk_live_PATHS_4a5b6c';
const BASE = 'https://data.example.com';
const [SERVED] = OPERATIONS.getAllActiveLimitedPartners.paths;
const TOTAL = 200;
const CAP = 100;

/** Serves the first listed path only, pages of at most CAP, and a 404 for a page past the end. */
const service: Handler = (url) => {
  if (url.pathname !== SERVED) return json(404, { message: `Cannot GET ${url.pathname}` });
  const page = Number(url.searchParams.get('page') ?? 1);
  const size = Math.min(CAP, Number(url.searchParams.get('limit') ?? 10));
  const start = (page - 1) * size;
  if (start >= TOTAL) return json(404, { message: `No page ${page}` });
  const data = Array.from({ length: Math.min(size, TOTAL - start) }, (_, i) => ({
    id: `lp${start + i}`,
    fullName: `Partner ${start + i}`,
  }));
  return json(200, {
    data,
    pagination: { totalItems: TOTAL, totalPages: Math.ceil(TOTAL / size), currentPage: page, pageSize: size },
  });
};

function execution(clock: FakeClock, store: LimitedStore) {
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: KEY,
    baseUrl: BASE,
    ttlMs: 60_000,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  const transport = new FakeTransport(service);
  const client = new Client({ baseUrl: BASE, apiKey: KEY, transport, clock, memo, random: () => 0.5 });
  const read = () => readList((pages, limit) => client.activePartnerPages(pages, limit), { limit: 1000, batch: 20 });
  return { read, transport };
}

describe('a 404 for the page past the end of the list', () => {
  test('ends the read, and the list is still read from the path that served it afterwards', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const first = execution(clock, store);
    expect(first.read().verdict).toEqual({ complete: true });
    // The same execution reads the list again, then the next execution (same cache) does.
    expect(first.read().verdict).toEqual({ complete: true });
    clock.t += 1000;
    const next = execution(clock, store);
    expect(next.read().verdict).toEqual({ complete: true });
    expect(next.transport.requests.every((r) => new URL(r.url).pathname === SERVED)).toBe(true);
  });
});
