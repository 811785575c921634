/**
 * The client's view of the outside world: a synchronous HTTP transport that gives one outcome per
 * request, and a clock. Apps Script sends a batch with UrlFetchApp.fetchAll, which is all or
 * nothing: when one request cannot be sent, the call throws and says nothing of the others.
 * `perRequest` turns such a batch sender into a Transport: when the batch throws, each request is
 * sent alone and gets its own answer or error, so no layer above ever guesses which calls went out.
 * Apps Script supplies the sender and clock (src/gas); tests supply fakes.
 */
import { type ServiceError, unsent } from './errors';

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends requests in parallel and gives one outcome per request, in order: its answer, or the Error
 * that kept it from being answered. No request is started after `until` (clock ms); one left unsent
 * gets an UNSENT error.
 */
export interface Transport {
  fetchAll(requests: readonly HttpRequest[], until?: number): Array<HttpResponse | Error>;
}

/** Sends a batch at once; throws when any request of it cannot be sent (UrlFetchApp.fetchAll). */
export type BatchSender = (requests: readonly HttpRequest[]) => HttpResponse[];

/** Admits `n` requests about to go: how many of them (the first ones) may, and the error for the rest. */
export type Admit = (n: number) => { admitted: number; refusal?: ServiceError };

export interface Clock {
  now(): number;
  sleep(ms: number): void;
}

const admitAll: Admit = (n) => ({ admitted: n });

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/**
 * A Transport over an all-or-nothing batch sender. `admit` (the quota guard) counts requests before
 * they go and may refuse some; a request sent again alone is admitted again. When the batch throws,
 * its requests are sent again alone while `until` allows; those it leaves are UNSENT when a request
 * sent alone was answered (the batch failed for another request), and keep the batch's error when
 * none was (then the batch's failure is all that is known of them).
 */
export function perRequest(send: BatchSender, now: () => number, admit: Admit = admitAll): Transport {
  const attempt = (requests: readonly HttpRequest[], until: number, alone: boolean): Array<HttpResponse | Error> => {
    const { admitted, refusal } = admit(requests.length);
    const going = requests.slice(0, admitted);
    const refused = requests.slice(admitted).map(() => refusal as Error);
    if (going.length === 0) return refused;
    try {
      return [...send(going), ...refused];
    } catch (e) {
      return [...(alone || going.length === 1 ? [asError(e)] : oneByOne(going, until, asError(e))), ...refused];
    }
  };
  const oneByOne = (requests: readonly HttpRequest[], until: number, error: Error): Array<HttpResponse | Error> => {
    const out = requests.map((r) => (now() > until ? undefined : attempt([r], until, true)[0]));
    const answered = out.some((o) => o !== undefined && !(o instanceof Error));
    return out.map((o) => o ?? (answered ? unsent() : error));
  };
  return {
    fetchAll(requests, until = Number.POSITIVE_INFINITY) {
      if (requests.length === 0) return [];
      if (now() > until) return requests.map(() => unsent());
      return attempt(requests, until, false);
    },
  };
}

/** Header lookup that ignores case, as HTTP does. */
export function header(res: HttpResponse, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(res.headers)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}
