/**
 * The Transport over UrlFetchApp. fetchAll sends a batch in parallel; HTTP errors come back as
 * responses (muteHttpExceptions). fetchAll is all or nothing: when one request cannot be sent (no
 * answer in time, an address that cannot be reached) it throws; `perRequest` (src/api/transport.ts)
 * then sends each request alone, so each gets its own answer or error. Every request goes through
 * the quota guard first (`guardedUrlFetch`), which counts it in the user cache (custom functions
 * see the owner's, whose quota they spend) and refuses what would pass the margin. Redirects are
 * not followed: the key is in the query, and a redirect would take it to an address its owner never
 * confirmed (src/api/response.ts names the target instead).
 */
import { DEFAULT_QUOTA_POLICY, FetchBudget, type QuotaStore } from '../api/quota';
import { type HttpRequest, type HttpResponse, perRequest, type Transport } from '../api/transport';

function params(r: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  return { url: r.url, method: 'get', headers: r.headers, muteHttpExceptions: true, followRedirects: false };
}

function read(res: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse {
  const headers: Record<string, string> = {};
  const all = res.getAllHeaders() as Record<string, unknown>;
  for (const [k, v] of Object.entries(all)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: res.getResponseCode(), headers, body: res.getContentText() };
}

const sendBatch = (requests: readonly HttpRequest[]): HttpResponse[] =>
  UrlFetchApp.fetchAll(requests.map(params)).map(read);

const userCache: QuotaStore = {
  getAll: (keys) => CacheService.getUserCache().getAll([...keys]) as Record<string, string>,
  putAll: (values, ttlSeconds) => {
    if (Object.keys(values).length) CacheService.getUserCache().putAll(values, ttlSeconds);
  },
};

/** This execution's fetch budget (one per execution: its slot is chosen once), for the daily limit set (else the default). */
export function fetchBudget(dailyLimit?: number): FetchBudget {
  const policy = { ...DEFAULT_QUOTA_POLICY, dailyLimit: dailyLimit ?? DEFAULT_QUOTA_POLICY.dailyLimit };
  return new FetchBudget({ store: userCache, now: () => Date.now(), policy });
}

/** UrlFetchApp behind the quota guard: what every fetch of the add-in goes through. */
export function guardedUrlFetch(dailyLimit?: number): Transport {
  return perRequest(sendBatch, () => Date.now(), fetchBudget(dailyLimit).admit);
}
