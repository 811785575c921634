/**
 * The memo through its own surface: cache keys (namespaced, digested past the length limit, never
 * the key), entries fresh within the lifetime and after the last "refresh all", kept as last good
 * values for the longest time the cache allows (short-lived copies only for the lifetime), large
 * values gzipped then chunked and read back whole, and a damaged or partial entry read as a miss.
 */
import { MAX_CACHE_SECONDS, MAX_KEY_LENGTH, MAX_VALUE_BYTES, Memo, type CacheStore } from '../../../src/api/memo';
import { FakeClock, LimitedStore, nodeCodec } from '../../helpers/fakes';

const KEY = 'memo-key-0123456789';

class RecordingStore implements CacheStore {
  readonly inner: LimitedStore;
  readonly ttls: number[] = [];
  getAllCalls: string[][] = [];
  constructor(clock: FakeClock) {
    this.inner = new LimitedStore(clock);
  }
  getAll(keys: string[]): Record<string, string> {
    this.getAllCalls.push(keys);
    return this.inner.getAll(keys);
  }
  putAll(values: Record<string, string>, ttlSeconds: number): void {
    this.ttls.push(ttlSeconds);
    this.inner.putAll(values, ttlSeconds);
  }
  removeAll(keys: string[]): void {
    this.inner.removeAll(keys);
  }
}

function setup(options: { ttlMs?: number; invalidatedBefore?: number | (() => number) } = {}) {
  const clock = new FakeClock(1_000_000);
  const store = new RecordingStore(clock);
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: KEY,
    baseUrl: 'https://h',
    ttlMs: options.ttlMs ?? 60_000,
    invalidatedBefore: options.invalidatedBefore ?? 0,
    now: () => clock.now(),
  });
  return { clock, store, memo };
}

describe('cache keys', () => {
  test('namespace, tag and parameters; a key too long for the cache is digested, the same each time', () => {
    const { memo } = setup();
    expect(memo.namespace).toMatch(/^[0-9a-f]{20}$/);
    expect(memo.key('lp', 'lp_1')).toBe(`${memo.namespace}:lp:lp_1`);
    const long = 'x'.repeat(MAX_KEY_LENGTH);
    const k = memo.key('lp', long);
    expect(k.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
    expect(k.startsWith(`${memo.namespace}:lp:#`)).toBe(true);
    expect(memo.key('lp', long)).toBe(k);
    expect(memo.key('lp', `${long}y`)).not.toBe(k);
    const edge = 'p'.repeat(MAX_KEY_LENGTH - 8 - `${memo.namespace}:lp:`.length);
    expect(memo.key('lp', edge)).toBe(`${memo.namespace}:lp:${edge}`);
    expect(memo.key('lp', `${edge}p`)).toMatch(/:lp:#/);
    expect(k).not.toContain(KEY);
  });

  test('the namespace depends on key and address, and shows neither', () => {
    expect(Memo.namespaceOf(nodeCodec, KEY, 'https://h')).not.toBe(Memo.namespaceOf(nodeCodec, KEY, 'https://g'));
    expect(Memo.namespaceOf(nodeCodec, KEY, 'https://h')).not.toBe(Memo.namespaceOf(nodeCodec, `${KEY}x`, 'https://h'));
    expect(Memo.storedNamespace(nodeCodec, KEY, 'https://h')).toMatch(/^[0-9a-z]+:[0-9a-f]{20}$/);
  });
});

describe('freshness', () => {
  test('fresh within the lifetime, then kept as a last good value with when it was fetched', () => {
    const { clock, memo } = setup({ ttlMs: 1000 });
    const k = memo.key('lp', 'a');
    memo.putMany([[k, { id: 'a' }]]);
    expect(memo.getMany([k]).get(k)).toEqual({ value: { id: 'a' }, fetchedAt: 1_000_000, fresh: true });
    clock.t += 999;
    expect(memo.getMany([k]).get(k)?.fresh).toBe(true);
    clock.t += 1;
    expect(memo.getMany([k]).get(k)).toEqual({ value: { id: 'a' }, fetchedAt: 1_000_000, fresh: false });
  });

  test('an answer fetched before the last "refresh all" is stale; one fetched at that instant is not', () => {
    let refreshedAt = 0;
    const { memo } = setup({ invalidatedBefore: () => refreshedAt });
    const k = memo.key('lp', 'a');
    memo.putMany([[k, 1]]);
    refreshedAt = 1_000_000;
    expect(memo.getMany([k]).get(k)?.fresh).toBe(true);
    refreshedAt = 1_000_001;
    expect(memo.getMany([k]).get(k)?.fresh).toBe(false);
  });

  test('entries live as long as the cache allows; short-lived copies only for the lifetime, none under a second', () => {
    const { store, memo } = setup({ ttlMs: 90_500 });
    memo.putMany([[memo.key('lp', 'a'), 1]]);
    memo.putMany([[memo.key('lp', 'b'), 1]], true);
    expect(store.ttls).toEqual([MAX_CACHE_SECONDS, 90]);
    const short = setup({ ttlMs: 999 });
    short.memo.putMany([[short.memo.key('lp', 'a'), 1]], true);
    expect(short.store.ttls).toEqual([]);
    const long = setup({ ttlMs: 10 * MAX_CACHE_SECONDS * 1000 });
    long.memo.putMany([[long.memo.key('lp', 'a'), 1]], true);
    expect(long.store.ttls).toEqual([MAX_CACHE_SECONDS]);
  });

  test('nothing asked, nothing read; nothing given, nothing written', () => {
    const { store, memo } = setup();
    expect(memo.getMany([]).size).toBe(0);
    memo.putMany([]);
    memo.remove([]);
    expect(store.getAllCalls).toEqual([]);
    expect(store.ttls).toEqual([]);
  });
});

describe('large values', () => {
  test('a value over the limit is gzipped; one still too big is chunked; both read back whole', () => {
    const { store, memo } = setup();
    const big = { text: 'a'.repeat(MAX_VALUE_BYTES) };
    let seed = 7;
    const noise = Array.from({ length: 300_000 }, () =>
      String.fromCharCode(33 + ((seed = (seed * 48271) % 2147483647) % 90)),
    ).join('');
    const kb = memo.key('lp', 'big');
    const kn = memo.key('lp', 'noise');
    memo.putMany([
      [kb, big],
      [kn, noise],
    ]);
    const raw = store.inner.items;
    expect(raw.get(kb)?.value.startsWith('z')).toBe(true);
    expect(raw.get(kn)?.value).toMatch(/^c\d+$/);
    const n = Number(raw.get(kn)?.value.slice(1));
    expect(n).toBeGreaterThan(1);
    for (let i = 0; i < n; i++) expect(raw.get(`${kn}~${i}`)?.value.length).toBeLessThanOrEqual(MAX_VALUE_BYTES);
    const back = memo.getMany([kb, kn]);
    expect(back.get(kb)?.value).toEqual(big);
    expect(back.get(kn)?.value).toBe(noise);
    const small = memo.key('lp', 'small');
    memo.putMany([[small, 'x']]);
    expect(raw.get(small)?.value).toBe('j{"t":1000000,"v":"x"}');
  });

  test('a chunked value with a part missing, a damaged entry or one without a time is a miss', () => {
    const { store, memo } = setup();
    let seed = 3;
    const noise = Array.from({ length: 250_000 }, () =>
      String.fromCharCode(33 + ((seed = (seed * 48271) % 2147483647) % 90)),
    ).join('');
    const k = memo.key('lp', 'n');
    memo.putMany([[k, noise]]);
    store.removeAll([`${k}~1`]);
    expect(memo.getMany([k]).has(k)).toBe(false);
    const d = memo.key('lp', 'd');
    store.inner.putAll({ [d]: 'j{not json', [memo.key('lp', 'e')]: 'j{"v":1}', [memo.key('lp', 'z')]: 'zgarbage' }, 60);
    expect(memo.getMany([d, memo.key('lp', 'e'), memo.key('lp', 'z')]).size).toBe(0);
  });

  test('removed entries are gone', () => {
    const { memo } = setup();
    const k = memo.key('lp', 'a');
    memo.putMany([[k, 1]]);
    memo.remove([k]);
    expect(memo.getMany([k]).size).toBe(0);
  });
});
