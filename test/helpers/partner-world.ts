/**
 * A small world for PartnerLookup's tests (src/api/partners.ts): one cache, clock and fake data
 * service shared by executions, the way Sheets runs many custom-function cells at once. The
 * service holds an active list of partners and answers any id (ids outside the list are the
 * inactive partners a lookup still asks for one by one). Each execution has its own client
 * (deadline, stats), claim token and request log; the world logs every request too. Hooks let a
 * test act at the moments that matter: when a list page or an id is asked for, when the cache is
 * written, and when a waiting cell polls.
 */
import { Client } from '../../src/api/client';
import { fnv1a } from '../../src/api/hash';
import { Memo } from '../../src/api/memo';
import { PartnerLookup } from '../../src/api/partners';
import type { Page, ServiceRecord } from '../../src/api/records';
import { SLOTS, sharedRead } from '../../src/api/shares';
import { Snapshot } from '../../src/api/snapshot';
import type { HttpRequest, HttpResponse, Transport } from '../../src/api/transport';
import { FakeClock, json, LimitedStore, nodeCodec } from './fakes';

const BASE = 'https://data.example.com';
const API_KEY = 'k_test_1234';
/** How long the memo keeps answers (and the snapshot, the list's size, the copies) fresh. */
export const TTL_MS = 3_600_000;

const partnerId = (i: number) => `lp_${String(i).padStart(4, '0')}`;
const partner = (id: string) => ({ id, fullName: `Name ${id}`, activeStatus: 'ACTIVE' });
const isList = (url: URL) => /getAllActive/.test(url.pathname);

export interface WorldOptions {
  /** Active partners in the list (300 when absent). */
  total?: number;
  /** The most partners the service puts on a page (100 when absent). */
  pageCap?: number;
}

/** Moments a test acts at; a hook is set (and unset) on the world's `hooks` at any time. */
export interface Hooks {
  /** Each list page asked for; a response returned replaces the page (an Error: the request was not answered, a timeout say). */
  onList?: (page: number) => HttpResponse | Error | undefined;
  /** Each id asked for; a response returned replaces the record (an Error: the request was not answered). */
  onId?: (id: string) => HttpResponse | Error | undefined;
  /** After each write to the cache, with the keys written. */
  onPut?: (keys: string[]) => void;
  /** After each sleep of the clock (a waiting cell's poll), with the number of sleeps so far. */
  onSleep?: (polls: number) => void;
  /** After each sleep of an execution run inside a hook. */
  onInnerSleep?: () => void;
}

/** What the service was asked, from some moment on. */
export interface RequestLog {
  /** Requests of any kind. */
  count(): number;
  /** Pages of the active list asked for, in order. */
  pages(): number[];
  /** How many list pages were asked for. */
  listRequests(): number;
  /** Ids asked for one by one, in order. */
  idRequests(): string[];
}

/** One execution: its own client and claim token, and the requests it made. */
export interface Execution extends RequestLog {
  lookup: PartnerLookup['lookup'];
  activeRecords: PartnerLookup['activeRecords'];
  client: Client;
}

function logOf(requests: readonly HttpRequest[], from = requests.length): RequestLog {
  const urls = () => requests.slice(from).map((r) => new URL(r.url));
  const pages = () =>
    urls()
      .filter(isList)
      .map((u) => Number(u.searchParams.get('page')));
  return {
    count: () => requests.length - from,
    pages,
    listRequests: () => pages().length,
    idRequests: () =>
      urls()
        .filter((u) => !isList(u))
        .map((u) => u.searchParams.get('limitedPartnerId') as string),
  };
}

export function partnerWorld(o: WorldOptions = {}) {
  const total = o.total ?? 300;
  const pageCap = o.pageCap ?? 100;
  /** The active list's ids, in list order. */
  const ids = Array.from({ length: total }, (_, i) => partnerId(i));
  const hooks: Hooks = {};
  const clock = new FakeClock();
  const sleep = clock.sleep.bind(clock);
  // `clock.sleeps` are the polls of the execution the test runs; an execution run inside a hook (another cell Sheets
  // runs meanwhile) sleeps too, and its sleeps pass the time without counting as the outer one's polls.
  let nested = 0;
  clock.sleep = (ms: number) => {
    sleep(ms);
    if (nested) {
      clock.sleeps.pop();
      hooks.onInnerSleep?.();
      return;
    }
    nested++;
    try {
      hooks.onSleep?.(clock.sleeps.length);
    } finally {
      nested--;
    }
  };
  const store = new LimitedStore(clock);
  // When the analyst last ran "Refresh all formulas": answers stored before it are not fresh.
  let refreshedAt = 0;
  const putAll = store.putAll.bind(store);
  store.putAll = (values, ttl) => {
    putAll(values, ttl);
    hooks.onPut?.(Object.keys(values));
  };
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: API_KEY,
    baseUrl: BASE,
    ttlMs: TTL_MS,
    invalidatedBefore: () => refreshedAt,
    now: () => clock.now(),
  });
  const answer = (url: URL): HttpResponse | Error => {
    if (isList(url)) {
      const page = Number(url.searchParams.get('page'));
      const size = Math.min(pageCap, Number(url.searchParams.get('limit')));
      return (
        hooks.onList?.(page) ??
        json(200, {
          data: ids.slice((page - 1) * size, page * size).map(partner),
          pagination: { totalItems: total, totalPages: Math.ceil(total / size), currentPage: page, pageSize: size },
        })
      );
    }
    const id = url.searchParams.get('limitedPartnerId') as string;
    return hooks.onId?.(id) ?? json(200, { data: [partner(id)] });
  };
  const requests: HttpRequest[] = [];
  /**
   * An execution named by its claim token, its deadline `deadlineMs` from now; `random` draws its retries' jitter and
   * snapshot generations; its formula shows `fields` (every field when absent).
   */
  const execution = (
    token: string,
    deadlineMs = 30_000,
    random: () => number = () => 0.5,
    fields?: readonly string[],
  ): Execution => {
    const own: HttpRequest[] = [];
    const transport: Transport = {
      fetchAll: (batch) => {
        own.push(...batch);
        requests.push(...batch);
        return batch.map((r) => answer(new URL(r.url)));
      },
    };
    const client = new Client({
      baseUrl: BASE,
      apiKey: API_KEY,
      transport,
      clock,
      memo,
      random,
      deadline: clock.now() + deadlineMs,
    });
    const lookup = new PartnerLookup({ client, memo, clock, token, random, fields });
    return {
      lookup: (wanted, neighbours) => lookup.lookup(wanted, neighbours),
      activeRecords: () => lookup.activeRecords(),
      client,
      ...logOf(own, 0),
    };
  };
  const headKey = memo.key('snap', 'head');
  return {
    ids,
    clock,
    store,
    memo,
    hooks,
    execution,
    /** Every execution's requests since the world began. */
    ...logOf(requests, 0),
    /** Every execution's requests from now on. */
    log: () => logOf(requests),
    /** Another execution's claim on `name` (the list's read, or a block's ids: "ids:<group>"), written now. */
    claim: (token: string, name = 'snapshot') => memo.putMany([[memo.key('claim', name), token]]),
    /** The claim on `name` let go. */
    release: (name = 'snapshot') => memo.remove([memo.key('claim', name)]),
    /** "Refresh all formulas" now: every answer stored before is no longer fresh (it stays in the cache). */
    refresh: () => {
      refreshedAt = clock.now();
    },
    /** Where the published snapshot's head is kept. */
    headKey,
    /** The cache loses the snapshot's head (eviction): no snapshot is published any more. */
    evictSnapshot: () => memo.remove([headKey]),
    /** The cache loses the bucket of the published snapshot that holds `id`; returns the world's ids it held, in list order. */
    evictBucketOf: (id: string): string[] => {
      const head = memo.getMany([headKey]).get(headKey)?.value as { gen: string; parts: number[] };
      const bucket = (x: string) => head.parts.map((count) => fnv1a(x) % count).join();
      memo.remove(head.parts.map((count, part) => memo.key('snap', `${head.gen}:${part}.${fnv1a(id) % count}`)));
      return ids.filter((x) => bucket(x) === bucket(id));
    },
    /** An execution `token` offered to help a read of the list (a waiting cell), then never looked again (killed, say). */
    offered: (token = 'helper') => memo.putMany([[memo.key('snap', `offer:${fnv1a(token) % SLOTS}`), token]], true),
    /**
     * Execution `token` (holding the claim) has page 1 of the list in, 100 partners a page, and posts its plan for
     * the cells that offered to help; returns who reads each share.
     */
    postPlan: (token: string): string[] | undefined => {
      const page1: Page<ServiceRecord> = {
        items: ids.slice(0, 100).map(partner),
        pagination: { totalItems: total, totalPages: Math.ceil(total / 100), currentPage: 1, pageSize: 100 },
      };
      const context = { memo, clock, token, pages: () => [], until: () => clock.now() + 10_000, canWrite: () => true };
      return sharedRead(context, new Snapshot(memo), new Set(ids), () => {}).post(page1, 100)?.by;
    },
    /** Page `page` of the list is refused once, 429 with Retry-After `seconds`; then it answers. */
    refuseOnce: (page: number, seconds: number) => {
      let refused = false;
      hooks.onList = (asked) => {
        if (asked !== page || refused) return undefined;
        refused = true;
        return json(429, {}, { 'retry-after': String(seconds) });
      };
    },
    /** Page `page` of the list takes the service `ms` (each time it is asked). */
    slowPage: (page: number, ms: number) => {
      hooks.onList = (asked) => {
        if (asked === page) clock.t += ms;
        return undefined;
      };
    },
    /** An execution looks up `range` (which reads the list and publishes the snapshot); every id must be answered. */
    readRange: (range: readonly string[] = ids.slice(0, 50), token = 'reader') => {
      const failed = execution(token)
        .lookup(range)
        .filter((x) => !x.ok);
      if (failed.length) throw new Error(`${failed.length} ids of the range failed`);
    },
  };
}

/** The records' ids of a lookup's answers, or the error code where it failed: what a column of cells shows. */
export const answers = (out: ReturnType<PartnerLookup['lookup']>): string[] =>
  out.map((o) => (o.ok ? String(o.value.id) : o.error.code));
