/**
 * The service client: one typed method per operation over one call engine. The engine serves
 * fresh answers from the memo here and sends the rest (./send.ts, compiled only by an execution
 * that asks the service anything) through the transport, up to `parallelism` at once, one
 * outcome per request. Each call is retried on its own by the retry policy
 * (src/api/retry.ts: backoff, jitter, Retry-After) within its deadline: the earlier of the
 * execution's and the one its caller passes; a call the deadline leaves unsent ends UNSENT. The
 * engine falls back to the second listed path of the active-partners list when its first page is
 * not found there (a later page's 404 is the list's own answer: it has no such page), and remembers
 * a path once it has answered, or once a call moved to it was left unsent (a 404 that moves a call
 * is no answer, and neither is the time that ran out before the call was made there); when the
 * service fails it hands back the last good value, marked stale, where one exists. A list's pages are never remembered one by one: a list (one page or
 * all) is remembered whole (`whole`), so a list is always one moment's.
 */
import {
  type Call,
  type CallStats,
  type ClientOptions,
  type ClientState,
  deadlineOf,
  isMissing,
  type Outcome,
} from './calls';
import { badInput, ServiceError } from './errors';
import type { Cached } from './memo';
import { type Operation, type OperationName, OPERATIONS, readPagination, recordList, singleRecord } from './operations';
import type { JsonValue, Page, ServiceRecord } from './records';
import { settle } from './send';
import type { QueryValue } from './url';

export type { CallStats, ClientOptions, Outcome } from './calls';
export { DEADLINE_MARGIN_MS, MAX_URL_LENGTH } from './calls';

export class Client {
  readonly stats: CallStats = { fetches: 0, retries: 0, cacheHits: 0, staleServed: 0 };
  private readonly state: ClientState;

  constructor(options: ClientOptions) {
    if (!options.apiKey)
      throw new ServiceError('NO_KEY', 'No API key: open Investor Data ▸ Settings and save your key.');
    this.state = { options, stats: this.stats, paths: new Map() };
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
    if (!this.state.options.memo) return out;
    const found = hits ?? this.state.options.memo.getMany([...new Set(keys.filter((k): k is string => !!k))]);
    ids.forEach((id, i) => {
      const hit = found.get(keys[i] as string);
      const value = hit?.fresh && !isMissing(hit.value) ? hit.value : undefined;
      if (value && typeof value === 'object') out.set(id, value as ServiceRecord);
    });
    return out;
  }

  /** Time left before the deadline's margin (Infinity without a deadline). */
  timeLeft(): number {
    return deadlineOf(this.state.options) - this.state.options.clock.now();
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
    const memo = this.state.options.memo;
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

  private cacheKey(call: Call<unknown>): string | undefined {
    if (!call.cache || !this.state.options.memo) return undefined;
    return this.state.options.memo.key(call.op.tag, queryText(call.query));
  }

  /** The calls' outcomes: fresh answers from the memo, the others sent (./send.ts), all ended by `until` when given. */
  private answer<T>(calls: Call<T>[], until?: number): Outcome<T>[] {
    const memo = this.state.options.memo;
    const keys = calls.map((c) => this.cacheKey(c));
    const cached = memo ? memo.getMany([...new Set(keys.filter((k): k is string => !!k))]) : new Map<string, Cached>();
    const hits = keys.map((k) => (k ? cached.get(k) : undefined));
    const out = hits.map((hit): Outcome<T> | undefined => {
      if (!hit?.fresh) return undefined;
      this.stats.cacheHits++;
      if (isMissing(hit.value)) return { ok: false, error: new ServiceError('NOT_FOUND', hit.value.$missing) };
      return { ok: true, value: hit.value as T };
    });
    if (out.every((o) => o)) return out as Outcome<T>[];
    return settle(this.state, calls, keys, hits, out, until ?? Infinity);
  }
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
