/**
 * The client and its memo: which limited partners it can answer from the memo alone
 * (`partnerKeys`, `peekPartners`), what it counts as a cache hit, what it asks of and writes to the
 * cache store (never a key it cannot hold, nothing for a call that is not cached or failed), and
 * how a remembered "unknown id" or a remembered empty value is served back.
 */
import type { ClientOptions } from '../../../src/api/client';
import { setupClient } from '../../helpers/client-setup';
import { type FakeClock, type Handler, json, LimitedStore } from '../../helpers/fakes';

const KEY = 'sk_live_SECRET_memo_42';

const partner = (id: string) => ({ id, fullName: `Name ${id}`, activeStatus: 'ACTIVE' });
const page = (items: unknown[], currentPage = 1) => ({
  data: items,
  pagination: { totalItems: items.length, totalPages: 1, currentPage, pageSize: 10 },
});

/** A cache store that records every key it is asked for and every value written to it. */
class RecordingStore extends LimitedStore {
  readonly asked: unknown[] = [];
  readonly written: Array<Record<string, string>> = [];
  override getAll(keys: string[]): Record<string, string> {
    this.asked.push(...keys);
    return super.getAll(keys);
  }
  override putAll(values: Record<string, string>, ttlSeconds: number): void {
    this.written.push(values);
    super.putAll(values, ttlSeconds);
  }
}

function setup(handler: Handler, options: Partial<ClientOptions> & { store?: RecordingStore; clock?: FakeClock } = {}) {
  return setupClient(handler, KEY, (clock) => new RecordingStore(clock), options);
}

const byId: Handler = (url) => {
  const id = url.searchParams.get('limitedPartnerId') ?? url.searchParams.get('ventureFundId');
  if (id === 'missing') return json(404, { message: 'not found' });
  return json(200, { data: [partner(id as string)] });
};

describe('partnerKeys and peekPartners', () => {
  test('a blank or absent id has no key; the others have the memo key the client stores the answer under', () => {
    const { client, store } = setup(byId);
    const ids = ['a', '  ', '', null as unknown as string, undefined as unknown as string, 'b'];
    const keys = client.partnerKeys(ids);
    expect(keys.map((k) => typeof k)).toEqual(['string', 'undefined', 'undefined', 'undefined', 'undefined', 'string']);
    expect(keys[0]).not.toBe(keys[5]);
    client.limitedPartners(['a', 'b']);
    expect(store.items.has(keys[0] as string)).toBe(true);
    expect(store.items.has(keys[5] as string)).toBe(true);
  });

  test('without a memo there are no keys and nothing to peek, and nothing breaks', () => {
    const { client } = setup(byId, { memo: undefined });
    expect(client.partnerKeys(['a', ' '])).toEqual([undefined, undefined]);
    expect(client.peekPartners(['a', ' ']).size).toBe(0);
  });

  test('peeks the fresh records the memo holds, without a request, and never a blank id, a missing or an unknown one', () => {
    const first = setup(byId);
    first.client.limitedPartners(['a', 'b', 'missing']);
    const again = setup(byId, { store: first.store, clock: first.clock });
    const peek = again.client.peekPartners(['a', ' ', 'b', 'c', 'missing']);
    expect([...peek.keys()]).toEqual(['a', 'b']);
    expect(peek.get('a')).toEqual(partner('a'));
    expect(again.transport.requests).toHaveLength(0);
    expect(first.store.asked.every((k) => typeof k === 'string')).toBe(true);
  });

  test('reads from the hits it is given instead of the memo', () => {
    const first = setup(byId);
    first.client.limitedPartners(['a', 'b']);
    const [ka] = first.client.partnerKeys(['a']);
    const hits = first.memo.getMany([ka as string]);
    const asked = first.store.getAllCalls;
    const peek = first.client.peekPartners(['a', 'b'], hits);
    expect([...peek.keys()]).toEqual(['a']);
    expect(first.store.getAllCalls).toBe(asked);
  });

  test('a stale record is not peeked', () => {
    const first = setup(byId);
    first.client.limitedPartners(['a']);
    first.clock.t += 120_000;
    expect(first.client.peekPartners(['a']).size).toBe(0);
  });

  test('an entry under a partner key that is not a record is not served as one', () => {
    const { client, memo } = setup(byId);
    const ids = ['n', 'five', 'text', 'none', 'ok'];
    const keys = client.partnerKeys(ids) as string[];
    memo.putMany([
      [keys[0], null],
      [keys[1], 5],
      [keys[2], 'text'],
      [keys[3], undefined],
      [keys[4], partner('ok')],
    ]);
    expect([...client.peekPartners(ids).keys()]).toEqual(['ok']);
  });
});

describe('cache hits and what the store sees', () => {
  test('each answer served from the memo counts as one cache hit', () => {
    const first = setup(byId);
    first.client.limitedPartners(['a', 'b', 'missing']);
    expect(first.client.stats.cacheHits).toBe(0);
    const again = setup(byId, { store: first.store, clock: first.clock });
    again.client.limitedPartners(['a', 'b', 'missing']);
    expect(again.client.stats.cacheHits).toBe(3);
  });

  test('list pages are neither looked up nor written: only the path choice is read, and written once it first answers', () => {
    const { client, store, clock } = setup(() => json(200, page([partner('a')])));
    const [o] = client.activePartnerPages([1], 10);
    expect(o.ok).toBe(true);
    expect(store.asked.every((k) => typeof k === 'string')).toBe(true);
    expect(store.asked).toHaveLength(1);
    expect(store.written.flatMap((w) => Object.keys(w))).toEqual([expect.stringMatching(/:path:act$/)]);
    client.activePartnerPages([2], 10);
    const next = setup(() => json(200, page([partner('b')])), { store, clock });
    next.client.activePartnerPages([1], 10);
    expect(store.written).toHaveLength(1);
  });

  test('pages are never served from the memo: each read of a page asks the service', () => {
    const first = setup(() => json(200, page([partner('a')])));
    first.client.activePartnerPages([1], 10);
    const again = setup(() => json(200, page([partner('b')])), { store: first.store, clock: first.clock });
    const [o] = again.client.activePartnerPages([1], 10);
    expect(o.ok && o.value.items).toEqual([partner('b')]);
    expect(again.transport.requests).toHaveLength(1);
  });

  test('an answer kept whole is served from the memo the next time, without a request, as one cache hit', () => {
    const first = setup(() => json(200, page([partner('a')])));
    const read = (c: typeof first.client) => () => c.activePartnerPages([1], 10).map((o) => o.ok && o.value.items);
    const made = first.client.whole('getAllActiveLimitedPartners', { page: 'all', limit: 10 }, read(first.client));
    const again = setup(() => json(200, page([partner('b')])), { store: first.store, clock: first.clock });
    const served = again.client.whole('getAllActiveLimitedPartners', { page: 'all', limit: 10 }, read(again.client));
    expect(served).toEqual(made);
    expect(again.transport.requests).toHaveLength(0);
    expect(again.client.stats.cacheHits).toBe(1);
  });
  test('a failed call writes nothing to the store', () => {
    const { client, store } = setup(() => json(403, {}));
    expect(client.limitedPartners(['a'])[0].ok).toBe(false);
    expect(store.written).toEqual([]);
  });

  test('an answer kept whole is replaced by its last good copy only where a copy may stand in: not for a refused key', () => {
    const make = (c: ReturnType<typeof setup>['client']) => () => {
      const [o] = c.activePartnerPages([1], 10);
      if (!o.ok) throw o.error;
      return o.value.items;
    };
    const query = { page: 1, limit: 10 };
    const first = setup(() => json(200, page([partner('a')])));
    const readAt = first.clock.now();
    first.client.whole('getAllActiveLimitedPartners', query, make(first.client));
    first.clock.t += 2 * 3_600_000;
    const refused = setup(() => json(403, {}), { store: first.store, clock: first.clock });
    const o = refused.client.whole('getAllActiveLimitedPartners', query, make(refused.client));
    expect(!o.ok && o.error.code).toBe('AUTH');
    const down = setup(() => json(503, {}), { store: first.store, clock: first.clock });
    const stale = down.client.whole('getAllActiveLimitedPartners', query, make(down.client));
    expect(stale).toEqual({ ok: true, value: [partner('a')], staleSince: readAt });
    expect(down.client.stats.staleServed).toBe(1);
  });

  test('an answer kept whole that failed as "not found" is not remembered: it is asked again', () => {
    const make = (c: ReturnType<typeof setup>['client']) => () => {
      const [o] = c.activePartnerPages([1], 10);
      if (!o.ok) throw o.error;
      return o.value;
    };
    const first = setup(() => json(404, {}));
    const o = first.client.whole('getAllActiveLimitedPartners', { page: 1, limit: 10 }, make(first.client));
    expect(!o.ok && o.error.code).toBe('NOT_FOUND');
    const again = setup(() => json(404, {}), { store: first.store, clock: first.clock });
    expect(again.client.whole('getAllActiveLimitedPartners', { page: 1, limit: 10 }, make(again.client)).ok).toBe(
      false,
    );
    expect(again.transport.requests.length).toBeGreaterThan(0);
  });
});

describe('remembered answers that are not records', () => {
  test('a fund without a last fund size answers null, remembered and served again without a request', () => {
    const body = (url: URL) => {
      const id = url.searchParams.get('ventureFundId') as string;
      return json(200, { data: { id, ...(id === 'sized' ? { lastFundSize: 250 } : {}) } });
    };
    const first = setup(body);
    const out = first.client.lastFundSizes(['sized', 'bare']);
    expect(out).toEqual([
      { ok: true, value: 250 },
      { ok: true, value: null },
    ]);
    const again = setup(() => json(500, {}), { store: first.store, clock: first.clock });
    expect(again.client.lastFundSizes(['sized', 'bare'])).toEqual(out);
    expect(again.transport.requests).toHaveLength(0);
  });

  test('a stale "unknown id" is no last good value: when the service fails, the failure shows', () => {
    const first = setup(byId);
    first.client.limitedPartners(['missing']);
    first.clock.t += 120_000;
    const down = setup(() => json(503, {}), { store: first.store, clock: first.clock });
    const [o] = down.client.limitedPartners(['missing']);
    expect(!o.ok && o.error.code).toBe('SERVER');
    expect(down.client.stats.staleServed).toBe(0);
  });
});

test('a cold call to an operation with one path reads the cache store once', () => {
  const { client, store } = setup(byId);
  client.limitedPartners(['a']);
  expect(store.getAllCalls).toBe(1);
});
