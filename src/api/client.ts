/**
 * The service client: one typed method per operation over one call engine. The engine serves
 * fresh answers from the memo and sends the rest through the transport, up to `parallelism` at
 * once, one outcome per request. Each call is retried on its own by the retry policy
 * (src/api/retry.ts: backoff, jitter, Retry-After) within its deadline: the earlier of the
 * execution's and the one its caller passes; a call the deadline leaves unsent ends UNSENT. The
 * engine falls back to the second listed path of the active-partners list when its first page is
 * not found there (a later page's 404 is the list's own answer: it has no such page), and remembers
 * a path once it has answered, or once a call moved to it was left unsent (a 404 that moves a call
 * is no answer, and neither is the time that ran out before the call was made there); when the
 * service fails it hands back the last good value, marked stale, where one exists. A list's pages are never remembered one by one: a list (one page or
 * all) is remembered whole (`whole`), so a list is always one moment's.
 */
import { grouped } from './numbers';
import { badInput, ServiceError, toServiceError, unsent } from './errors';
import type { Health } from './health';
import type { Cached, Memo } from './memo';
import { type Operation, type OperationName, OPERATIONS, readPagination, recordList, singleRecord } from './operations';
import type { JsonValue, Page, ServiceRecord } from './records';
import { interpret } from './response';
import { DEFAULT_RETRY, type RetryPolicy, retryDelay } from './retry';
import type { Clock, HttpResponse, Transport } from './transport';
import { buildUrl, type QueryValue } from './url';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  transport: Transport;
  clock: Clock;
  memo?: Memo;
  retry?: RetryPolicy;
  /** Absolute time (clock ms) by which every call of this execution must have ended. */
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

/** The path an operation is asked on now, the one remembered for later executions, and whether one has answered. */
interface PathChoice {
  now: number;
  saved: number;
  known: boolean;
}

/** One call on its way: its index, the retries it has had, and the time (clock ms) before which it must not go. */
interface Attempt {
  i: number;
  retries: number;
  at: number;
  /** Listed paths this call has been asked on (1 until a 404 moves it to the next), the last one `path`. */
  paths: number;
  path?: number;
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
/** Time kept in hand at the deadline for writing results. */
export const DEADLINE_MARGIN_MS = 1500;

export class Client {
  readonly stats: CallStats = { fetches: 0, retries: 0, cacheHits: 0, staleServed: 0 };
  private readonly options: ClientOptions;
  private readonly policy: RetryPolicy;
  /** The path each operation is asked on in this execution, the one the memo holds, and whether either has answered. */
  private readonly pathChoice = new Map<OperationName, PathChoice>();

  constructor(options: ClientOptions) {
    if (!options.apiKey)
      throw new ServiceError('NO_KEY', 'No API key: open Investor Data ▸ Settings and save your key.');
    this.options = options;
    this.policy = options.retry ?? DEFAULT_RETRY;
  }

  limitedPartners(ids: readonly string[], until?: number): Outcome<ServiceRecord>[] {
    return this.byId(OPERATIONS.getLimitedPartnerById, ids, until);
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
    const read = (id: string) => (data: JsonValue | undefined) => singleRecord(data, op, id).lastFundSize ?? null;
    return this.answer(ids.map((id) => this.idCall(op, id, read(id))));
  }

  /** The memo keys of limited partners' answers (undefined for a blank id, or without a memo). */
  partnerKeys(ids: readonly string[]): Array<string | undefined> {
    const op = OPERATIONS.getLimitedPartnerById;
    return ids.map((id) => (String(id ?? '').trim() ? this.cacheKey(this.idCall(op, id, () => null)) : undefined));
  }

  /** Limited partners whose fresh answer is in the memo (nothing is fetched); `keys` as partnerKeys gave them, when known. */
  peekPartners(
    ids: readonly string[],
    hits?: Map<string, Cached>,
    keys = this.partnerKeys(ids),
  ): Map<string, ServiceRecord> {
    const out = new Map<string, ServiceRecord>();
    if (!this.options.memo) return out;
    const found = hits ?? this.options.memo.getMany([...new Set(keys.filter((k): k is string => !!k))]);
    ids.forEach((id, i) => {
      const hit = found.get(keys[i] as string);
      const value = hit?.fresh && !isMissing(hit.value) ? hit.value : undefined;
      if (value && typeof value === 'object') out.set(id, value as ServiceRecord);
    });
    return out;
  }

  /** Time left before the deadline's margin (Infinity without a deadline). */
  timeLeft(): number {
    return this.deadline() - this.options.clock.now();
  }

  /**
   * Pages of the active-partners list, fetched together, all ended by `until` (clock ms) when
   * given. Pages are never served from the memo one by one: a list put together from pages read
   * at different moments could hold a partner who left and miss one who stayed (see `whole`).
   */
  activePartnerPages(pages: readonly number[], limit: number, o: { until?: number } = {}) {
    const op = OPERATIONS.getAllActiveLimitedPartners;
    return this.answer(
      pages.map((page) => this.pageCall(op, { page, limit })),
      o.until,
    );
  }

  /** Pages of a fund's industries, fetched together (never from the memo, like the active list's). */
  industriesPages(fundId: string, pages: readonly number[], limit: number): Outcome<Page<ServiceRecord>>[] {
    const op = OPERATIONS.getIndustriesByVentureFundId;
    const id = requireId(fundId);
    const query = (page: number) => ({ [op.idParam as string]: id, page, limit });
    return this.answer(pages.map((page) => this.pageCall(op, query(page), fundId)));
  }

  /**
   * An answer made of one or more requests of an operation (a page of a list, or every page)
   * kept as one memo entry, under `query`, so that it is always one moment's: served while fresh;
   * else made now by `make` and remembered; else, when `make` fails in a way a copy may stand in
   * for (the service failing, or its pages not adding up), the last good answer, marked stale.
   */
  whole<T>(name: OperationName, query: Record<string, QueryValue>, make: () => T): Outcome<T> {
    const memo = this.options.memo;
    const key = memo?.key(`${OPERATIONS[name].tag}*`, queryText(query));
    const hit = key ? memo?.getMany([key]).get(key) : undefined;
    if (hit?.fresh) {
      this.stats.cacheHits++;
      return { ok: true, value: hit.value as T };
    }
    try {
      const value = make();
      if (key) memo?.putMany([[key, value]]);
      return { ok: true, value };
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      if (!hit || !e.fallsBack) return { ok: false, error: e };
      this.stats.staleServed++;
      return { ok: true, value: hit.value as T, staleSince: hit.fetchedAt };
    }
  }

  private byId(op: Operation, ids: readonly string[], until?: number): Outcome<ServiceRecord>[] {
    return this.answer(
      ids.map((id) => this.idCall(op, id, (data) => singleRecord(data, op, id))),
      until,
    );
  }

  private idCall<T>(op: Operation, id: string, read: Call<T>['read']): Call<T> {
    return { op, id, cache: true, query: { [op.idParam as string]: requireId(id) }, read };
  }

  private pageCall(op: Operation, query: Record<string, QueryValue>, id?: string): Call<Page<ServiceRecord>> {
    const requested = { page: Number(query.page), limit: Number(query.limit) };
    const read = (data: JsonValue | undefined, body: { [key: string]: JsonValue }): Page<ServiceRecord> => ({
      items: recordList(data, op),
      pagination: readPagination(body.pagination, requested),
    });
    return { op, query, cache: false, id, read };
  }

  private url(call: Call<unknown>, withKey: boolean): string {
    const path = call.op.paths[this.pathIndex(call.op)];
    return buildUrl(this.options.baseUrl, path, withKey ? { ...call.query, apiKey: this.options.apiKey } : call.query);
  }

  private pathIndex(op: Operation): number {
    return this.path(op).now;
  }

  private path(op: Operation): PathChoice {
    const memo = this.options.memo;
    let choice = this.pathChoice.get(op.name);
    if (!choice) {
      const hit = op.paths.length > 1 && memo ? memo.getMany([this.pathKey(op)]).get(this.pathKey(op)) : undefined;
      const known = typeof hit?.value === 'number' && hit.value < op.paths.length;
      const saved = known ? (hit?.value as number) : 0;
      choice = { now: saved, saved, known };
      this.pathChoice.set(op.name, choice);
    }
    return choice;
  }

  private pathKey(op: Operation): string {
    return (this.options.memo as Memo).key('path', op.tag);
  }

  private cacheKey(call: Call<unknown>): string | undefined {
    if (!call.cache || !this.options.memo) return undefined;
    return this.options.memo.key(call.op.tag, queryText(call.query));
  }

  /** The answer the memo or the call itself gives without sending it, if any. */
  private unsentAnswer<T>(call: Call<T>, hit: Cached | undefined): Outcome<T> | undefined {
    if (hit?.fresh) {
      this.stats.cacheHits++;
      if (isMissing(hit.value)) return { ok: false, error: new ServiceError('NOT_FOUND', hit.value.$missing) };
      return { ok: true, value: hit.value as T };
    }
    let url: string;
    try {
      url = this.url(call, true);
    } catch (e) {
      // A query value no URL can carry (buildUrl names it): this call's answer, not the batch's.
      if (e instanceof ServiceError) return { ok: false, error: e };
      throw e;
    }
    if (url.length <= MAX_URL_LENGTH) return undefined;
    const message =
      call.id === undefined
        ? `The request URL is too long (${grouped(url.length)} characters): check the service address.`
        : `The id is too long for a request URL (${grouped(String(call.id).length)} characters).`;
    return { ok: false, error: badInput(message) };
  }

  private answer<T>(calls: Call<T>[], until?: number): Outcome<T>[] {
    const memo = this.options.memo;
    const keys = calls.map((c) => this.cacheKey(c));
    const cached = memo ? memo.getMany([...new Set(keys.filter((k): k is string => !!k))]) : new Map<string, Cached>();
    const hits = keys.map((k) => (k ? cached.get(k) : undefined));
    const copy = (i: number) => (hits[i] !== undefined && !isMissing(hits[i]?.value) ? hits[i] : undefined);
    const out = calls.map((call, i) => this.unsentAnswer(call, hits[i]));
    const pending = out.flatMap((o, i) => (o ? [] : [i]));
    const hung = pending.length ? this.options.health?.hung() : undefined;
    if (hung) for (const i of pending) out[i] = { ok: false, error: new ServiceError('TIMEOUT', hung) };
    else this.send(calls, pending, out, (i) => copy(i) !== undefined, Math.min(until ?? Infinity, this.deadline()));
    // Unknown ids are remembered too, so a sheet full of typos does not refetch them on every
    // recalculation; but a "not found" never replaces a good copy (it stays the last good value).
    const toRemember = pending.flatMap((i): Array<[string, unknown]> => {
      const o = out[i] as Outcome<T>;
      if (!keys[i]) return [];
      if (o.ok) return [[keys[i] as string, o.value]];
      // Only calls by id are cached (keys[i]): a "not found" here is an unknown id.
      const missing = o.error.code === 'NOT_FOUND' && !copy(i);
      return missing ? [[keys[i] as string, { $missing: o.error.message }]] : [];
    });
    if (memo && toRemember.length) memo.putMany(toRemember);
    return out.map((o, i) => {
      const result = o as Outcome<T>;
      const hit = copy(i);
      if (result.ok || !hit || !result.error.fallsBack) return result;
      this.stats.staleServed++;
      return { ok: true, value: hit.value as T, staleSince: hit.fetchedAt };
    });
  }

  /**
   * Sends the pending calls, up to `parallelism` at once, each with its own not-before time: a
   * call that failed and may succeed later waits alone (Retry-After, or backoff) while the others
   * go on. When nothing is ready the client sleeps until the earliest call is, never past
   * `deadline`. A retry must end by `deadline` too, taking as long as the attempt it repeats: a
   * call that could only be retried too late keeps its last error, and one never sent ends UNSENT.
   */
  private send<T>(
    calls: Call<T>[],
    pending: number[],
    out: Array<Outcome<T> | undefined>,
    hasCopy: (i: number) => boolean,
    deadline: number,
  ): void {
    const clock = this.options.clock;
    let queue: Attempt[] = pending.map((i) => ({ i, retries: 0, at: 0, paths: 1 }));
    while (queue.length) {
      const now = clock.now();
      const due = queue
        .filter((a) => a.at <= now)
        .sort((a, b) => a.i - b.i)
        .slice(0, this.options.parallelism ?? 20);
      const next = due.length ? now : Math.min(...queue.map((a) => a.at));
      if (next > deadline) break;
      if (!due.length) {
        clock.sleep(next - now);
        continue;
      }
      queue = queue.filter((a) => !due.includes(a));
      for (const a of due) a.path = this.pathIndex(calls[a.i].op);
      const requests = due.map((a) => ({ url: this.url(calls[a.i], true), headers: { accept: 'application/json' } }));
      const answers = this.options.transport.fetchAll(requests, deadline);
      // A retry is expected to take as long as the attempt it repeats: it must start that much before the deadline.
      const took = clock.now() - now;
      due.forEach((a, k) => {
        const result = this.outcome(calls[a.i], answers[k]);
        if (!result.ok && result.error.code === 'UNSENT') {
          if (a.paths > 1) this.keepPath(calls[a.i].op, false);
          return;
        }
        this.stats.fetches++;
        out[a.i] = result;
        if (result.ok) this.keepPath(calls[a.i].op);
        // A 404 on a path the call has another for is no answer: the call is asked there, now or (unsent) later.
        if (!result.ok && result.error.code === 'NOT_FOUND' && this.otherPath(calls[a.i], a)) {
          out[a.i] = undefined;
          queue.push({ ...a, at: 0, paths: a.paths + 1 });
          return;
        }
        const again = result.ok ? undefined : this.retry(a, result.error, hasCopy(a.i), deadline - took);
        if (again) queue.push(again);
      });
    }
    // A call moved to another path and left unsent: the next execution asks that path first.
    for (const a of queue) if (a.paths > 1) this.keepPath(calls[a.i].op, false);
    for (const i of pending) out[i] ??= { ok: false, error: unsent() };
  }

  /** The call's next attempt after `error`, or undefined: it ends with that error. */
  private retry(a: Attempt, error: ServiceError, hasCopy: boolean, deadline: number): Attempt | undefined {
    const delay = retryDelay(error, a.retries + 1, this.policy, this.options.random, hasCopy);
    const at = this.options.clock.now() + (delay ?? 0);
    if (delay === undefined || at > deadline) return undefined;
    this.stats.retries++;
    return { ...a, retries: a.retries + 1, at };
  }

  private outcome<T>(call: Call<T>, answer: HttpResponse | Error): Outcome<T> {
    const secrets = [this.options.apiKey];
    const fail = (error: ServiceError): Outcome<T> => ({ ok: false, error: this.explain(error, call) });
    if (answer instanceof Error) return fail(toServiceError(answer, secrets));
    const result = interpret(answer, this.url(call, false), secrets, this.options.clock.now());
    if (!result.ok) return fail(result.error);
    try {
      return { ok: true, value: call.read(result.body.data, result.body) };
    } catch (e) {
      // A body that parsed but is not what the operation promises follows the same rule as any failure.
      return fail(toServiceError(e, secrets));
    }
  }

  /**
   * Moves a list's call that was not found to the next listed path, while it has one it was not
   * asked on: page 1 always, any other page while no path of the list has answered (a later page's
   * 404 on a path that answers is the list's own: it has no such page). The path is remembered
   * once it answers (keepPath), or when a call moved to it is left unsent (the next execution asks
   * it there first: the 404 was no answer, and the time that ran out is none either).
   */
  private otherPath(call: Call<unknown>, a: Attempt): boolean {
    const choice = this.path(call.op);
    // Only the active list has two paths, and its calls always name a page.
    const untried = call.query.page === 1 || !choice.known;
    if (!untried || a.paths >= call.op.paths.length) return false;
    // Another call of the batch may have moved the list on already: this one follows.
    if (choice.now !== a.path) return true;
    choice.now = (choice.now + 1) % call.op.paths.length;
    return true;
  }

  /** The path that just answered (or that a call left unsent moved to) is the one later executions ask first. */
  private keepPath(op: Operation, answered = true): void {
    const choice = this.path(op);
    if (choice.now === choice.saved && (choice.known || !answered)) return;
    choice.saved = choice.now;
    choice.known ||= answered;
    if (op.paths.length > 1) this.options.memo?.putMany([[this.pathKey(op), choice.now]]);
  }

  private explain(error: ServiceError, call: Call<unknown>): ServiceError {
    if (error.code !== 'NOT_FOUND' || call.id === undefined || !call.op.subject) return error;
    const where = { status: error.status, url: error.url };
    return new ServiceError('NOT_FOUND', `Unknown ${call.op.subject} id: ${call.id}`, where);
  }

  /** The execution's deadline less the margin kept for writing results (Infinity without one). */
  private deadline(): number {
    return (this.options.deadline ?? Infinity) - DEADLINE_MARGIN_MS;
  }
}

function isMissing(value: unknown): value is { $missing: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $missing?: unknown }).$missing === 'string';
}

/**
 * A query as text, its parameters in one order, for a memo key: JSON, which writes any text (a lone
 * surrogate too, which the URL then refuses as BAD_INPUT for that call alone) and keeps values apart.
 */
function queryText(q: Record<string, QueryValue>): string {
  return JSON.stringify(
    Object.keys(q)
      .sort()
      .map((k) => [k, String(q[k])]),
  );
}

/** An id as the service takes it: non-empty text, surrounding spaces removed. */
export function requireId(id: string): string {
  const text = String(id ?? '').trim();
  if (!text) throw badInput('An id is empty.');
  return text;
}
