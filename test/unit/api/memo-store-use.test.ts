/**
 * What the memo asks of the cache store, at the edges of its limits: a value of exactly the size
 * limit is one entry, a chunked value is its pieces and its marker and nothing more, a chunked
 * value missing any piece is a miss even when what is left would read, a store that answers null
 * for a miss is read as a miss, short-lived copies of one second are still written, and reading or
 * removing nothing makes no store call. The UTF-8 size count agrees with Node's own, and a
 * namespace kept with the key is used as it is, without a digest, only when it is whole.
 */
import { type CacheStore, type Codec, MAX_VALUE_BYTES, Memo, utf8Length } from '../../../src/api/memo';
import { FakeClock, LimitedStore, nodeCodec } from '../../helpers/fakes';

const KEY = 'store-use-key-0123456789';
const URL = 'https://h.example.com';

/** A store that records every call and, like a cache read one key at a time, answers null for a miss. */
class CallingStore implements CacheStore {
  readonly inner: LimitedStore;
  readonly calls: string[] = [];
  constructor(clock: FakeClock) {
    this.inner = new LimitedStore(clock);
  }
  getAll(keys: string[]): Record<string, string> {
    this.calls.push('getAll');
    const found = this.inner.getAll(keys);
    // null, not a string: what a store built on single reads may answer for a miss
    return Object.fromEntries(keys.map((k) => [k, found[k] ?? null])) as Record<string, string>;
  }
  putAll(values: Record<string, string>, ttlSeconds: number): void {
    this.calls.push(`putAll ${ttlSeconds}`);
    this.inner.putAll(values, ttlSeconds);
  }
  removeAll(keys: string[]): void {
    this.calls.push('removeAll');
    this.inner.removeAll(keys);
  }
}

function setup(codec: Codec = nodeCodec, ttlMs = 60_000) {
  const clock = new FakeClock(1_000_000);
  const store = new CallingStore(clock);
  const memo = new Memo({
    store,
    codec,
    apiKey: KEY,
    baseUrl: URL,
    ttlMs,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  return { store, memo, items: store.inner.items };
}

/** Keys the store holds for one memo key: the entry and its pieces. */
const held = (items: Map<string, unknown>, key: string) =>
  [...items.keys()].filter((k) => k === key || k.startsWith(`${key}~`));

describe('what the memo stores', () => {
  test('a value of exactly the size limit is one entry, read back whole', () => {
    const { memo, items } = setup();
    const k = memo.key('lp', 'edge');
    const overhead = `j${JSON.stringify({ t: 1_000_000, v: '' })}`.length;
    const value = 'a'.repeat(MAX_VALUE_BYTES - overhead);
    memo.putMany([[k, value]]);
    expect(held(items, k)).toEqual([k]);
    expect((items.get(k) as { value: string }).value).toHaveLength(MAX_VALUE_BYTES);
    expect(memo.getMany([k]).get(k)?.value).toBe(value);
  });

  test('a chunked value is its marker and its pieces, no more', () => {
    // a codec that does not shrink: the packed text is the JSON padded with spaces (still valid JSON)
    const padding: Codec = { ...nodeCodec, gzip: (t) => t + ' '.repeat(2 * MAX_VALUE_BYTES), gunzip: (p) => p };
    const { memo, items } = setup(padding);
    const k = memo.key('lp', 'big');
    const value = 'b'.repeat(MAX_VALUE_BYTES);
    memo.putMany([[k, value]]);
    const marker = (items.get(k) as { value: string }).value;
    expect(marker).toMatch(/^c\d+$/);
    const n = Number(marker.slice(1));
    expect(held(items, k).sort()).toEqual([k, ...Array.from({ length: n }, (_, i) => `${k}~${i}`)].sort());
    expect(memo.getMany([k]).get(k)?.value).toBe(value);
  });

  test('a chunked value missing a piece is a miss, even when the pieces left would read', () => {
    const padding: Codec = { ...nodeCodec, gzip: (t) => t + ' '.repeat(2 * MAX_VALUE_BYTES), gunzip: (p) => p };
    const { store, memo } = setup(padding);
    const k = memo.key('lp', 'big');
    memo.putMany([[k, 'b'.repeat(MAX_VALUE_BYTES)]]);
    const n = Number((store.inner.items.get(k) as { value: string }).value.slice(1));
    store.inner.removeAll([`${k}~${n - 1}`]); // only padding was in it
    expect(memo.getMany([k]).has(k)).toBe(false);
  });

  test('short-lived copies with a lifetime of one second are written, for one second', () => {
    const { store, memo } = setup(nodeCodec, 1_500);
    const k = memo.key('lp', 'a');
    memo.putMany([[k, 1]], true);
    expect(store.calls).toEqual(['putAll 1']);
    expect(memo.getMany([k]).get(k)?.value).toBe(1);
  });
});

describe('store calls', () => {
  test('entries none of which is chunked are read in one call; a miss answered as null is a miss', () => {
    const { store, memo } = setup();
    const a = memo.key('lp', 'a');
    memo.putMany([[a, 'x']]);
    store.calls.length = 0;
    const got = memo.getMany([a, memo.key('lp', 'missing')]);
    expect([...got.keys()]).toEqual([a]);
    expect(store.calls).toEqual(['getAll']);
  });

  test('removing nothing makes no call', () => {
    const { store, memo } = setup();
    memo.remove([]);
    expect(store.calls).toEqual([]);
    memo.remove([memo.key('lp', 'a')]);
    expect(store.calls).toEqual(['removeAll']);
  });
});

describe('UTF-8 size', () => {
  const texts: Array<[string, string]> = [
    ['ASCII to U+007F', 'a\u007f'],
    ['two bytes from U+0080 to U+07FF', '\u0080\u07ff'],
    ['three bytes from U+0800, up to before the surrogates and after them', '\u0800\ud7ff\ue000\uffff'],
    ['a lone low surrogate (three, as Node encodes it)', 'a\udc00b'],
    ['surrogate pairs from the first to the last high surrogate', '\ud800\udc00\udbff\udfff'],
    ['all mixed', 'aé€😀\u{10000}\u{10fc00}z'],
  ];
  test.each(texts)('%s', (_, text) => {
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });
});

describe('a namespace kept with the key', () => {
  const counting = () => {
    const digested: string[] = [];
    const digest = (t: string) => {
      digested.push(t);
      return nodeCodec.digest(t);
    };
    const codec: Codec = { ...nodeCodec, digest };
    return { codec, digested };
  };
  const memoWith = (codec: Codec, stored: string) =>
    new Memo({
      store: new LimitedStore(new FakeClock()),
      codec,
      apiKey: KEY,
      baseUrl: URL,
      ttlMs: 1000,
      invalidatedBefore: 0,
      now: () => 0,
      stored,
    });

  test('whose check matches is used as it is: nothing is digested', () => {
    const { codec, digested } = counting();
    const stored = Memo.storedNamespace(nodeCodec, KEY, URL);
    const memo = memoWith(codec, stored);
    expect(digested).toEqual([]);
    expect(memo.namespace).toBe(stored.split(':')[1]);
    const check = stored.split(':')[0];
    expect(memoWith(codec, `${check}:${'0'.repeat(20)}`).namespace).toBe('0'.repeat(20));
    expect(digested).toEqual([]);
  });

  test('with anything before or after it is not used', () => {
    const { codec } = counting();
    const own = Memo.namespaceOf(nodeCodec, KEY, URL);
    const forged = `${Memo.storedNamespace(nodeCodec, KEY, URL).split(':')[0]}:${'0'.repeat(20)}`;
    expect(memoWith(codec, `#${forged}`).namespace).toBe(own);
    expect(memoWith(codec, `${forged}#`).namespace).toBe(own);
    expect(memoWith(codec, `${forged}0`).namespace).toBe(own);
  });
});
