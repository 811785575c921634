/**
 * A shared cache, clock and scripted data service for PartnerLookup tests (src/api/partners.ts):
 * several executions (each its own client, deadline and request log) look up partners over one
 * memo, the way Sheets runs many custom-function cells at once. Hooks let a test act at the
 * moments that matter: when a list page or an id is asked for, and when a waiting cell polls.
 */
import { Client } from '../../src/api/client';
import { Memo } from '../../src/api/memo';
import { PartnerLookup } from '../../src/api/partners';
import type { HttpResponse } from '../../src/api/transport';
import { FakeClock, FakeTransport, json, LimitedStore, nodeCodec } from './fakes';

export const BASE = 'https://data.example.com';
export const partnerId = (i: number) => `lp_${String(i).padStart(5, '0')}`;
const partner = (id: string) => ({ id, fullName: `Name ${id}`, activeStatus: 'ACTIVE' });
const isList = (url: string) => /getAllActive/.test(new URL(url).pathname);

export interface WorldOptions {
  /** Active partners in the list. */
  total?: number;
  /** The most items the service puts on a page. */
  pageCap?: number;
}

export interface Execution {
  lookup: PartnerLookup;
  client: Client;
  transport: FakeTransport;
  listRequests(): number;
  idRequests(): string[];
}

export function partnerWorld(o: WorldOptions = {}) {
  const total = o.total ?? 300;
  const pageCap = o.pageCap ?? 100;
  const clock = new FakeClock();
  const store = new LimitedStore(clock);
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: 'k_test_1234',
    baseUrl: BASE,
    ttlMs: 3_600_000,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  const hooks: {
    /** Called for each list page asked for; a response returned replaces the page. */
    onList?: (page: number) => HttpResponse | undefined;
    /** Called for each id asked for; a response returned replaces the record. */
    onId?: (id: string) => HttpResponse | undefined;
    /** Called after each sleep of the clock (a waiting cell's poll). */
    onSleep?: (polls: number) => void;
    /** Called after each write to the cache, with the keys written. */
    onPut?: (keys: string[]) => void;
  } = {};
  const putAll = store.putAll.bind(store);
  store.putAll = (values, ttl) => {
    putAll(values, ttl);
    hooks.onPut?.(Object.keys(values));
  };
  const sleep = clock.sleep.bind(clock);
  clock.sleep = (ms: number) => {
    sleep(ms);
    hooks.onSleep?.(clock.sleeps.length);
  };
  const listPage = (page: number, limit: number): HttpResponse => {
    const size = Math.min(pageCap, limit);
    const data = Array.from({ length: Math.max(0, Math.min(size, total - (page - 1) * size)) }, (_, k) =>
      partner(partnerId((page - 1) * size + k)),
    );
    return json(200, {
      data,
      pagination: { totalItems: total, totalPages: Math.ceil(total / size), currentPage: page, pageSize: size },
    });
  };
  const handler = (url: URL): HttpResponse => {
    if (isList(url.href)) {
      const page = Number(url.searchParams.get('page'));
      return hooks.onList?.(page) ?? listPage(page, Number(url.searchParams.get('limit')));
    }
    const id = url.searchParams.get('limitedPartnerId') as string;
    return hooks.onId?.(id) ?? json(200, { data: [partner(id)] });
  };
  /** One execution: its own client (deadline `deadlineMs` from now) and request log. */
  const execution = (token: string, deadlineMs = 30_000): Execution => {
    const transport = new FakeTransport(handler);
    const client = new Client({
      baseUrl: BASE,
      apiKey: 'k_test_1234',
      transport,
      clock,
      memo,
      random: () => 0.5,
      deadline: clock.now() + deadlineMs,
    });
    const lookup = new PartnerLookup({ client, memo, clock, token, random: () => 0.5 });
    return {
      lookup,
      client,
      transport,
      listRequests: () => transport.requests.filter((r) => isList(r.url)).length,
      idRequests: () =>
        transport.requests
          .filter((r) => !isList(r.url))
          .map((r) => new URL(r.url).searchParams.get('limitedPartnerId') as string),
    };
  };
  /** Another execution's claim on `name` (the list's read, or a block's ids), as it stores it. */
  const claimBy = (token: string, name: string) => memo.putMany([[memo.key('claim', name), token]]);
  const releaseClaim = (name: string) => memo.remove([memo.key('claim', name)]);
  const ids = (from: number, n: number) => Array.from({ length: n }, (_, k) => partnerId(from + k));
  return { clock, store, memo, hooks, execution, claimBy, releaseClaim, ids, listPage };
}

/** The ids of lookup outcomes, or their error codes: what a column of cells shows. */
export function shown(out: ReturnType<PartnerLookup['lookup']>): string[] {
  return out.map((o) => (o.ok ? String(o.value.id) : `#${o.error.code}`));
}
