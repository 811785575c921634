/**
 * How the client sends its calls: ids as the service takes them, URLs up to the longest one
 * UrlFetchApp accepts, the two paths of the active list (also without a memo, and whatever a saved
 * choice says), the time left before the deadline, waits that end at the earliest retry and never
 * past the deadline, a service known to hang, the outcomes a transport leaves unsent, and what an
 * error says of where it came from.
 */
import { type ClientOptions, DEADLINE_MARGIN_MS, MAX_URL_LENGTH, requireId } from '../../../src/api/client';
import { ServiceError, unsent } from '../../../src/api/errors';
import type { Health } from '../../../src/api/health';
import { OPERATIONS } from '../../../src/api/operations';
import type { HttpRequest, Transport } from '../../../src/api/transport';
import { TEST_BASE as BASE, memoFor, setupClient } from '../../helpers/client-setup';
import { FakeClock, FakeTransport, type Handler, json, LimitedStore } from '../../helpers/fakes';

const KEY = 'sk_live_SECRET_calls_77';
const LISTED = '/api/active-partners-data/getAllActivePartnersData';
const SAMPLE = '/api/limited-partners-data/getAllActiveLimitedPartners';

const partner = (id: string) => ({ id, fullName: `Name ${id}`, activeStatus: 'ACTIVE' });
const listPage = (url: URL) =>
  json(200, {
    data: [partner('a')],
    pagination: { totalItems: 1, totalPages: 1, currentPage: Number(url.searchParams.get('page')), pageSize: 10 },
  });

function setup(handler: Handler, options: Partial<ClientOptions> & { clock?: FakeClock; store?: LimitedStore } = {}) {
  return setupClient(handler, KEY, (clock) => new LimitedStore(clock), options);
}

const byId: Handler = (url) => {
  const id = url.searchParams.get('limitedPartnerId') ?? url.searchParams.get('ventureFundId');
  if (id === 'missing') return json(404, { message: 'not found' });
  return json(200, { data: [partner(id as string)] });
};
const paths = (t: FakeTransport) => t.requests.map((r) => new URL(r.url).pathname);

describe('ids and keys', () => {
  test('a missing key is refused with the NO_KEY code', () => {
    expect(() => setup(byId, { apiKey: '' })).toThrow(expect.objectContaining({ code: 'NO_KEY' }));
  });

  test('an id is trimmed; a blank or absent one is BAD_INPUT "An id is empty."', () => {
    expect(requireId('  lp_1 \t')).toBe('lp_1');
    for (const blank of ['', '   ', null, undefined]) {
      expect(() => requireId(blank as unknown as string)).toThrow(
        expect.objectContaining({ code: 'BAD_INPUT', message: 'An id is empty.' }),
      );
    }
  });

  test('an id no URL can carry (a lone surrogate) is BAD_INPUT on its own; the ids beside it are answered', () => {
    const { client, transport } = setup(byId);
    const [bad, good] = client.limitedPartners(['ab\ud800', 'a']);
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(!bad.ok && bad.error.message).toMatch(/limitedPartnerId/);
    expect(good).toMatchObject({ ok: true, value: { id: 'a' } });
    expect(transport.requests).toHaveLength(1);
  });

  test('the id sent is the trimmed one', () => {
    const { client, transport } = setup(byId);
    expect(client.limitedPartners(['  a  '])[0].ok).toBe(true);
    expect(new URL(transport.requests[0].url).searchParams.get('limitedPartnerId')).toBe('a');
  });
});

describe('the longest URL', () => {
  test('a URL of exactly the longest length goes out; one character more is BAD_INPUT naming the id length', () => {
    const probe = setup(byId);
    probe.client.limitedPartners(['x']);
    const room = MAX_URL_LENGTH - probe.transport.requests[0].url.length;
    const fits = 'x'.repeat(1 + room);
    const { client, transport } = setup(byId);
    expect(client.limitedPartners([fits])[0].ok).toBe(true);
    expect(transport.requests[0].url).toHaveLength(MAX_URL_LENGTH);
    const [o] = client.limitedPartners([`${fits}x`]);
    expect(o).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_INPUT',
        message: `The id is too long for a request URL (${(fits.length + 1).toLocaleString('en-US')} characters).`,
      },
    });
    expect(transport.requests).toHaveLength(1);
  });

  test('a list page whose URL is too long (a very long service address) says so, without blaming an id', () => {
    const base = `${BASE}/${'p'.repeat(MAX_URL_LENGTH)}`;
    const { client, transport } = setup(() => json(500, {}), { baseUrl: base });
    const [o] = client.activePartnerPages([1], 10);
    expect(o).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(!o.ok && o.error.message).toMatch(/^The request URL is too long \([\d,]+ characters\)/);
    expect(transport.requests).toHaveLength(0);
  });
});

describe('operations with pages', () => {
  test("a fund's industries: the fund id, page and limit are asked for, each time (pages are not remembered one by one)", () => {
    const handler: Handler = (url) =>
      json(200, {
        data: [{ id: `i${url.searchParams.get('page')}`, name: 'Fintech' }],
        pagination: { totalItems: 2, totalPages: 2, currentPage: Number(url.searchParams.get('page')), pageSize: 1 },
      });
    const first = setup(handler);
    const out = first.client.industriesPages(' vf_1 ', [1, 2], 1);
    expect(out.map((o) => o.ok && o.value.items[0].id)).toEqual(['i1', 'i2']);
    const params = first.transport.requests.map((r) => Object.fromEntries(new URL(r.url).searchParams));
    expect(params).toEqual([
      { ventureFundId: 'vf_1', page: '1', limit: '1', apiKey: KEY },
      { ventureFundId: 'vf_1', page: '2', limit: '1', apiKey: KEY },
    ]);
    const again = setup(handler, { store: first.store, clock: first.clock });
    expect(again.client.industriesPages('vf_1', [1, 2], 1)).toEqual(out);
    expect(again.transport.requests).toHaveLength(2);
  });

  test('a page whose pagination leaves out its page and size is read as the page and size asked for', () => {
    const { client } = setup(() => json(200, { data: [partner('a')], pagination: { totalItems: 30 } }));
    const [o] = client.activePartnerPages([3], 10);
    expect(o.ok && o.value.pagination).toEqual({ totalItems: 30, totalPages: 3, currentPage: 3, pageSize: 10 });
  });
});

describe('the two paths of the active list', () => {
  const secondOnly: Handler = (url) => (url.pathname === LISTED ? json(404, { message: 'Cannot GET' }) : listPage(url));

  test('without a memo the client still falls back to the second path, once, and keeps to it', () => {
    const clock = new FakeClock();
    // Each request takes a second, so a client that never settled on a path would stop at the deadline.
    const handler: Handler = (url, req) => {
      clock.t += 1000;
      return secondOnly(url, req);
    };
    const { client, transport } = setup(handler, { clock, memo: undefined, deadline: clock.now() + 20_000 });
    expect(client.activePartnerPages([1], 10)[0].ok).toBe(true);
    expect(client.activePartnerPages([2], 10)[0].ok).toBe(true);
    expect(paths(transport)).toEqual([LISTED, SAMPLE, SAMPLE]);
  });

  test('a client without a memo serves ids too', () => {
    const { client } = setup(byId, { memo: undefined });
    expect(client.limitedPartners(['a', 'missing']).map((o) => o.ok)).toEqual([true, false]);
  });

  test('a saved path choice the operation does not have is ignored: the first path is asked', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const memo = memoFor(store, clock, KEY);
    memo.putMany([[memo.key('path', OPERATIONS.getAllActiveLimitedPartners.tag), 2]]);
    const { client, transport } = setup(secondOnly, { clock, store });
    expect(client.activePartnerPages([1], 10)[0].ok).toBe(true);
    expect(paths(transport)).toEqual([LISTED, SAMPLE]);
  });

  test('a first page neither path serves leaves no path remembered: the next execution asks the first path first', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const first = setup(() => json(404, { message: 'Cannot GET' }), { clock, store });
    expect(first.client.activePartnerPages([1], 10)[0].ok).toBe(false);
    expect(paths(first.transport)).toEqual([LISTED, SAMPLE]);
    const next = setup(secondOnly, { clock, store });
    expect(next.client.activePartnerPages([1], 10)[0].ok).toBe(true);
    expect(paths(next.transport)).toEqual([LISTED, SAMPLE]);
  });

  test("a later page not found while no path has answered is asked on the second path; once a path is known, its 404 is the list's", () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const fresh = setup(secondOnly, { clock, store });
    expect(fresh.client.activePartnerPages([2], 10)[0].ok).toBe(true);
    expect(paths(fresh.transport)).toEqual([LISTED, SAMPLE]);
    // The next execution knows the second path; a path that answered before gives its own 404 for a page past the end.
    const pastEnd: Handler = (url) =>
      url.searchParams.get('page') === '9' ? json(404, { message: 'No page' }) : secondOnly(url, {} as never);
    const known = setup(pastEnd, { clock, store });
    expect(known.client.activePartnerPages([9], 10)[0]).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(paths(known.transport)).toEqual([SAMPLE]);
    const firstKnown = setup((url) => (url.searchParams.get('page') === '9' ? json(404, {}) : listPage(url)), {
      clock: new FakeClock(),
    });
    expect(firstKnown.client.activePartnerPages([1], 10)[0].ok).toBe(true);
    expect(firstKnown.client.activePartnerPages([9], 10)[0].ok).toBe(false);
    expect(paths(firstKnown.transport)).toEqual([LISTED, LISTED]);
  });

  test('a first page not found on the remembered path is asked on the next one (the service moved it)', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const memo = memoFor(store, clock, KEY);
    memo.putMany([[memo.key('path', OPERATIONS.getAllActiveLimitedPartners.tag), 0]]);
    const { client, transport } = setup(secondOnly, { clock, store });
    expect(client.activePartnerPages([1], 10)[0].ok).toBe(true);
    expect(paths(transport)).toEqual([LISTED, SAMPLE]);
  });

  test('only an operation with two paths remembers the one that answered', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    const { client, memo } = setup((url, req) => (url.searchParams.has('page') ? listPage(url) : byId(url, req)), {
      clock,
      store,
    });
    client.limitedPartners(['a']);
    expect(memo.getMany([memo.key('path', OPERATIONS.getLimitedPartnerById.tag)]).size).toBe(0);
    client.activePartnerPages([1], 10);
    const saved = memo.getMany([memo.key('path', OPERATIONS.getAllActiveLimitedPartners.tag)]);
    expect([...saved.values()].map((h) => h.value)).toEqual([0]);
  });

  test('a failure other than "not found" is retried on the same path', () => {
    let calls = 0;
    const { client, transport } = setup((url) => (++calls === 1 ? json(503, {}) : listPage(url)));
    expect(client.activePartnerPages([1], 10)[0].ok).toBe(true);
    expect(paths(transport)).toEqual([LISTED, LISTED]);
  });
});

describe('time', () => {
  test('a retry that would take as long as the failed attempt and end past the deadline is not started: the last good copy stands in', () => {
    const clock = new FakeClock();
    const store = new LimitedStore(clock);
    expect(setup(byId, { clock, store }).client.limitedPartners(['a'])[0].ok).toBe(true);
    // Past the answer's lifetime, the service fails every request after 7 s (an overloaded gateway).
    clock.t += 120_000;
    const slowFailure: Handler = () => {
      clock.t += 7000;
      return json(503, {});
    };
    const deadline = clock.now() + 30_000;
    const { client, transport } = setup(slowFailure, { clock, store, deadline });
    const [o] = client.limitedPartners(['a']);
    expect(o.ok && o.staleSince !== undefined).toBe(true);
    // Three attempts end by 22 s; a fourth would start near 23 s and end past the 28.5 s the client may use.
    expect(transport.requests).toHaveLength(3);
    expect(clock.now()).toBeLessThanOrEqual(deadline - DEADLINE_MARGIN_MS);
  });

  test('the time left is the deadline less the margin kept for writing, less the time now; Infinity without a deadline', () => {
    const clock = new FakeClock();
    const deadline = clock.now() + 30_000;
    const { client } = setup(byId, { clock, deadline });
    clock.t += 4000;
    expect(client.timeLeft()).toBe(30_000 - DEADLINE_MARGIN_MS - 4000);
    expect(setup(byId, { clock }).client.timeLeft()).toBe(Number.POSITIVE_INFINITY);
  });

  test('when no call is ready the client sleeps until the earliest one is', () => {
    const seen = new Map<string, number>();
    const { client, clock } = setup(
      (url) => {
        const id = url.searchParams.get('limitedPartnerId') as string;
        const n = (seen.get(id) ?? 0) + 1;
        seen.set(id, n);
        if (n === 1) return json(429, {}, { 'retry-after': id === 'a' ? '2' : '5' });
        return json(200, { data: [partner(id)] });
      },
      { parallelism: 2 },
    );
    expect(client.limitedPartners(['a', 'b']).every((o) => o.ok)).toBe(true);
    expect(clock.sleeps).toEqual([2000, 3000]);
  });

  test('a retry due exactly at the deadline still goes', () => {
    let calls = 0;
    const clock = new FakeClock();
    const t0 = clock.now();
    const { client } = setup(
      () => (++calls === 1 ? json(429, {}, { 'retry-after': '5' }) : json(200, { data: [partner('a')] })),
      { clock },
    );
    expect(client.limitedPartners(['a'], t0 + 5000)[0].ok).toBe(true);
    expect(clock.sleeps).toEqual([5000]);
    expect(client.stats.retries).toBe(1);
  });

  test('a retry that could only go after the deadline is not counted as one', () => {
    const clock = new FakeClock();
    const { client } = setup(() => json(429, {}, { 'retry-after': '10' }), { clock });
    expect(client.limitedPartners(['a'], clock.now() + 8000)[0].ok).toBe(false);
    expect(client.stats.retries).toBe(0);
  });
});

describe('what is sent and counted', () => {
  test('while the service is known to hang nothing is sent: each call fails at once with the reason', () => {
    const health: Health = { hung: () => 'The data service has not answered.', around: (send) => send() };
    const { client, transport } = setup(byId, { health });
    const out = client.limitedPartners(['a', 'b']);
    expect(out).toEqual([
      { ok: false, error: new ServiceError('TIMEOUT', 'The data service has not answered.') },
      { ok: false, error: new ServiceError('TIMEOUT', 'The data service has not answered.') },
    ]);
    expect(out.every((o) => !o.ok && o.error.code === 'TIMEOUT')).toBe(true);
    expect(transport.requests).toHaveLength(0);
  });

  test('requests the transport left unsent are not counted as fetches and end UNSENT', () => {
    const clock = new FakeClock();
    const inner = new FakeTransport(byId);
    const transport: Transport = {
      fetchAll: (requests: readonly HttpRequest[]) => [
        ...inner.fetchAll(requests.slice(0, 1)),
        ...requests.slice(1).map(() => unsent()),
      ],
    };
    // The unsent ones are tried again (backoff) while the deadline allows, then end UNSENT.
    const { client } = setup(byId, { clock, transport, deadline: clock.now() + 1000 + DEADLINE_MARGIN_MS });
    const out = client.limitedPartners(['a', 'b', 'c']);
    expect(out.map((o) => o.ok || o.error.code)).toEqual([true, 'UNSENT', 'UNSENT']);
    expect(client.stats.fetches).toBe(1);
  });
});

describe('errors say where they came from, without the key', () => {
  test('an unknown id keeps the status and the URL, which has no apiKey parameter', () => {
    const { client } = setup(byId);
    const [o] = client.limitedPartners(['missing']);
    expect(o.ok).toBe(false);
    if (o.ok) return;
    expect(o.error.status).toBe(404);
    expect(o.error.url).toBe(`${BASE}/api/limited-partners-data/getLimitedPartnerById?limitedPartnerId=missing`);
  });

  test('a server error URL has no apiKey parameter either', () => {
    const { client } = setup(() => json(403, {}));
    const [o] = client.limitedPartners(['a']);
    expect(!o.ok && o.error.url).toBe(`${BASE}/api/limited-partners-data/getLimitedPartnerById?limitedPartnerId=a`);
  });
});
