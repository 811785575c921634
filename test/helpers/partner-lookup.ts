/**
 * A small world for PartnerLookup (src/api/partners.ts): one shared cache, clock and fake service
 * holding an active list of partners, and executions (each its own client and claim token) that
 * look partners up in it. The service answers any id (ids outside the active list are the
 * inactive partners a lookup still asks for one by one); its list and its answers can be made to
 * fail. The clock can run a step of "another execution" when a lookup waits.
 */
import { Client } from '../../src/api/client';
import { Memo } from '../../src/api/memo';
import { type LookupContext, PartnerLookup } from '../../src/api/partners';
import { FakeClock, FakeTransport, type Handler, json, LimitedStore, nodeCodec } from './fakes';

const BASE = 'https://data.example.com';
export const TTL_MS = 3_600_000;

/** A clock whose next sleep first runs a step queued by the test (what another execution does meanwhile). */
export class SteppingClock extends FakeClock {
  private readonly steps: Array<() => void> = [];
  onNextSleep(step: () => void): void {
    this.steps.push(step);
  }
  override sleep(ms: number): void {
    super.sleep(ms);
    this.steps.shift()?.();
  }
}

export const partner = (id: string) => ({ id, fullName: `Name ${id}`, activeStatus: 'ACTIVE' });
export const activeId = (i: number) => `lp_${String(i).padStart(4, '0')}`;

export interface WorldOptions {
  /** Active partners in the list. */
  total?: number;
  /** Largest page the service sends. */
  pageCap?: number;
  /** Status the list answers with (200 when absent). */
  listStatus?: () => number;
  /** Runs as each page of the list is answered (time passing, say). */
  onListPage?: (page: number) => void;
}

export function lookupWorld(o: WorldOptions = {}) {
  const total = o.total ?? 300;
  const pageCap = o.pageCap ?? 100;
  const ids = Array.from({ length: total }, (_, i) => activeId(i));
  const clock = new SteppingClock();
  const store = new LimitedStore(clock);
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: 'k_test_1234',
    baseUrl: BASE,
    ttlMs: TTL_MS,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  const isList = (url: URL) => /getAllActive/.test(url.pathname);
  const handler: Handler = (url) => {
    if (isList(url)) {
      const status = o.listStatus?.() ?? 200;
      if (status !== 200) return json(status, { message: 'failed' });
      const page = Number(url.searchParams.get('page'));
      o.onListPage?.(page);
      const size = Math.min(pageCap, Number(url.searchParams.get('limit')));
      return json(200, {
        data: ids.slice((page - 1) * size, page * size).map(partner),
        pagination: { totalItems: total, totalPages: Math.ceil(total / size), currentPage: page, pageSize: size },
      });
    }
    return json(200, { data: [partner(url.searchParams.get('limitedPartnerId') as string)] });
  };
  const transport = new FakeTransport(handler);
  /** An execution: its own client (deadline `budgetMs` from now) and claim token. */
  const execution = (token: string, budgetMs = 30_000, extra: Partial<LookupContext> = {}) => {
    const client = new Client({
      baseUrl: BASE,
      apiKey: 'k_test_1234',
      transport,
      clock,
      memo,
      random: () => 0.5,
      deadline: clock.now() + budgetMs,
    });
    return new PartnerLookup({ client, memo, clock, token, random: () => 0.5, ...extra });
  };
  const urls = () => transport.requests.map((r) => new URL(r.url));
  /** Requests for the list since `from` (an index into the requests). */
  const listRequests = (from = 0) => urls().slice(from).filter(isList).length;
  /** Ids asked for one by one since `from`, in order. */
  const idRequests = (from = 0) =>
    urls()
      .slice(from)
      .filter((u) => !isList(u))
      .map((u) => u.searchParams.get('limitedPartnerId'));
  const mark = () => transport.requests.length;
  const indexKey = memo.key('snap', 'index');
  /** The cache loses the snapshot's index (eviction): no snapshot is published any more. */
  const evictSnapshot = () => memo.remove([indexKey]);
  /** Another execution's claim on reading the list, written now. */
  const claimList = (token = 'theirs') => memo.putMany([[memo.key('claim', 'snapshot'), token]]);
  /** An execution reads `range` (which reads the list and publishes the snapshot); the request count after it. */
  const readRange = (range: readonly string[] = ids.slice(0, 50), token = 'reader') => {
    const failed = execution(token)
      .lookup(range)
      .filter((x) => !x.ok);
    if (failed.length) throw new Error(`${failed.length} ids of the range failed`);
    return mark();
  };
  return {
    ids,
    readRange,
    clock,
    store,
    memo,
    transport,
    execution,
    listRequests,
    idRequests,
    mark,
    indexKey,
    evictSnapshot,
    claimList,
  };
}

/** The records' ids of a lookup's answers, or the error code where it failed. */
export const answers = (out: ReturnType<PartnerLookup['lookup']>) =>
  out.map((o) => (o.ok ? (o.value as { id?: string }).id : o.error.code));
