/**
 * CacheService: script, user and document caches with Google's limits: keys up to 250
 * characters, values up to 100 KB, expiry from 1 s to 21,600 s (default 600 s) on the simulated
 * clock, and at most 1,000 items, evicting those nearest to expiry first.
 */
import type { Execution } from './execution';
import { COST } from './execution';

export const MAX_KEY_LENGTH = 250;
export const MAX_VALUE_BYTES = 100 * 1024;
export const MAX_ITEMS = 1000;
export const DEFAULT_TTL_S = 600;
export const MAX_TTL_S = 21600;

interface Item {
  value: string;
  expiresAt: number;
}

/** The contents of one cache, kept between executions. */
export class CacheStore {
  readonly items = new Map<string, Item>();

  live(now: number): Map<string, Item> {
    for (const [k, item] of this.items) if (item.expiresAt <= now) this.items.delete(k);
    return this.items;
  }
}

type CacheApi = Pick<GoogleAppsScript.Cache.Cache, 'get' | 'getAll' | 'put' | 'putAll' | 'remove' | 'removeAll'>;

export class EmulatedCache implements CacheApi {
  constructor(
    private readonly store: CacheStore,
    private readonly exec: Execution,
    private readonly label: string,
  ) {}

  private checkKey(key: unknown): string {
    if (typeof key !== 'string') throw this.exec.makeError('Exception: Invalid argument: key');
    if (key.length > MAX_KEY_LENGTH) throw this.exec.makeError('Exception: Argument too large: key');
    return key;
  }

  private checkValue(value: unknown): string {
    const text = String(value);
    if (Buffer.byteLength(text, 'utf8') > MAX_VALUE_BYTES)
      throw this.exec.makeError('Exception: Argument too large: value');
    return text;
  }

  private ttl(seconds: number | undefined): number {
    const s = seconds === undefined ? DEFAULT_TTL_S : seconds;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 1 || s > MAX_TTL_S) {
      throw this.exec.makeError('Exception: Invalid argument: expirationInSeconds');
    }
    return Math.floor(s) * 1000;
  }

  get(key: string): string | null {
    this.exec.charge(`${this.label}.get`, COST.cache);
    const item = this.store.live(this.exec.clock.now()).get(this.checkKey(key));
    if (item) this.exec.ledger.cacheHits++;
    else this.exec.ledger.cacheMisses++;
    return item ? item.value : null;
  }

  getAll(keys: string[]): Record<string, string> {
    this.exec.charge(`${this.label}.getAll`, COST.cache);
    const live = this.store.live(this.exec.clock.now());
    const out: Record<string, string> = {};
    for (const key of keys.map((k) => this.checkKey(k))) {
      const item = live.get(key);
      if (item) {
        out[key] = item.value;
        this.exec.ledger.cacheHits++;
      } else this.exec.ledger.cacheMisses++;
    }
    return out;
  }

  put(key: string, value: string, expirationInSeconds?: number): void {
    this.exec.charge(`${this.label}.put`, COST.cache);
    this.insert([[this.checkKey(key), this.checkValue(value)]], this.ttl(expirationInSeconds));
  }

  putAll(values: Record<string, string>, expirationInSeconds?: number): void {
    this.exec.charge(`${this.label}.putAll`, COST.cache);
    const ttl = this.ttl(expirationInSeconds);
    this.insert(
      Object.entries(values).map(([k, v]) => [this.checkKey(k), this.checkValue(v)]),
      ttl,
    );
  }

  remove(key: string): void {
    this.exec.charge(`${this.label}.remove`, COST.cache);
    this.store.items.delete(this.checkKey(key));
  }

  removeAll(keys: string[]): void {
    this.exec.charge(`${this.label}.removeAll`, COST.cache);
    for (const key of keys) this.store.items.delete(this.checkKey(key));
  }

  private insert(entries: Array<[string, string]>, ttlMs: number): void {
    const live = this.store.live(this.exec.clock.now());
    const expiresAt = this.exec.clock.now() + ttlMs;
    for (const [key, value] of entries) {
      live.delete(key);
      live.set(key, { value, expiresAt });
    }
    if (live.size > MAX_ITEMS) {
      const byExpiry = [...live.entries()].sort((a, b) => a[1].expiresAt - b[1].expiresAt);
      for (const [key] of byExpiry.slice(0, live.size - MAX_ITEMS)) live.delete(key);
    }
  }
}

export class EmulatedCacheService
  implements Pick<GoogleAppsScript.Cache.CacheService, 'getScriptCache' | 'getUserCache' | 'getDocumentCache'>
{
  constructor(
    private readonly exec: Execution,
    private readonly stores: (scope: string) => CacheStore,
  ) {}
  getScriptCache(): GoogleAppsScript.Cache.Cache {
    return new EmulatedCache(
      this.stores('script'),
      this.exec,
      'ScriptCache',
    ) as unknown as GoogleAppsScript.Cache.Cache;
  }
  getUserCache(): GoogleAppsScript.Cache.Cache {
    return new EmulatedCache(
      this.stores(`user:${this.exec.readOnly ? this.exec.owner : this.exec.user}`),
      this.exec,
      'UserCache',
    ) as unknown as GoogleAppsScript.Cache.Cache;
  }
  getDocumentCache(): GoogleAppsScript.Cache.Cache | null {
    return new EmulatedCache(
      this.stores('document'),
      this.exec,
      'DocumentCache',
    ) as unknown as GoogleAppsScript.Cache.Cache;
  }
}
