import { Client, type ClientOptions } from '../../../src/api/client';
import { ServiceError, unsent } from '../../../src/api/errors';
import { Memo } from '../../../src/api/memo';
import { DEFAULT_RETRY } from '../../../src/api/retry';
import { FetchBudget } from '../../../src/api/quota';
import { type HttpRequest, type HttpResponse, perRequest, type Transport } from '../../../src/api/transport';
import { readList } from '../../../src/api/pages';
import { FakeClock, FakeTransport, type Handler, json, LimitedStore, nodeCodec } from '../../helpers/fakes';

const KEY = 'sk_live_SECRET_9f8e7d';
const BASE = 'https://data.example.com';
const LISTED = '/api/active-partners-data/getAllActivePartnersData';
const SAMPLE = '/api/limited-partners-data/getAllActiveLimitedPartners';

const partner = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  fullName: `Name ${id}`,
  activeStatus: 'ACTIVE',
  ...extra,
});

function setup(
  handler: Handler,
  options: Partial<ClientOptions> & { key?: string; ttlMs?: number; store?: LimitedStore; clock?: FakeClock } = {},
) {
  const clock = options.clock ?? new FakeClock();
  const store = options.store ?? new LimitedStore(clock);
  const transport = new FakeTransport(handler);
  const key = options.key ?? KEY;
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: key,
    baseUrl: BASE,
    ttlMs: options.ttlMs ?? 3_600_000,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  const client = new Client({ baseUrl: BASE, apiKey: key, transport, clock, memo, random: () => 0.5, ...options });
  return { client, transport, clock, store, memo };
}

const byIdHandler: Handler = (url) => {
  const id = url.searchParams.get('limitedPartnerId') ?? url.searchParams.get('ventureFundId');
  if (id === 'missing') return json(404, { statusCode: 404, message: 'not found' });
  return json(200, { data: [partner(id as string)] });
};

describe('client: requests', () => {
  test('every parameter is URL-encoded: a hostile id cannot change the request', () => {
    const { client, transport } = setup(byIdHandler);
    const id = 'a&apiKey=stolen/..#frag ?x=ü';
    const [o] = client.limitedPartners([id]);
    expect(o.ok && o.value.id).toBe(id);
    const url = new URL(transport.requests[0].url);
    expect(url.pathname).toBe('/api/limited-partners-data/getLimitedPartnerById');
    expect([...url.searchParams.keys()].sort()).toEqual(['apiKey', 'limitedPartnerId']);
    expect(url.searchParams.get('limitedPartnerId')).toBe(id);
    expect(url.searchParams.get('apiKey')).toBe(KEY);
    expect(url.hash).toBe('');
    expect(transport.requests[0].headers.accept).toBe('application/json');
  });

  test('many ids go out in parallel batches of the configured size', () => {
    const { client, transport } = setup(byIdHandler, { parallelism: 50 });
    const ids = Array.from({ length: 120 }, (_, i) => `lp_${i}`);
    const out = client.limitedPartners(ids);
    expect(out.every((o) => o.ok)).toBe(true);
    expect(transport.batches).toBe(3);
    expect(transport.requests).toHaveLength(120);
  });

  test('an id too long for a URL fails as BAD_INPUT without a request', () => {
    const { client, transport } = setup(byIdHandler);
    const [o] = client.limitedPartners(['x'.repeat(2100)]);
    expect(!o.ok && o.error.code).toBe('BAD_INPUT');
    expect(transport.requests).toHaveLength(0);
  });
});

describe('client: what the spec leaves open', () => {
  test('getVentureFundById data as an object or a one-element list', () => {
    const fund = { id: 'vf_1', name: 'Fund' };
    for (const data of [fund, [fund]]) {
      const { client } = setup(() => json(200, { data }));
      const [o] = client.funds(['vf_1']);
      expect(o.ok && o.value).toEqual(fund);
    }
  });

  test('the active list falls back to the second path on 404 and remembers it for this base URL', () => {
    const handler: Handler = (url) =>
      url.pathname === LISTED
        ? json(404, { message: 'Cannot GET' })
        : json(200, {
            data: [partner('a')],
            pagination: { totalItems: 1, totalPages: 1, currentPage: 1, pageSize: 10 },
          });
    const first = setup(handler);
    const [o] = first.client.activePartnerPages([1], 10);
    expect(o.ok && o.value.items[0].id).toBe('a');
    expect(first.transport.requests.map((r) => new URL(r.url).pathname)).toEqual([LISTED, SAMPLE]);
    const again = setup(handler, { store: first.store, clock: first.clock });
    again.client.activePartnerPages([1], 10);
    expect(again.transport.requests.map((r) => new URL(r.url).pathname)).toEqual([SAMPLE]);
  });

  describe('a list call moved to the second path and left unsent: the next execution asks that path first', () => {
    const page = (url: URL) =>
      json(200, {
        data: [partner(`p${url.searchParams.get('page')}`)],
        pagination: { totalItems: 3, totalPages: 3, currentPage: Number(url.searchParams.get('page')), pageSize: 1 },
      });
    const paths = (t: FakeTransport) => t.requests.map((r) => new URL(r.url).pathname);
    /** No page has answered on the second path yet: a later page's 404 there is asked on the first path too. */
    const unconfirmed = (first: ReturnType<typeof setup>) => {
      const before = first.transport.requests.length;
      first.transport.handler = (url) =>
        url.pathname === SAMPLE && url.searchParams.get('page') === '1' ? page(url) : json(404, {});
      const [later] = first.client.activePartnerPages([2], 1);
      expect(!later.ok && later.error.code).toBe('NOT_FOUND');
      expect(paths(first.transport).slice(before)).toEqual([SAMPLE, LISTED]);
    };

    test('the first path answered 404 only as the call’s time ran out', () => {
      const clock = new FakeClock();
      const slow404: Handler = (url) => {
        if (url.pathname !== LISTED) return page(url);
        clock.t += 10_000;
        return json(404, { message: 'Cannot GET' });
      };
      const first = setup(slow404, { clock });
      const [o] = first.client.activePartnerPages([1], 1, { until: clock.now() + 5_000 });
      expect(!o.ok && o.error.code).toBe('UNSENT');
      expect(paths(first.transport)).toEqual([LISTED]);
      unconfirmed(first);
      const again = setup(slow404, { clock, store: first.store });
      const [p] = again.client.activePartnerPages([1], 1);
      expect(p.ok).toBe(true);
      expect(paths(again.transport)).toEqual([SAMPLE]);
    });

    test('the transport could not send it on the second path before the deadline', () => {
      const clock = new FakeClock();
      const until = clock.now() + 5_000;
      let late = true;
      // The 404 came in time; the batch on the second path found the deadline passed (as perRequest does).
      const transport: Transport = {
        fetchAll: (requests) => {
          if (!late || new URL(requests[0].url).pathname === LISTED) return first.transport.fetchAll(requests);
          late = false;
          clock.t = until + 1;
          return requests.map(() => unsent());
        },
      };
      const first = setup((url) => (url.pathname === LISTED ? json(404, { message: 'Cannot GET' }) : page(url)), {
        clock,
        transport,
      });
      const [o] = first.client.activePartnerPages([1], 1, { until });
      expect(!o.ok && o.error.code).toBe('UNSENT');
      expect(paths(first.transport)).toEqual([LISTED]);
      unconfirmed(first);
      const again = setup((url) => (url.pathname === LISTED ? json(404, {}) : page(url)), {
        clock,
        store: first.store,
      });
      const [p] = again.client.activePartnerPages([1], 1);
      expect(p.ok).toBe(true);
      expect(paths(again.transport)).toEqual([SAMPLE]);
    });
  });

  describe('a call never moved, left unsent after the call that moved the list was answered there for good: no path is kept', () => {
    /** A client whose transport leaves a request unsent only once `until` has passed (as perRequest does). */
    function world(parallelism?: number) {
      const clock = new FakeClock();
      const store = new LimitedStore(clock);
      let answer: (url: URL, k: number) => HttpResponse = () => json(404, {});
      const transport: Transport = {
        fetchAll: (requests, until = Number.POSITIVE_INFINITY) =>
          requests.map((r, k) => (clock.now() > until ? unsent() : answer(new URL(r.url), k))),
      };
      const client = () => setup(() => json(500, {}), { clock, store, transport, parallelism });
      const kept = () => [...store.items.keys()].filter((k) => k.includes(':path:'));
      return { clock, client, kept, answers: (a: typeof answer) => (answer = a) };
    }

    // Pages 2 and 3 asked together (or one at a time): page 2 answers 503 as the time runs out, page 3 is not sent.
    test.each([
      ['left unsent by the transport', undefined],
      ['still queued at the deadline', 1],
    ])('%s', (_, parallelism) => {
      const w = world(parallelism);
      const { client } = w.client();
      // Page 1: 404 on both paths; the call that moved the list ends there, NOT_FOUND.
      w.answers(() => json(404, { message: 'Cannot GET' }));
      expect(client.activePartnerPages([1], 1).map((o) => !o.ok && o.error.code)).toEqual(['NOT_FOUND']);
      const until = w.clock.now() + 5_000;
      w.answers((_, k) => {
        if (k === 0) w.clock.t = until + 1;
        return json(503, {});
      });
      const later = client.activePartnerPages([2, 3], 1, { until });
      expect(later.map((o) => !o.ok && o.error.code)).toEqual(['SERVER', 'UNSENT']);
      expect(w.kept()).toEqual([]);
    });
  });

  test('later pages asked together of a list served on its second path move there together', () => {
    const handler: Handler = (url) =>
      url.pathname === LISTED
        ? json(404, { message: 'Cannot GET' })
        : json(200, {
            data: [partner(`p${url.searchParams.get('page')}`)],
            pagination: {
              totalItems: 9,
              totalPages: 9,
              currentPage: Number(url.searchParams.get('page')),
              pageSize: 1,
            },
          });
    const { client, transport } = setup(handler);
    const out = client.activePartnerPages([3, 4], 1);
    expect(out.map((o) => o.ok && o.value.items[0].id)).toEqual(['p3', 'p4']);
    expect(transport.requests.map((r) => new URL(r.url).pathname)).toEqual([LISTED, LISTED, SAMPLE, SAMPLE]);
  });

  test('the page size the server actually used drives the remaining pages', () => {
    const total = 230;
    const handler: Handler = (url) => {
      const page = Number(url.searchParams.get('page'));
      const size = Math.min(Number(url.searchParams.get('limit')), 100);
      const ids = Array.from({ length: total }, (_, i) => `p${i}`).slice((page - 1) * size, page * size);
      return json(200, {
        data: ids.map((id) => partner(id)),
        pagination: { totalItems: total, totalPages: Math.ceil(total / size), currentPage: page, pageSize: size },
      });
    };
    const { client, transport } = setup(handler);
    const read = readList((pages, limit) => client.activePartnerPages(pages, limit), { limit: 1000, batch: 100 });
    expect(read.verdict).toEqual({ complete: true });
    const all = read.records;
    expect(all).toHaveLength(total);
    expect(new Set(all.map((r) => r.id)).size).toBe(total);
    expect(transport.requests.slice(1).every((r) => new URL(r.url).searchParams.get('limit') === '100')).toBe(true);
    expect(transport.batches).toBe(2);
  });
});

describe('client: errors', () => {
  const cases: Array<[string, string, Handler]> = [
    ['401', 'AUTH', () => json(401, { message: 'Missing apiKey' })],
    ['403', 'AUTH', () => json(403, { message: 'Invalid API key.' })],
    ['404', 'NOT_FOUND', () => json(404, {})],
    ['400', 'BAD_INPUT', () => json(400, { message: 'limit must be a positive integer.' })],
    ['429', 'RATE_LIMITED', () => json(429, {}, { 'retry-after': '1' })],
    ['500', 'SERVER', () => json(500, {})],
    ['503 html', 'SERVER', () => ({ status: 503, headers: {}, body: '<html><body>Down</body></html>' })],
    ['network', 'NETWORK', () => new Error('Address unavailable: https://data.example.com')],
    ['timeout', 'TIMEOUT', () => new Error('Exception: Timeout: https://data.example.com')],
    ['quota', 'QUOTA', () => new Error('Service invoked too many times for one day: urlfetch.')],
    ['truncated', 'MALFORMED', () => ({ status: 200, headers: {}, body: '{"data":[{"id":"x"' })],
    ['no data', 'MALFORMED', () => json(200, { result: [] })],
    ['302', 'BAD_RESPONSE', () => ({ status: 302, headers: {}, body: '' })],
  ];

  test.each(cases)('%s becomes %s, with a short message and no key anywhere', (_, code, handler) => {
    const { client } = setup(handler, { retry: { ...DEFAULT_RETRY, retries: 1, baseDelayMs: 10 } });
    const [o] = client.limitedPartners(['lp_1']);
    expect(o.ok).toBe(false);
    if (o.ok) return;
    expect(o.error).toBeInstanceOf(ServiceError);
    expect(o.error.code).toBe(code);
    expect(o.error.message.length).toBeLessThan(200);
    expect(o.error.message).not.toMatch(/<html|SECRET/);
    expect(JSON.stringify({ m: o.error.message, u: o.error.url, s: o.error.stack })).not.toContain(KEY);
  });

  test('an unknown id names the id', () => {
    const { client } = setup(byIdHandler);
    const [o] = client.firms(['missing']);
    expect(!o.ok && o.error.message).toBe('Unknown limited partner id: missing');
  });

  test('a missing key is a NO_KEY error before any request', () => {
    expect(() => setup(byIdHandler, { key: '' })).toThrow('No API key: open Investor Data ▸ Settings');
  });
});

describe('client: retries', () => {
  test('5xx retried with exponential backoff and jitter, then success', () => {
    let calls = 0;
    const { client, clock } = setup(() => (++calls <= 3 ? json(503, {}) : json(200, { data: [partner('a')] })));
    const [o] = client.limitedPartners(['a']);
    expect(o.ok).toBe(true);
    expect(clock.sleeps).toEqual([300, 600, 1200]);
    expect(client.stats.retries).toBe(3);
  });

  test('gives up after the configured retries', () => {
    const { client, clock, transport } = setup(() => json(500, {}), {
      retry: { ...DEFAULT_RETRY, retries: 2, retriesWithoutCopy: 2 },
    });
    const [o] = client.limitedPartners(['a']);
    expect(!o.ok && o.error.code).toBe('SERVER');
    expect(transport.requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  test('with no copy to fall back on the client tries harder; with one it gives up sooner and serves it, marked stale', () => {
    let failing = false;
    const first = setup((url) => (failing ? json(503, {}) : byIdHandler(url, { url: url.href, headers: {} })), {
      ttlMs: 1000,
    });
    const cold = setup(() => json(503, {}), { store: first.store, clock: first.clock });
    cold.client.limitedPartners(['a']);
    expect(cold.transport.requests).toHaveLength(DEFAULT_RETRY.retriesWithoutCopy + 1);
    first.client.limitedPartners(['b']);
    first.clock.t += 5000;
    failing = true;
    const warm = setup(() => json(503, {}), { store: first.store, clock: first.clock, ttlMs: 1000 });
    expect(warm.client.limitedPartners(['b'])[0]).toMatchObject({ ok: true, staleSince: expect.any(Number) });
    expect(warm.transport.requests).toHaveLength(DEFAULT_RETRY.retries + 1);
  });

  test('Retry-After is honoured', () => {
    let calls = 0;
    const { client, clock } = setup(() =>
      ++calls === 1 ? json(429, {}, { 'retry-after': '7' }) : json(200, { data: [partner('a')] }),
    );
    expect(client.limitedPartners(['a'])[0].ok).toBe(true);
    expect(clock.sleeps).toEqual([7000]);
  });

  test('no wait runs past the deadline: a custom function fails fast with the hint', () => {
    const clock = new FakeClock();
    const { client } = setup(() => json(429, {}, { 'retry-after': '10' }), { clock, deadline: clock.now() + 8000 });
    const [o] = client.limitedPartners(['a']);
    expect(!o.ok && o.error.message).toBe('Rate limited by the data service, retry in 10 s.');
    expect(clock.sleeps).toEqual([]);
  });

  test('non-retryable errors are not retried', () => {
    const { client, transport } = setup(() => json(403, {}));
    client.limitedPartners(['a']);
    expect(transport.requests).toHaveLength(1);
  });
});

describe('client: cache', () => {
  test('a warm call makes no request; a different key never shares entries; no key in cache keys', () => {
    const first = setup(byIdHandler);
    first.client.limitedPartners(['a', 'b']);
    const warm = setup(byIdHandler, { store: first.store, clock: first.clock });
    expect(warm.client.limitedPartners(['a', 'b']).every((o) => o.ok)).toBe(true);
    expect(warm.transport.requests).toHaveLength(0);
    const other = setup(byIdHandler, { store: first.store, clock: first.clock, key: 'another-key-123' });
    other.client.limitedPartners(['a']);
    expect(other.transport.requests).toHaveLength(1);
    for (const k of first.store.items.keys()) {
      expect(k).not.toContain(KEY);
      expect(k.length).toBeLessThanOrEqual(250);
    }
  });

  test('unknown ids are remembered too', () => {
    const first = setup(byIdHandler);
    first.client.limitedPartners(['missing']);
    const again = setup(byIdHandler, { store: first.store, clock: first.clock });
    const [o] = again.client.limitedPartners(['missing']);
    expect(!o.ok && o.error.code).toBe('NOT_FOUND');
    expect(again.transport.requests).toHaveLength(0);
  });

  test('records over 100 KB are compressed or chunked within the limits and read back whole', () => {
    let n = 0;
    const big = (id: string) =>
      partner(id, {
        description: Array.from({ length: 30000 }, () => ((n++ * 2654435761) % 4294967296).toString(36)).join(' '),
      });
    const first = setup((url) => json(200, { data: [big(url.searchParams.get('limitedPartnerId') as string)] }));
    const [o] = first.client.limitedPartners(['huge']);
    expect(o.ok).toBe(true);
    expect(first.store.items.size).toBeGreaterThan(1);
    const again = setup(byIdHandler, { store: first.store, clock: first.clock });
    const [back] = again.client.limitedPartners(['huge']);
    expect(again.transport.requests).toHaveLength(0);
    expect(back.ok && back.value).toEqual(o.ok && o.value);
  });

  test('a long id gets a digested key under 250 characters', () => {
    const { client, store } = setup(byIdHandler);
    client.limitedPartners(['x'.repeat(400)]);
    expect([...store.items.keys()].every((k) => k.length <= 250)).toBe(true);
  });

  test('after the TTL the service is asked again; if it fails, the last good value is served as stale', () => {
    const first = setup(byIdHandler, { ttlMs: 60_000 });
    first.client.limitedPartners(['a']);
    const fetchedAt = first.clock.now();
    first.clock.t += 120_000;
    const down = setup(() => json(503, {}), {
      store: first.store,
      clock: first.clock,
      ttlMs: 60_000,
      retry: { ...DEFAULT_RETRY, retries: 0 },
    });
    const [o] = down.client.limitedPartners(['a']);
    expect(o.ok && o.staleSince).toBe(fetchedAt);
    expect(down.transport.requests).toHaveLength(1);
    expect(down.client.stats.staleServed).toBe(1);
  });
});

describe('client: one rule for retries, on the error type', () => {
  test('the code alone decides: transient codes are retried and fall back to a stale copy; final ones do neither', () => {
    const transient = ['RATE_LIMITED', 'SERVER', 'NETWORK', 'TIMEOUT', 'MALFORMED'] as const;
    const final = ['AUTH', 'NOT_FOUND', 'BAD_INPUT', 'NO_KEY'] as const;
    for (const code of transient)
      expect(new ServiceError(code, 'x')).toMatchObject({ transient: true, fallsBack: true });
    for (const code of final) expect(new ServiceError(code, 'x')).toMatchObject({ transient: false, fallsBack: false });
    expect(new ServiceError('QUOTA', 'x')).toMatchObject({ transient: false, fallsBack: true });
    expect(new ServiceError('BAD_RESPONSE', 'x')).toMatchObject({ transient: false, fallsBack: true });
  });

  test.each([
    ['no data field', () => json(200, { result: 1 })],
    ['a truncated body', () => ({ status: 200, headers: {}, body: '{"data":[{"id":' })],
  ])('a 200 with %s is a broken answer: retried, then served', (_, broken) => {
    let calls = 0;
    const { client } = setup((url) => (++calls <= 2 ? broken() : byIdHandler(url, { url: url.href, headers: {} })));
    const [o] = client.limitedPartners(['a']);
    expect(o.ok && o.value.id).toBe('a');
    expect(client.stats.retries).toBe(2);
  });

  test('an empty answer (data null or []) and a 404 say "unknown id", and neither replaces a good copy', () => {
    const first = setup(byIdHandler, { ttlMs: 60_000 });
    first.client.limitedPartners(['a']);
    const fetchedAt = first.clock.now();
    first.clock.t += 120_000;
    const empty = setup(() => json(200, { data: null }), { store: first.store, clock: first.clock, ttlMs: 60_000 });
    expect(empty.client.limitedPartners(['a'])[0]).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'Unknown limited partner id: a' },
    });
    const gone = setup(() => json(404, {}), { store: first.store, clock: first.clock, ttlMs: 60_000 });
    expect(gone.client.limitedPartners(['a'])[0]).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const back = setup(() => json(503, {}), {
      store: first.store,
      clock: first.clock,
      ttlMs: 60_000,
      retry: { ...DEFAULT_RETRY, retries: 0 },
    });
    expect(back.client.limitedPartners(['a'])[0]).toMatchObject({ ok: true, staleSince: fetchedAt });
  });

  test('a Retry-After longer than the policy accepts is not waited for, and only that request gives up', () => {
    const { client, clock } = setup((url) =>
      url.searchParams.get('limitedPartnerId') === 'slow'
        ? json(429, {}, { 'retry-after': '60' })
        : json(200, { data: [partner('ok')] }),
    );
    const [slow, ok] = client.limitedPartners(['slow', 'ok']);
    expect(!slow.ok && slow.error.message).toBe('Rate limited by the data service, retry in 60 s.');
    expect(ok.ok).toBe(true);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('client: each request waits alone', () => {
  /** A service where each request takes `costMs` of the clock and `fail` decides the first answers of some ids. */
  function timed(
    costMs: number,
    fail: (id: string, attempt: number) => ReturnType<Handler> | undefined,
    options: Partial<ClientOptions> & { clock?: FakeClock } = {},
  ) {
    const clock = options.clock ?? new FakeClock();
    const t0 = clock.now();
    const attempts = new Map<string, number>();
    const sentAt: Array<{ id: string; at: number }> = [];
    const answeredAt = new Map<string, number>();
    const handler: Handler = (url) => {
      const id = url.searchParams.get('limitedPartnerId') as string;
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      sentAt.push({ id, at: clock.now() - t0 });
      clock.t += costMs;
      const failure = fail(id, attempt);
      if (failure) return failure;
      answeredAt.set(id, clock.now() - t0);
      return json(200, { data: [partner(id)] });
    };
    return { ...setup(handler, { clock, ...options }), t0, sentAt, answeredAt };
  }
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

  test('one 429 with Retry-After 15 among 20 pages: the other 19 (and a 503 with a short backoff) arrive before the 15 s are up', () => {
    const { client, clock, sentAt, answeredAt } = timed(
      250,
      (id, attempt) => {
        if (id === 'p3' && attempt === 1) return json(429, {}, { 'retry-after': '15' });
        if (id === 'p7' && attempt === 1) return json(503, {});
        return undefined;
      },
      { parallelism: 4 },
    );
    const out = client.limitedPartners(ids(20));
    expect(out.every((o) => o.ok)).toBe(true);
    for (const id of ids(20).filter((i) => i !== 'p3')) expect(answeredAt.get(id)).toBeLessThan(15_000);
    // p3 went again no sooner than 15 s after its 429 came back, and the client slept only until then.
    const p3 = sentAt.filter((s) => s.id === 'p3');
    expect(p3).toHaveLength(2);
    expect(p3[1].at - (p3[0].at + 250)).toBeGreaterThanOrEqual(15_000);
    expect(p3[1].at - (p3[0].at + 250)).toBeLessThanOrEqual(15_000 + 1000);
    expect(clock.sleeps.every((ms) => ms <= 15_000)).toBe(true);
    expect(client.stats.retries).toBe(2);
  });

  test('a retry goes out between later batches when its time comes, not after the whole round', () => {
    const { client, sentAt } = timed(
      250,
      (id, attempt) => (id === 'p1' && attempt === 1 ? json(429, {}, { 'retry-after': '2' }) : undefined),
      { parallelism: 4 },
    );
    expect(client.limitedPartners(ids(40)).every((o) => o.ok)).toBe(true);
    const order = sentAt.map((s) => s.id);
    const retry = order.lastIndexOf('p1');
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThan(order.indexOf('p40'));
    expect(sentAt[retry].at).toBeGreaterThanOrEqual(1000 + 2000);
  });

  test('nothing sleeps past the deadline: retries that could only go after it keep their error, unsent ids say UNSENT', () => {
    for (const retryAfter of ['3', '5', '15']) {
      const clock = new FakeClock();
      const deadline = clock.now() + 10_000;
      const { client, sentAt } = timed(
        1000,
        (id) => {
          if (id === 'p1') return json(429, {}, { 'retry-after': retryAfter });
          if (id === 'p2') return json(503, {});
          return undefined;
        },
        { parallelism: 1, deadline, clock },
      );
      const out = client.limitedPartners(ids(20));
      expect(clock.now()).toBeLessThanOrEqual(deadline);
      let t = 1_800_000_000_000;
      for (const ms of clock.sleeps) expect((t += ms)).toBeLessThanOrEqual(deadline);
      expect(out[0]).toMatchObject({
        ok: false,
        error: { code: 'RATE_LIMITED', message: `Rate limited by the data service, retry in ${retryAfter} s.` },
      });
      expect(out[1]).toMatchObject({ ok: false, error: { code: 'SERVER' } });
      expect(out.slice(2).filter((o) => o.ok).length).toBeGreaterThan(0);
      expect(out.filter((o) => !o.ok && o.error.code === 'UNSENT').length).toBeGreaterThan(0);
      expect(out.every((o) => o.ok || ['RATE_LIMITED', 'SERVER', 'UNSENT'].includes(o.error.code))).toBe(true);
      // A request goes out only while there is time for it (the margin kept for writing what was read).
      for (const s of sentAt) expect(s.at).toBeLessThanOrEqual(10_000 - 1500);
    }
  });

  test("a deadline passed with the call cuts its waits; the next call has the client's own again", () => {
    const { client, clock, t0 } = timed(0, (_id, attempt) =>
      attempt === 1 ? json(429, {}, { 'retry-after': '10' }) : undefined,
    );
    const [cut] = client.limitedPartners(['a'], t0 + 8000);
    expect(!cut.ok && cut.error.code).toBe('RATE_LIMITED');
    expect(clock.sleeps).toEqual([]);
    expect(client.limitedPartners(['b'])[0].ok).toBe(true);
    expect(clock.sleeps).toEqual([10_000]);
  });
});

describe('client: a batch that cannot be sent at all', () => {
  /**
   * UrlFetchApp.fetchAll as src/gas/http.ts sees it: one request that cannot be sent throws for the
   * whole batch; the transport is the add-in's own over it (`perRequest`).
   */
  function throwingBatch(clock: FakeClock, costMs: number, unsendable: ReadonlySet<string>, budget?: FetchBudget) {
    const batches: string[][] = [];
    const send = (requests: readonly HttpRequest[]): HttpResponse[] => {
      const ids = requests.map((r) => new URL(r.url).searchParams.get('limitedPartnerId') as string);
      batches.push(ids);
      clock.t += costMs;
      if (ids.some((id) => unsendable.has(id)))
        throw new Error('Exception: Address unavailable: https://data.example.com');
      return ids.map((id) => json(200, { data: [partner(id)] }));
    };
    return { batches, transport: perRequest(send, () => clock.now(), budget?.admit) };
  }
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

  test('each request goes again alone: only the one that cannot be sent fails, and the quota guard counts every send', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const budget = new FetchBudget({ store, now: () => clock.now(), policy: { dailyLimit: 1000, reserve: 0.1 } });
    const { batches, transport } = throwingBatch(clock, 100, new Set(['p3']), budget);
    const { client } = setup(byIdHandler, { transport, clock, store });
    const out = client.limitedPartners(ids(6));
    expect(out.map((o) => o.ok)).toEqual([true, true, false, true, true, true]);
    expect(!out[2].ok && out[2].error.code).toBe('NETWORK');
    // The batch once, then one request a batch: each other id twice in all, never again once answered.
    expect(batches[0]).toEqual(ids(6));
    expect(batches.slice(1).every((b) => b.length === 1)).toBe(true);
    const sends = batches.flat();
    for (const id of ids(6).filter((i) => i !== 'p3')) expect(sends.filter((s) => s === id)).toHaveLength(2);
    expect(budget.usage().used).toBe(sends.length);
  });

  test('the requests sent alone stop at the deadline, never past it; the ones it had no time for end as not sent', () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const { transport } = throwingBatch(clock, 900, new Set(['p1']));
    const deadline = t0 + 20_000;
    const { client } = setup(byIdHandler, { transport, clock, deadline, parallelism: 100 });
    const out = client.limitedPartners(ids(40));
    expect(clock.now()).toBeLessThanOrEqual(deadline);
    const ok = out.filter((o) => o.ok).length;
    const unsent = out.filter((o) => !o.ok && o.error.code === 'UNSENT').length;
    expect(ok).toBeGreaterThan(10);
    expect(unsent).toBeGreaterThan(0);
    // Only the call that cannot be sent keeps the batch's error.
    expect(out.filter((o) => !o.ok && o.error.code === 'NETWORK')).toHaveLength(1);
    expect(ok + unsent + 1).toBe(40);
  });

  test('a batch that fails whole with no time left to send any request again: every call keeps its error (a step sees the failure)', () => {
    const clock = new FakeClock();
    const { batches, transport } = throwingBatch(clock, 27_000, new Set(['p1']));
    const { client } = setup(byIdHandler, { transport, clock, deadline: clock.now() + 28_000, parallelism: 100 });
    const out = client.limitedPartners(ids(10));
    expect(batches).toHaveLength(1);
    expect(out.every((o) => !o.ok && o.error.code === 'NETWORK')).toBe(true);
  });

  test('the quota guard sends the part of a batch that fits and refuses the rest, which is not sent again', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const budget = new FetchBudget({ store, now: () => clock.now(), policy: { dailyLimit: 10, reserve: 0.1 } });
    const { batches, transport } = throwingBatch(clock, 100, new Set(), budget);
    const { client } = setup(byIdHandler, { transport, clock, store, parallelism: 100 });
    const out = client.limitedPartners(ids(20));
    expect(out.slice(0, 9).every((o) => o.ok)).toBe(true);
    expect(out.slice(9).every((o) => !o.ok && o.error.code === 'QUOTA')).toBe(true);
    expect(batches).toEqual([ids(9)]);
    expect(budget.usage().used).toBe(9);
  });
});

describe('client: a Retry-After that is not a usable wait', () => {
  test.each(['-1', '0', '0.0', 'Thu, 01 Jan 1970 00:00:00 GMT', 'soon', '', '1e3', '12abc'])(
    '429 and 503 with Retry-After %j back off as without one, never faster',
    (value) => {
      for (const status of [429, 503]) {
        const { client, clock, transport } = setup(() => json(status, {}, { 'retry-after': value }));
        const [o] = client.limitedPartners(['a']);
        expect(!o.ok && o.error.code).toBe(status === 429 ? 'RATE_LIMITED' : 'SERVER');
        expect(transport.requests).toHaveLength(DEFAULT_RETRY.retriesWithoutCopy + 1);
        // The same waits as a 503 without the header: the backoff (jitter at its middle here), doubling to its cap.
        const backoff = Array.from({ length: DEFAULT_RETRY.retriesWithoutCopy }, (_, i) =>
          Math.round(0.75 * Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** i)),
        );
        expect(clock.sleeps).toEqual(backoff);
      }
    },
  );

  test('backoff is the floor of every wait: a Retry-After shorter than the backoff waits the backoff', () => {
    const { client, clock } = setup(() => json(429, {}, { 'retry-after': '1' }), {
      retry: { ...DEFAULT_RETRY, retriesWithoutCopy: 6 },
    });
    client.limitedPartners(['a']);
    expect(clock.sleeps).toEqual([1000, 1000, 1200, 2400, 3000, 3000]);
  });

  test('an HTTP date in the future is waited for', () => {
    const clock = new FakeClock();
    let calls = 0;
    const date = new Date(clock.now() + 9000).toUTCString();
    const { client } = setup(
      () => (++calls === 1 ? json(429, {}, { 'retry-after': date }) : json(200, { data: [partner('a')] })),
      { clock },
    );
    expect(client.limitedPartners(['a'])[0].ok).toBe(true);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThan(8000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(9000);
  });
});

describe('client: an empty answer for an id is an answer', () => {
  test.each([
    ['data: []', { data: [] }],
    ['data: null', { data: null }],
    ['data: [null]', { data: [null] }],
  ])('%s: "unknown id" after one request, remembered: the next recalculation sends none', (_, body) => {
    const ids = Array.from({ length: 20 }, (_, i) => `lp_${i}`);
    const first = setup(() => json(200, body));
    const out = first.client.limitedPartners(ids);
    expect(out.map((o) => !o.ok && o.error.message)).toEqual(ids.map((id) => `Unknown limited partner id: ${id}`));
    expect(first.transport.requests).toHaveLength(20);
    const again = setup(() => json(200, body), { store: first.store, clock: first.clock });
    expect(again.client.limitedPartners(ids).every((o) => !o.ok && o.error.code === 'NOT_FOUND')).toBe(true);
    expect(again.transport.requests).toHaveLength(0);
  });

  test('the same for a venture fund and its last fund size', () => {
    const { client, transport } = setup(() => json(200, { data: [] }));
    expect(client.funds(['vf_1'])[0]).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'Unknown venture fund id: vf_1' },
    });
    expect(client.lastFundSizes(['vf_2'])[0]).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'Unknown venture fund id: vf_2' },
    });
    expect(transport.requests).toHaveLength(2);
  });
});

describe('client: a record whose id is not the one asked for', () => {
  const other: Handler = (url) => {
    const id = url.searchParams.get('limitedPartnerId') ?? url.searchParams.get('ventureFundId');
    return json(200, { data: [partner(id === 'lp_3' ? 'lp_3' : 'lp_OTHER')] });
  };

  test('is an error for that id alone, and is not cached', () => {
    const first = setup(other);
    const out = first.client.limitedPartners(['lp_1', 'lp_2', 'lp_3']);
    expect(out[0]).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_RESPONSE',
        message: 'The data service answered with limited partner id lp_OTHER when asked for lp_1.',
      },
    });
    expect(out[1]).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE' } });
    expect(out[2]).toMatchObject({ ok: true, value: { id: 'lp_3' } });
    expect(first.transport.requests).toHaveLength(3);
    const again = setup(other, { store: first.store, clock: first.clock });
    const back = again.client.limitedPartners(['lp_1', 'lp_2', 'lp_3']);
    expect(back.map((o) => o.ok)).toEqual([false, false, true]);
    expect(again.transport.requests).toHaveLength(2);
  });

  test('the same for every per-id operation whose record has an id; a number id matches its text', () => {
    const { client } = setup(other);
    expect(client.firms(['lp_1'])[0].ok).toBe(false);
    expect(client.labels(['lp_1'])[0].ok).toBe(false);
    expect(client.funds(['vf_1'])[0].ok).toBe(false);
    const numeric = setup(() => json(200, { data: [partner(7 as unknown as string)] }));
    expect(numeric.client.limitedPartners([' 7 '])[0]).toMatchObject({ ok: true, value: { id: 7 } });
  });
});
