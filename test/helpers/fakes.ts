/** Fakes for the pure client: a scripted transport, a manual clock, a cache store with Apps Script's limits. */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { CacheStore, Codec } from '../../src/api/memo';
import type { Clock, HttpRequest, HttpResponse, Transport } from '../../src/api/transport';

export type Handler = (url: URL, req: HttpRequest) => HttpResponse | Error;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** A list's page as the service answers it: `page` and `limit` from the URL, at most `cap` a page. */
export function pageAnswer(items: readonly unknown[], url: URL, cap = 100): HttpResponse {
  const page = Number(url.searchParams.get('page') ?? 1);
  const size = Math.min(cap, Number(url.searchParams.get('limit') ?? 10));
  const data = items.slice((page - 1) * size, page * size);
  const pagination = {
    totalItems: items.length,
    totalPages: Math.ceil(items.length / size),
    currentPage: page,
    pageSize: size,
  };
  return json(200, { data, pagination });
}

export class FakeTransport implements Transport {
  readonly requests: HttpRequest[] = [];
  batches = 0;
  constructor(public handler: Handler) {}
  fetchAll(requests: readonly HttpRequest[]): Array<HttpResponse | Error> {
    this.batches++;
    this.requests.push(...requests);
    return requests.map((r) => this.handler(new URL(r.url), r));
  }
}

export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(public t = 1_800_000_000_000) {}
  now(): number {
    return this.t;
  }
  sleep(ms: number): void {
    this.sleeps.push(ms);
    this.t += ms;
  }
}

export class LimitedStore implements CacheStore {
  readonly items = new Map<string, { value: string; expiresAt: number }>();
  getAllCalls = 0;
  constructor(private readonly clock: FakeClock) {}
  getAll(keys: string[]): Record<string, string> {
    this.getAllCalls++;
    const out: Record<string, string> = {};
    for (const k of keys) {
      const item = this.items.get(k);
      if (item && item.expiresAt > this.clock.now()) out[k] = item.value;
    }
    return out;
  }
  putAll(values: Record<string, string>, ttlSeconds: number): void {
    if (ttlSeconds > 21600) throw new Error('expirationInSeconds');
    for (const [k, v] of Object.entries(values)) {
      if (k.length > 250) throw new Error('Argument too large: key');
      if (Buffer.byteLength(v) > 100 * 1024) throw new Error('Argument too large: value');
      this.items.set(k, { value: v, expiresAt: this.clock.now() + ttlSeconds * 1000 });
    }
  }
  removeAll(keys: string[]): void {
    for (const k of keys) this.items.delete(k);
  }
}

export const nodeCodec: Codec = {
  digest: (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
  gzip: (text) => gzipSync(Buffer.from(text, 'utf8')).toString('base64'),
  gunzip: (packed) => gunzipSync(Buffer.from(packed, 'base64')).toString('utf8'),
};
