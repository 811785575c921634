/**
 * UrlFetchApp: real, synchronous HTTP (a worker thread does the I/O while this thread waits on
 * Atomics), fetchAll in parallel with results in order, muteHttpExceptions, headers, redirects,
 * Google's errors for non-2xx responses, URLs over 2,082 characters and responses over 50 MB,
 * the daily fetch quota (20,000 for consumer accounts, reset 24 h after the first request), and the manifest's urlFetchWhitelist
 * (when the project has one, a URL outside its prefixes is refused). A fetch is charged the real
 * time it took, or under a clock model (execution.ts, ClockModel) the model's cost instead.
 */
import { join } from 'node:path';
import { createSyncFn } from 'synckit';
import type { ClockModel, Execution, Ledger } from './execution';
import { Blob } from './utilities';

type FetchApp = Pick<GoogleAppsScript.URL_Fetch.UrlFetchApp, 'fetch' | 'fetchAll'>;
type Response = Pick<
  GoogleAppsScript.URL_Fetch.HTTPResponse,
  'getResponseCode' | 'getContentText' | 'getAllHeaders' | 'getHeaders' | 'getContent' | 'getBlob'
>;

export const MAX_URL_LENGTH = 2082;
export const MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
export const DAILY_FETCH_QUOTA = 20000;
export const QUOTA_WINDOW_MS = 24 * 3600_000;

interface WireRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  payload?: string;
  followRedirects?: boolean;
}
interface WireResult {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  text?: string;
  error?: string;
  /** Set when the request was abandoned at the fetch timeout. */
  timedOut?: boolean;
  elapsedMs: number;
}

type FetchThread = (requests: WireRequest[] | 'warm-up', timeoutMs: number, maxBytes: number) => WireResult[];
let worker: FetchThread | undefined;
/**
 * The fetch thread, started (and its HTTP client loaded and run once, against a throwaway server
 * of its own on this machine) outside the execution's charged time: starting it takes the
 * emulator up to a second or more on a loaded machine, which Google never spends, and once
 * charged it made the process's first fetching execution look that much slower than the rest.
 */
function syncFetch(exec: Execution): FetchThread {
  if (!worker) {
    const started = createSyncFn(join(__dirname, 'fetch-worker.mjs'), { timeout: 15 * 60 * 1000 }) as FetchThread;
    exec.uncharged(() => started('warm-up', 60_000, 0));
    worker = started;
  }
  return worker;
}

/**
 * The transfer rate of a modelled fetch when the model names none: 5,000 bytes a millisecond
 * (5 MB/s, 40 Mbit/s), well below a datacenter's links, so a page is charged no less than it
 * takes to move.
 */
export const FETCH_BYTES_PER_MS = 5_000;

/**
 * How many requests of one fetchAll Google has in flight at once, under a clock model. Google does
 * not document it ("fetchAll … makes multiple requests … asynchronously", no number). Measurements
 * people publish show the requests overlap (tanaikech's benchmark of fetchAll, 2018: several
 * slow requests end together), and reports put the number of fetches of one script in flight at
 * about 10 to 20 (magesheet.com, "The hidden cost of UrlFetchApp": "concurrent UrlFetch calls per
 * script: not officially documented, observed around 10–20"). We take the low end, so that no
 * batch is charged less than it may take at Google; ClockModel.fetchConcurrency changes it.
 */
export const FETCH_CONCURRENCY = 10;

/**
 * What a batch of requests costs under a clock model: Google sends the requests of one fetchAll
 * in parallel, at most `fetchConcurrency` in flight (FETCH_CONCURRENCY), each next one as soon as
 * one ends, in the batch's order; the batch ends when its last request does (a fetch is a batch of
 * one). A request costs the latency plus its bytes (payload sent, body received) at the rate; one
 * abandoned at the timeout costs the timeout. This is not kinder than Google: the latency is the
 * service's round trip, which every fetch from Google waits too, and the rate is below what
 * Google's links carry, so no request is charged less than it must take anywhere. (Google's own
 * overhead per fetch, which it does not publish, is left out, as the wall clock on this machine
 * leaves it out.)
 */
export function modelledFetchMs(
  model: ClockModel,
  requests: ReadonlyArray<{ payload?: string }>,
  results: ReadonlyArray<Pick<WireResult, 'text' | 'body' | 'timedOut'>>,
  timeoutMs: number,
): number {
  const rate = model.bytesPerMs ?? FETCH_BYTES_PER_MS;
  const lanes = Math.max(1, Math.floor(model.fetchConcurrency ?? FETCH_CONCURRENCY));
  const costs = results.map((res, i) => {
    if (res.timedOut) return timeoutMs;
    const sent = Buffer.byteLength(requests[i]?.payload ?? '', 'utf8');
    const received =
      res.text !== undefined ? Buffer.byteLength(res.text, 'utf8') : Buffer.byteLength(res.body ?? '', 'base64');
    return model.latencyMs + (sent + received) / rate;
  });
  // Each request starts on the lane that frees first.
  const freeAt = new Array<number>(Math.min(lanes, costs.length)).fill(0);
  for (const cost of costs) {
    let lane = 0;
    for (let k = 1; k < freeAt.length; k++) if (freeAt[k] < freeAt[lane]) lane = k;
    freeAt[lane] += cost;
  }
  return Math.max(0, ...freeAt);
}

/** Whether a URL points at this machine (127.0.0.0/8, localhost, [::1]). */
export function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  } catch {
    return false;
  }
}

/** Whether a URL starts with one of the manifest's urlFetchWhitelist prefixes (a leading `*.` matches any subdomain). */
export function allowedByManifest(url: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => {
    const wild = /^https:\/\/\*\.([^/]+)(\/.*)$/.exec(prefix);
    if (!wild) return url.startsWith(prefix);
    const m = /^https:\/\/([^/?#]+)(.*)$/.exec(url);
    return !!m && m[1].endsWith(`.${wild[1]}`) && m[2].startsWith(wild[2]);
  });
}

/**
 * Google's rule (developers.google.com/apps-script/guides/services/quotas): quotas are per user
 * and reset 24 hours after the first request, not at a fixed hour. `windowStart` is the first
 * request of the current window (0 before any).
 */
export interface FetchQuota {
  windowStart: number;
  used: number;
  limit: number;
}

class HttpResponse implements Response {
  private cached: Buffer | undefined;
  constructor(
    private readonly status: number,
    private readonly headers: Record<string, string>,
    private readonly wire: WireResult,
    private readonly exec: Execution,
  ) {}
  private get bytes(): Buffer {
    this.cached ??=
      this.wire.text !== undefined ? Buffer.from(this.wire.text, 'utf8') : Buffer.from(this.wire.body ?? '', 'base64');
    return this.cached;
  }
  getResponseCode(): number {
    return this.status;
  }
  getContentText(charset?: string): string {
    if (this.wire.text !== undefined && !(charset && /^utf-?16/i.test(charset))) return this.wire.text;
    return this.bytes.toString(charset && /^utf-?16/i.test(charset) ? 'utf16le' : 'utf8');
  }
  getAllHeaders(): object {
    return { ...this.headers };
  }
  getHeaders(): object {
    return { ...this.headers };
  }
  getContent(): number[] {
    return [...this.bytes].map((b) => (b > 127 ? b - 256 : b));
  }
  getBlob(): GoogleAppsScript.Base.Blob {
    return new Blob(
      this.bytes,
      this.headers['content-type'] ?? 'application/octet-stream',
      this.exec,
    ) as unknown as GoogleAppsScript.Base.Blob;
  }
}

type Params = GoogleAppsScript.URL_Fetch.URLFetchRequestOptions;

export class EmulatedUrlFetchApp implements FetchApp {
  constructor(
    private readonly exec: Execution,
    private readonly quota: FetchQuota,
    private readonly timeoutMs: number,
    private readonly maxBytes = MAX_RESPONSE_BYTES,
    private readonly loopbackOnly = true,
    private readonly allowlist: readonly string[] | null = null,
    private readonly onFetch?: (ledger: Ledger, urls: string[]) => void,
  ) {}

  fetch(url: string, params: Params = {}): GoogleAppsScript.URL_Fetch.HTTPResponse {
    this.exec.charge('UrlFetchApp.fetch', 0);
    return this.send([{ ...params, url }])[0];
  }

  fetchAll(
    requests: Array<GoogleAppsScript.URL_Fetch.URLFetchRequest | string>,
  ): GoogleAppsScript.URL_Fetch.HTTPResponse[] {
    this.exec.charge('UrlFetchApp.fetchAll', 0);
    this.exec.ledger.fetchAllCalls++;
    return this.send(requests.map((r) => (typeof r === 'string' ? { url: r } : r)));
  }

  private send(requests: Array<Params & { url: string }>): GoogleAppsScript.URL_Fetch.HTTPResponse[] {
    const err = this.exec.makeError;
    for (const r of requests) {
      if (typeof r.url !== 'string' || !/^https?:\/\//i.test(r.url))
        throw err(`Exception: Invalid argument: ${String(r.url).slice(0, 100)}`);
      if (r.url.length > MAX_URL_LENGTH) throw err('Exception: Limit Exceeded: URLFetch URL Length.');
      if (this.allowlist && !allowedByManifest(r.url, this.allowlist))
        throw err(
          `Exception: Request to ${r.url} failed because the URL has not been whitelisted in the script manifest.`,
        );
      if (this.loopbackOnly && !isLoopback(r.url))
        throw err(
          `Exception: Address unavailable: ${new URL(r.url).origin} (the emulator only fetches from this machine)`,
        );
    }
    const now = this.exec.clock.now();
    if (!this.quota.windowStart || now >= this.quota.windowStart + QUOTA_WINDOW_MS)
      Object.assign(this.quota, { windowStart: now, used: 0 });
    if (this.quota.used + requests.length > this.quota.limit)
      throw err('Exception: Service invoked too many times for one day: urlfetch.');
    this.quota.used += requests.length;
    this.exec.ledger.fetches += requests.length;
    this.onFetch?.(
      this.exec.ledger,
      requests.map((r) => r.url),
    );
    const fetchAll = syncFetch(this.exec);
    const wire: WireRequest[] = requests.map((r) => ({
      url: r.url,
      method: r.method,
      headers: r.headers as Record<string, string> | undefined,
      payload: typeof r.payload === 'string' ? r.payload : undefined,
      followRedirects: r.followRedirects,
    }));
    const model = this.exec.fetchModel;
    let results: WireResult[];
    if (model) {
      // Whatever the requests took here (wall or CPU time, this thread's or the fetch thread's) is
      // replaced by what the model says they cost.
      results = this.exec.uncharged(() => fetchAll(wire, this.timeoutMs, this.maxBytes));
      this.exec.clock.advance(modelledFetchMs(model, wire, results, this.timeoutMs));
    } else {
      this.exec.syncReal();
      results = fetchAll(wire, this.timeoutMs, this.maxBytes);
      this.exec.syncReal();
    }
    this.exec.check();
    return results.map((res, i) => {
      if (res.error) throw err(res.error);
      const response = new HttpResponse(res.status as number, res.headers ?? {}, res, this.exec);
      const code = res.status as number;
      if (!requests[i].muteHttpExceptions && (code < 200 || code >= 300)) {
        const text = response.getContentText().slice(0, 100);
        throw err(
          `Exception: Request failed for ${new URL(requests[i].url).origin} returned code ${code}. Truncated server response: ${text} (use muteHttpExceptions option to examine full response)`,
        );
      }
      return response as unknown as GoogleAppsScript.URL_Fetch.HTTPResponse;
    });
  }
}
