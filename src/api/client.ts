/**
 * The service client: one typed method per operation over one batch engine. The engine serves
 * fresh answers from the memo, sends the rest through the transport in bounded parallel
 * batches, retries what may succeed later (backoff, jitter, Retry-After) within the execution's
 * deadline, falls back to the second listed path of the active-partners list, and when the
 * service fails hands back the last good value, marked stale, where one exists.
 */
import { badInput, ServiceError, toServiceError } from './errors';
import type { Health } from './health';
import type { Cached, Memo } from './memo';
import { type Operation, type OperationName, OPERATIONS, readPagination, recordList, singleRecord } from './operations';
import type { JsonValue, Page, ServiceRecord } from './records';
import { interpret } from './response';
import { DEFAULT_RETRY, type RetryPolicy, retryDelay } from './retry';
import type { Clock, HttpRequest, HttpResponse, Transport } from './transport';
import { buildUrl, type QueryValue } from './url';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  transport: Transport;
  clock: Clock;
  memo?: Memo;
  retry?: RetryPolicy;
  /** Absolute time (clock ms) by which every call must have ended. */
  deadline?: number;
  /** Requests sent at once in one fetchAll. */
  parallelism?: number;
  random?: () => number;
  /** Memory of a hung service: while it says so, nothing is fetched (stale copies are served). */
  health?: Health;
}

export type Outcome<T> = { ok: true; value: T; staleSince?: number } | { ok: false; error: ServiceError };

export interface CallStats {
  fetches: number;
  retries: number;
  cacheHits: number;
  staleServed: number;
}

/** A call still to send: its attempt count and the time (clock ms) before which it must not go. */
interface Pending {
  i: number;
  attempt: number;
  at: number;
  sent: boolean;
  /**
   * Sent in a batch of its own: the batch (numbered) failed whole, and only a request alone shows
   * which one cannot be sent. Not sent again alone before the deadline, it ends as not sent when
   * another call of that batch was; when none was, every one keeps the batch's error, so that a
   * step whose batches all fail sees the failure.
   */
  alone?: number;
}

interface Call<T> {
  op: Operation;
  query: Record<string, QueryValue>;
  id?: string;
  cache: boolean;
  read: (data: JsonValue | undefined, body: { [key: string]: JsonValue }) => T;
}

/** The longest URL UrlFetchApp accepts. */
export const MAX_URL_LENGTH = 2082;
/** The message of a request the client had no time left to send before its deadline. */
export const UNSENT_MESSAGE = 'Ran out of time before the data service answered; recalculate to load the rest.';
/** Time kept in hand at the deadline for writing results. */
export const DEADLINE_MARGIN_MS = 1500;

export class Client {
  readonly stats: CallStats = { fetches: 0, retries: 0, cacheHits: 0, staleServed: 0 };
  private readonly o: ClientOptions;
  private readonly policy: RetryPolicy;
  private readonly pathChoice = new Map<OperationName, number>();
  private stepDeadline?: number;

  constructor(options: ClientOptions) {
    if (!options.apiKey) throw new ServiceError('NO_KEY', 'No API key: open Investor Data ▸ Settings and save your key.');
    this.o = options;
    this.policy = options.retry ?? DEFAULT_RETRY;
  }

  limitedPartners(ids: readonly string[]): Outcome<ServiceRecord>[] {
    return this.byId(OPERATIONS.getLimitedPartnerById, ids);
  }

  firms(ids: readonly string[]): Outcome<ServiceRecord>[] {
    return this.byId(OPERATIONS.getLimitedPartnersAndTheirFirms, ids);
  }

  labels(ids: readonly string[]): Outcome<ServiceRecord>[] {
    return this.byId(OPERATIONS.getLabelsByLimitedPartnerId, ids);
  }

  funds(ids: readonly string[]): Outcome<ServiceRecord>[] {
    return this.byId(OPERATIONS.getVentureFundById, ids);
  }

  lastFundSizes(ids: readonly string[]): Outcome<JsonValue>[] {
    const op = OPERATIONS.getLastFundSizeByVentureFundId;
    return this.run(ids.map((id) => this.idCall(op, id, (data) => {
      const value = singleRecord(data, op, id).lastFundSize;
      return value === undefined ? null : value;
    })));
  }

  /** The memo keys of limited partners' answers (undefined for a blank id, or without a memo). */
  partnerKeys(ids: readonly string[]): Array<string | undefined> {
    const op = OPERATIONS.getLimitedPartnerById;
    return ids.map((id) => (String(id ?? '').trim() ? this.cacheKey(this.idCall(op, id, () => null)) : undefined));
  }

  /** Limited partners whose fresh answer is in the memo (nothing is fetched). */
  peekPartners(ids: readonly string[], hits?: Map<string, Cached>): Map<string, ServiceRecord> {
    const out = new Map<string, ServiceRecord>();
    if (!this.o.memo) return out;
    const keys = this.partnerKeys(ids);
    const found = hits ?? this.o.memo.getMany([...new Set(keys.filter((k): k is string => !!k))]);
    ids.forEach((id, i) => {
      const hit = found.get(keys[i] as string);
      if (hit?.fresh && !isMissing(hit.value) && hit.value && typeof hit.value === 'object') out.set(id, hit.value as ServiceRecord);
    });
    return out;
  }

  /** Time left before the deadline's margin (Infinity without a deadline). */
  timeLeft(): number {
    return this.o.deadline === undefined ? Number.POSITIVE_INFINITY : this.o.deadline - DEADLINE_MARGIN_MS - this.o.clock.now();
  }

  /** Pages of the active-partners list, fetched together. */
  activePartnerPages(pages: readonly number[], limit: number, cache = false): Outcome<Page<ServiceRecord>>[] {
    const op = OPERATIONS.getAllActiveLimitedPartners;
    return this.run(pages.map((page) => this.pageCall(op, { page, limit }, cache)));
  }

  /** Pages of a fund's industries, fetched together. */
  industriesPages(fundId: string, pages: readonly number[], limit: number): Outcome<Page<ServiceRecord>>[] {
    const op = OPERATIONS.getIndustriesByVentureFundId;
    const id = requireId(fundId);
    return this.run(pages.map((page) => this.pageCall(op, { [op.idParam as string]: id, page, limit }, true, fundId)));
  }

  private byId(op: Operation, ids: readonly string[]): Outcome<ServiceRecord>[] {
    return this.run(ids.map((id) => this.idCall(op, id, (data) => singleRecord(data, op, id))));
  }

  private idCall<T>(op: Operation, id: string, read: Call<T>['read']): Call<T> {
    return { op, id, cache: true, query: { [op.idParam as string]: requireId(id) }, read };
  }

  private pageCall(op: Operation, query: Record<string, QueryValue>, cache: boolean, id?: string): Call<Page<ServiceRecord>> {
    const requested = { page: Number(query.page), limit: Number(query.limit) };
    return {
      op, query, cache, id,
      read: (data, body) => {
        const items = recordList(data, op);
        return { items, pagination: readPagination(body.pagination, requested) };
      },
    };
  }

  private url(call: Call<unknown>, withKey: boolean): string {
    const path = call.op.paths[this.pathIndex(call.op)];
    return buildUrl(this.o.baseUrl, path, withKey ? { ...call.query, apiKey: this.o.apiKey } : call.query);
  }

  private pathIndex(op: Operation): number {
    if (!this.pathChoice.has(op.name)) {
      let saved = 0;
      if (op.paths.length > 1 && this.o.memo) {
        const hit = this.o.memo.getMany([this.pathKey(op)]).get(this.pathKey(op));
        if (hit && typeof hit.value === 'number' && hit.value < op.paths.length) saved = hit.value;
      }
      this.pathChoice.set(op.name, saved);
    }
    return this.pathChoice.get(op.name) as number;
  }

  private pathKey(op: Operation): string {
    return (this.o.memo as Memo).key('path', op.tag);
  }

  private cacheKey(call: Call<unknown>): string | undefined {
    if (!call.cache || !this.o.memo) return undefined;
    const params = Object.keys(call.query).sort().map((k) => `${k}=${encodeURIComponent(String(call.query[k]))}`).join('&');
    return this.o.memo.key(call.op.tag, params);
  }

  private run<T>(calls: Call<T>[]): Outcome<T>[] {
    const out: Array<Outcome<T> | undefined> = new Array(calls.length);
    const keys = calls.map((c) => this.cacheKey(c));
    const cached = this.o.memo ? this.o.memo.getMany([...new Set(keys.filter((k): k is string => !!k))]) : new Map();
    const pending: number[] = [];
    calls.forEach((call, i) => {
      const hit = keys[i] ? cached.get(keys[i] as string) : undefined;
      if (hit?.fresh) {
        this.stats.cacheHits++;
        out[i] = isMissing(hit.value) ? { ok: false, error: new ServiceError('NOT_FOUND', hit.value.$missing) } : { ok: true, value: hit.value as T };
      } else if (this.url(call, true).length > MAX_URL_LENGTH) {
        out[i] = { ok: false, error: badInput(`The id is too long for a request URL (${String(call.id ?? '').length} characters).`) };
      } else pending.push(i);
    });
    const hung = pending.length ? this.o.health?.hung() : undefined;
    if (hung) {
      for (const i of pending) out[i] = { ok: false, error: new ServiceError('TIMEOUT', hung) };
      pending.length = 0;
    }
    const fresh: Array<[string, unknown]> = [];
    const hasCopy = (i: number) => {
      const hit = keys[i] ? cached.get(keys[i] as string) : undefined;
      return hit !== undefined && !isMissing(hit.value);
    };
    this.fetchWithRetry(calls, pending, out, hasCopy, (i, value) => {
      if (keys[i]) fresh.push([keys[i] as string, value]);
    });
    // Unknown ids are remembered too, so a sheet full of typos does not refetch them on every
    // recalculation; but a "not found" never replaces a good copy (it stays the last good value).
    pending.forEach((i) => {
      const o = out[i];
      if (keys[i] && o && !o.ok && o.error.code === 'NOT_FOUND' && calls[i].id !== undefined && !hasCopy(i)) fresh.push([keys[i] as string, { $missing: o.error.message }]);
    });
    if (this.o.memo && fresh.length) this.o.memo.putMany(fresh);
    return out.map((o, i) => {
      const result = o as Outcome<T>;
      const hit = keys[i] ? cached.get(keys[i] as string) : undefined;
      if (!result.ok && hit && hasCopy(i) && result.error.fallsBack) {
        this.stats.staleServed++;
        return { ok: true, value: hit.value as T, staleSince: hit.fetchedAt };
      }
      return result;
    });
  }

  /**
   * Sends the pending calls, each with its own not-before time: a call that failed and may succeed
   * later waits alone (Retry-After, or backoff) while the others, and later batches, go on. When
   * nothing is ready the client sleeps only until the earliest call is, and never past the
   * deadline: a call that could only be retried after it keeps its last error, and one never sent
   * fails with TIMEOUT.
   */
  private fetchWithRetry<T>(calls: Call<T>[], pending: number[], out: Array<Outcome<T> | undefined>, hasCopy: (i: number) => boolean, onValue: (i: number, v: T) => void): void {
    const secrets = [this.o.apiKey];
    const parallelism = Math.max(1, this.o.parallelism ?? 20);
    const queue: Pending[] = pending.map((i) => ({ i, attempt: 0, at: 0, sent: false }));
    /** Batches that failed whole, and those of them with a call sent again alone. */
    let failedBatches = 0;
    const resent = new Set<number>();
    while (queue.length) {
      const now = this.o.clock.now();
      const due = queue.filter((p) => p.at <= now).sort((a, b) => a.i - b.i);
      const ready = due[0]?.alone !== undefined ? [due[0]] : due.filter((p) => p.alone === undefined).slice(0, parallelism);
      if (!ready.length) {
        const next = Math.min(...queue.map((p) => p.at));
        if (this.outOfTime(next - now)) break;
        this.o.clock.sleep(next - now);
        continue;
      }
      if (this.outOfTime(0)) break;
      for (const p of ready) queue.splice(queue.indexOf(p), 1);
      const requests: HttpRequest[] = ready.map((p) => ({ url: this.url(calls[p.i], true), headers: { accept: 'application/json' } }));
      this.stats.fetches += requests.length;
      const responses = this.o.transport.fetchAll(requests);
      // A batch that could not be sent at all (UrlFetchApp.fetchAll throws when one request cannot be): each of
      // its calls goes again alone, one batch each, each through the transport (so counted) and this deadline.
      // (A refusal of the quota guard is a ServiceError, not a failed send: it stays whole.)
      const whole = ready.length > 1 && responses.every((r) => r instanceof Error && !(r instanceof ServiceError));
      if (whole) failedBatches++;
      // A batch counts as sent again once a call of it sent alone got an answer (a send that fails again proves nothing).
      if (ready.length === 1 && ready[0].alone !== undefined && !(responses[0] instanceof Error)) resent.add(ready[0].alone);
      ready.forEach((p, k) => {
        p.sent = true;
        const call = calls[p.i];
        const res = responses[k];
        const sent = res instanceof Error ? toServiceError(res, secrets) : undefined;
        if (sent && whole) {
          out[p.i] = { ok: false, error: this.explain(sent, call) };
          this.stats.retries++;
          queue.push({ ...p, at: 0, alone: failedBatches, sent: false });
          return;
        }
        const result = sent ? { ok: false as const, error: sent } : interpret(res as HttpResponse, this.url(call, false), secrets, this.o.clock.now());
        let error: ServiceError;
        if (result.ok) {
          try {
            const value = call.read(result.body.data, result.body);
            out[p.i] = { ok: true, value };
            onValue(p.i, value);
            return;
          } catch (e) {
            // A body that parsed but is not what the operation promises follows the same rule as any failure.
            error = toServiceError(e, secrets);
          }
        } else error = result.error;
        out[p.i] = { ok: false, error: this.explain(error, call) };
        if (error.code === 'NOT_FOUND' && this.tryNextPath(call.op)) {
          queue.push({ ...p, at: 0 });
          return;
        }
        const delay = retryDelay(error, p.attempt + 1, this.policy, this.o.random, hasCopy(p.i));
        const at = this.o.clock.now() + (delay ?? 0);
        if (delay === undefined || this.outOfTime(at - this.o.clock.now())) return;
        this.stats.retries++;
        queue.push({ i: p.i, attempt: p.attempt + 1, at, sent: true, alone: p.alone });
      });
    }
    for (const p of queue) {
      const batchFailedAlone = p.alone !== undefined && !resent.has(p.alone);
      if (!p.sent && !batchFailedAlone) out[p.i] = { ok: false, error: new ServiceError('TIMEOUT', UNSENT_MESSAGE) };
    }
  }

  private tryNextPath(op: Operation): boolean {
    const index = this.pathIndex(op);
    if (index + 1 >= op.paths.length) return false;
    this.pathChoice.set(op.name, index + 1);
    if (this.o.memo) this.o.memo.putMany([[this.pathKey(op), index + 1]]);
    return true;
  }

  private explain(error: ServiceError, call: Call<unknown>): ServiceError {
    if (error.code === 'NOT_FOUND' && call.id !== undefined && call.op.subject) {
      return new ServiceError('NOT_FOUND', `Unknown ${call.op.subject} id: ${call.id}`, { status: error.status, url: error.url });
    }
    return error;
  }

  /**
   * Runs `body` with every call also ending by `deadline` (an import step's budget): the earlier of
   * it and the client's own deadline applies, and the client's own comes back afterwards.
   */
  within<R>(deadline: number, body: () => R): R {
    const before = this.stepDeadline;
    this.stepDeadline = Math.min(deadline, before ?? deadline);
    try {
      return body();
    } finally {
      this.stepDeadline = before;
    }
  }

  private outOfTime(waitMs: number): boolean {
    const deadline = Math.min(this.o.deadline ?? Infinity, this.stepDeadline ?? Infinity);
    return deadline !== Infinity && this.o.clock.now() + waitMs > deadline - DEADLINE_MARGIN_MS;
  }
}

function isMissing(value: unknown): value is { $missing: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $missing?: unknown }).$missing === 'string';
}

/** An id as the service takes it: non-empty text, surrounding spaces removed. */
export function requireId(id: string): string {
  const text = String(id ?? '').trim();
  if (!text) throw badInput('An id is empty.');
  return text;
}
