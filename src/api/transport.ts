/**
 * The client's view of the outside world: a synchronous batch HTTP transport and a clock.
 * Apps Script supplies them through UrlFetchApp and Utilities.sleep (src/gas); tests supply fakes.
 */

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends requests in parallel; a request that could not be sent at all yields an Error in its place. */
export interface Transport {
  fetchAll(requests: readonly HttpRequest[]): Array<HttpResponse | Error>;
}

export interface Clock {
  now(): number;
  sleep(ms: number): void;
}

/** Header lookup that ignores case, as HTTP does. */
export function header(res: HttpResponse, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(res.headers)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}
