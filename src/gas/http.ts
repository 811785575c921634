/**
 * The Transport over UrlFetchApp. fetchAll sends a batch in parallel; HTTP errors come back as
 * responses (muteHttpExceptions). When fetchAll throws because one request could not be sent at
 * all (no answer in time, an address that cannot be reached), every request of the batch gets
 * that error: the client sends them again one by one, each through the quota guard and within its
 * deadline (src/api/client.ts), so that only the one that cannot be sent fails. The add-in's
 * fetches go through the quota guard (`guardedUrlFetch`), which counts them in the user cache
 * (custom functions see the owner's, whose quota they spend) and refuses a batch past the margin.
 */
import { DEFAULT_QUOTA_POLICY, FetchBudget, guardedTransport, type QuotaStore } from '../api/quota';
import type { HttpRequest, HttpResponse, Transport } from '../api/transport';

function params(r: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  return { url: r.url, method: 'get', headers: r.headers, muteHttpExceptions: true, followRedirects: true };
}

function read(res: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse {
  const headers: Record<string, string> = {};
  const all = res.getAllHeaders() as Record<string, unknown>;
  for (const [k, v] of Object.entries(all)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: res.getResponseCode(), headers, body: res.getContentText() };
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

export const urlFetchTransport: Transport = {
  fetchAll(requests) {
    if (requests.length === 0) return [];
    try {
      return UrlFetchApp.fetchAll(requests.map(params)).map(read);
    } catch (e) {
      const error = asError(e);
      return requests.map(() => error);
    }
  },
};

const userCache: QuotaStore = {
  getAll: (keys) => CacheService.getUserCache().getAll([...keys]) as Record<string, string>,
  putAll: (values, ttlSeconds) => {
    if (Object.keys(values).length) CacheService.getUserCache().putAll(values, ttlSeconds);
  },
};

/** This execution's fetch budget (one per execution: its slot is chosen once). */
export function fetchBudget(dailyLimit: number): FetchBudget {
  return new FetchBudget({ store: userCache, now: () => Date.now(), policy: { ...DEFAULT_QUOTA_POLICY, dailyLimit } });
}

/** UrlFetchApp behind the quota guard: what every fetch of the add-in goes through. */
export function guardedUrlFetch(dailyLimit: number): Transport {
  return guardedTransport(urlFetchTransport, fetchBudget(dailyLimit));
}
