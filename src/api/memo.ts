/**
 * Memoization of service answers over a key-value cache with Apps Script's limits: keys of at
 * most 250 characters, values of at most 100 KB, 1,000 items. Each answer is one entry stamped
 * with when it was fetched, stored for the longest time the cache allows: inside the freshness
 * TTL it is served instead of a fetch; past it (or after "refresh all") it is kept only as the
 * last good value, served, marked stale, when the service fails. Large values are gzipped and,
 * if still too big, split into chunks. The namespace is a digest of (API key, base URL), so two
 * keys never share an entry and the key itself never appears in a cache key.
 */
import { fnv1a } from './hash';

export interface CacheStore {
  getAll(keys: string[]): Record<string, string>;
  putAll(values: Record<string, string>, ttlSeconds: number): void;
  removeAll(keys: string[]): void;
}

export interface Codec {
  /** Hex digest of a text (SHA-256 in Apps Script). */
  digest(text: string): string;
  gzip(text: string): string;
  gunzip(packed: string): string;
}

export interface MemoOptions {
  store: CacheStore;
  codec: Codec;
  apiKey: string;
  baseUrl: string;
  /** How long an answer is served without asking the service again. */
  ttlMs: number;
  /** Answers fetched before this instant are stale ("refresh all" moves it); a function is asked only when an answer is judged. */
  invalidatedBefore: number | (() => number);
  now: () => number;
  /**
   * The namespace as stored with the key (`Memo.storedNamespace`), so that an execution need not
   * digest the key again; used only when its check matches this key and address.
   */
  stored?: string;
}

export interface Cached {
  value: unknown;
  fetchedAt: number;
  fresh: boolean;
}

/** The longest expiry CacheService accepts: entries live this long as last good values. */
export const MAX_CACHE_SECONDS = 21600;
export const MAX_KEY_LENGTH = 250;
/** Values are kept below this many UTF-8 bytes (CacheService refuses over 100 KB). */
export const MAX_VALUE_BYTES = 100 * 1024 - 512;

export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** A stored namespace, when its check says it was made for this key and address. */
function fromStored(stored: string | undefined, apiKey: string, baseUrl: string): string | undefined {
  const m = stored ? /^([0-9a-z]+):([0-9a-f]{20})$/.exec(stored) : null;
  return m && m[1] === fnv1a(`${apiKey}\u0000${baseUrl}`).toString(36) ? m[2] : undefined;
}

/**
 * Whether a text is over MAX_VALUE_BYTES in UTF-8, counting only when its length leaves it in
 * doubt: a UTF-16 code unit is 1 to 3 bytes (a surrogate pair, two units, is 4).
 */
export function overLimit(text: string): boolean {
  if (text.length > MAX_VALUE_BYTES) return true;
  return text.length * 3 > MAX_VALUE_BYTES && utf8Length(text) > MAX_VALUE_BYTES;
}

export class Memo {
  readonly namespace: string;
  private readonly o: MemoOptions;

  constructor(options: MemoOptions) {
    this.o = options;
    this.namespace =
      fromStored(options.stored, options.apiKey, options.baseUrl) ??
      Memo.namespaceOf(options.codec, options.apiKey, options.baseUrl);
  }

  /** The cache namespace of a key at an address: a digest, so no cache key shows the key. */
  static namespaceOf(codec: Codec, apiKey: string, baseUrl: string): string {
    return codec.digest(`${apiKey}\u0000${baseUrl}`).slice(0, 20);
  }

  /** The namespace with a cheap check of what it was made for, to keep in the key holder's own store. */
  static storedNamespace(codec: Codec, apiKey: string, baseUrl: string): string {
    return `${fnv1a(`${apiKey}\u0000${baseUrl}`).toString(36)}:${Memo.namespaceOf(codec, apiKey, baseUrl)}`;
  }

  /** The time on the memo's clock (an answer stamped now is fetched at this time). */
  now(): number {
    return this.o.now();
  }

  private invalidatedBefore(): number {
    const v = this.o.invalidatedBefore;
    return typeof v === 'function' ? v() : v;
  }

  /** A cache key for a call: namespaced, and digested when it would pass the length limit. */
  key(tag: string, params: string): string {
    const plain = `${this.namespace}:${tag}:${params}`;
    if (plain.length <= MAX_KEY_LENGTH - 8) return plain;
    return `${this.namespace}:${tag}:#${this.o.codec.digest(params)}`;
  }

  getMany(keys: readonly string[]): Map<string, Cached> {
    const out = new Map<string, Cached>();
    if (keys.length === 0) return out;
    const raw = this.o.store.getAll([...keys]);
    const chunked: Array<[string, number]> = [];
    for (const key of keys) {
      const text = raw[key];
      if (text === undefined || text === null) continue;
      if (text.startsWith('c')) chunked.push([key, Number(text.slice(1))]);
      else this.accept(out, key, text);
    }
    if (chunked.length) {
      const partKeys = chunked.flatMap(([key, n]) => Array.from({ length: n }, (_, i) => `${key}~${i}`));
      const parts = this.o.store.getAll(partKeys);
      for (const [key, n] of chunked) {
        const pieces = Array.from({ length: n }, (_, i) => parts[`${key}~${i}`]);
        if (pieces.every((p) => typeof p === 'string')) this.accept(out, key, pieces.join(''));
      }
    }
    return out;
  }

  /**
   * Stores answers for as long as the cache allows, or (`shortLived`) only for the freshness
   * lifetime: copies of what a longer-lived entry already holds, which the cache should drop first.
   * They are stamped as fetched now, or at `fetchedAt` when what they hold was read earlier (their
   * freshness is judged from that time).
   */
  putMany(entries: ReadonlyArray<readonly [string, unknown]>, shortLived = false, fetchedAt?: number): void {
    if (entries.length === 0) return;
    const seconds = shortLived ? Math.min(MAX_CACHE_SECONDS, Math.floor(this.o.ttlMs / 1000)) : MAX_CACHE_SECONDS;
    if (seconds < 1) return;
    const values: Record<string, string> = {};
    const t = fetchedAt ?? this.o.now();
    for (const [key, value] of entries) {
      // The JSON is gzipped as it is: taking the prefix off again would copy the whole text.
      const json = JSON.stringify({ t, v: value });
      const plain = `j${json}`;
      const text = overLimit(plain) ? `z${this.o.codec.gzip(json)}` : plain;
      if (text.length <= MAX_VALUE_BYTES) {
        values[key] = text;
        continue;
      }
      const size = MAX_VALUE_BYTES; // base64 text is ASCII: one byte a character
      const n = Math.ceil(text.length / size);
      for (let i = 0; i < n; i++) values[`${key}~${i}`] = text.slice(i * size, (i + 1) * size);
      values[key] = `c${n}`;
    }
    this.o.store.putAll(values, seconds);
  }

  remove(keys: readonly string[]): void {
    if (keys.length) this.o.store.removeAll([...keys]);
  }

  private accept(out: Map<string, Cached>, key: string, text: string): void {
    try {
      const json = text.startsWith('z') ? this.o.codec.gunzip(text.slice(1)) : text.slice(1);
      const entry = JSON.parse(json) as { t: number; v: unknown };
      if (typeof entry.t !== 'number') return;
      const fresh = entry.t >= this.invalidatedBefore() && this.o.now() - entry.t < this.o.ttlMs;
      out.set(key, { value: entry.v, fetchedAt: entry.t, fresh });
    } catch {
      // a damaged entry is a miss
    }
  }
}
