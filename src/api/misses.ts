/**
 * What a lookup of limited partners (./partners.ts) does when the cache does not hold every answer:
 * the shared snapshot, a read of the list when it is cheaper than one request per id (shared with
 * the cells waiting for it, ./shares.ts), claims so that one execution fetches for many, and one
 * request per id for the rest. A module of its own so that a cell answered from the cache never
 * compiles it (scripts/build-lib.ts, DEFERRED_MODULES).
 */
import type { Outcome } from './client';
import { ServiceError } from './errors';
import { timeId } from './hash';
import { grouped } from './numbers';
import type { Cached } from './memo';
import { incompleteError, type PageFetcher, readList } from './pages';
import {
  all,
  bucketKey,
  CLAIM_MS,
  FILL_MIN_IDS,
  FILL_PAGE_LIMIT,
  type Found,
  memoRead,
  readKeys,
  take,
  type LookupContext,
  MAX_FILL_PAGES,
  MAX_NEIGHBOURS,
  MAX_SNAPSHOT_RECORDS,
  MAX_RUN_COPIES,
  type Neighbours,
  POLL_MS,
  projected,
  snapKey,
  uniq,
} from './lookup-cache';
import type { Page, ServiceRecord } from './records';
import { type Plan, type SharedRead, sharedRead } from './shares';
import { Snapshot, type SnapshotView } from './snapshot';
import type { Clock } from './transport';

/** Time that must be left to write a snapshot just read (else it is used in memory only). */
const WRITE_RESERVE_MS = 8_000;
/** Time a read of the list keeps beyond that, for answering the cell once the snapshot is written. */
const ANSWER_RESERVE_MS = 1_500;
/** Time a waiting execution keeps for its own requests after giving up the wait. */
const KEEP_FOR_SELF_MS = 8_000;

interface Meta {
  total: number;
  size: number;
}

/** A read of the list: a fresh snapshot (this execution's, or another's), or why there is none (neither when reading it was not worth it). */
interface Filled {
  view?: SnapshotView;
  error?: ServiceError;
}

/**
 * A claim in the cache on work one execution does for many (reading the list, fetching a block's
 * ids). It is taken when no other execution holds one younger than CLAIM_MS; of two written at the
 * same instant, the value that stayed decides.
 */
class Claim {
  /** The claim's cache key: take and mine accept a cache read that holds it with others. */
  readonly key: string;
  /** The last cache read of the claim this execution made: what it last saw of the claim. */
  private seen = new Map<string, Cached>();

  constructor(
    private readonly context: LookupContext,
    name: string,
  ) {
    this.key = context.memo.key('claim', name);
  }

  /** The execution holding the claim, while it is live (as a cache read that holds its key saw it, the last one by default). */
  holder(hits = this.seen): string | undefined {
    const held = hits.get(this.key);
    return this.live(held) ? String(held.value) : undefined;
  }

  private live(held: Cached | undefined): held is Cached {
    return !!held && this.context.clock.now() - held.fetchedAt < CLAIM_MS;
  }

  /** Takes the claim unless another execution holds it (as `hits` saw it); `after` is read with the look that confirms it. */
  take(hits = this.look([this.key]), ...after: string[]): Map<string, Cached> | undefined {
    this.seen = hits;
    const held = hits.get(this.key);
    if (this.live(held) && held.value !== this.context.token) return undefined;
    this.renew();
    const look = this.look([this.key, ...after]);
    return this.mine(look) ? look : undefined;
  }

  mine(hits = this.look([this.key])): boolean {
    return hits.get(this.key)?.value === this.context.token;
  }

  /** One cache read of `keys` (the claim's among them), kept as what this execution last saw of the claim. */
  private look(keys: readonly string[]): Map<string, Cached> {
    this.seen = this.context.memo.getMany([...keys]);
    return this.seen;
  }

  /** Renewed, a long read is not taken for abandoned. */
  renew(): void {
    this.context.memo.putMany([[this.key, this.context.token]]);
  }

  release(): void {
    this.context.memo.remove([this.key]);
  }

  /**
   * Waits (briefly, within the deadline) until `done` holds or the claim is gone, looking every
   * POLL_MS (at once when `done` worked longer) with one cache read of the claim and the `keys`
   * `done` reads. The claim and what its holder left are read together, so a claim let go is seen
   * with what it left. A wait never begun (only the time kept for this execution's own requests is
   * left) looks once: what another execution has already left costs a cache read, not a request.
   */
  waitFor(keys: () => readonly string[], done: (hits: Map<string, Cached>) => boolean): void {
    const { clock, client } = this.context;
    const look = () => this.look([...new Set([this.key, ...keys()])]);
    if (client.timeLeft() <= KEEP_FOR_SELF_MS) {
      done(look());
      return;
    }
    const until = clock.now() + CLAIM_MS;
    const pause = poller(clock);
    do {
      pause();
      const hits = look();
      if (done(hits) || !this.live(hits.get(this.key))) return;
    } while (clock.now() < until && client.timeLeft() > KEEP_FOR_SELF_MS);
  }
}

class Misses {
  private readonly snapshot: Snapshot;

  constructor(private readonly context: LookupContext) {
    this.snapshot = new Snapshot(context.memo);
  }

  /** The snapshot, a read of the list when cheaper, then one request per id for what is still missing. */
  fetchMisses(
    own: readonly string[],
    neighboursOf: (() => Neighbours | undefined) | undefined,
    found: Found,
    head: Cached | undefined,
  ) {
    const view = this.snapshot.viewOf(head);
    const fresh = view?.fresh ? view : undefined;
    const lost = this.answer(fresh, own, found);
    let misses = own.filter((id) => !found.has(id));
    if (!misses.length) return;
    // A miss whose bucket the cache has lost may be listed: the list may be read again.
    const whole = fresh && !misses.some((id) => lost.has(id)) ? fresh : undefined;
    const neighbours = neighboursOf?.();
    const ownSet = new Set(own);
    // A read of the list is worth it or not by MAX_FILL_PAGES + 1 ids: the column's are counted that far.
    const wanted = whole
      ? 0
      : misses.length + this.missingNeighbours(neighbours?.column, ownSet, undefined, MAX_FILL_PAGES + 1).length;
    let read: SnapshotView | undefined;
    if (wanted >= FILL_MIN_IDS) {
      read = this.fill(wanted, view?.gen, neighbours?.column ?? own, { own: misses, found }).view;
      this.answer(read, misses, found);
      misses = misses.filter((id) => !found.has(id));
    }
    if (!misses.length) return;
    // The block's other ids matter only to a cell that still asks for its own (and not those the read listed).
    let extra = this.missingNeighbours(neighbours?.ids, ownSet, whole);
    const listed = read && extra.length ? this.snapshot.find(read, extra).records : undefined;
    if (listed) extra = extra.filter((id) => !listed.has(id));
    this.oneByOne(misses, extra, neighbours, found, view);
  }

  /** Answers what it can of `ids` from a fresh snapshot; returns the ids whose bucket the cache has lost. */
  private answer(view: SnapshotView | undefined, ids: readonly string[], found: Found): Set<string> {
    if (!view) return new Set();
    const got = this.snapshot.find(
      view,
      ids.filter((id) => !found.has(id)),
      this.context.fields,
    );
    for (const [id, record] of got.records) found.set(id, { ok: true, value: record });
    return got.lost;
  }

  /**
   * Neighbours' ids that have no fresh answer anywhere (the snapshot's are left out when it is fresh and whole).
   * With `enough`, the first `enough` alone when every one of them misses (a count that need go no further):
   * at most two cache reads, the first of `enough` keys.
   */
  private missingNeighbours(
    neighbours: readonly string[] | undefined,
    own: Set<string>,
    view?: SnapshotView,
    enough = Number.POSITIVE_INFINITY,
  ): string[] {
    if (!neighbours) return [];
    let ids = uniq(neighbours).filter((id) => !own.has(id));
    const listed = view && ids.length ? this.snapshot.find(view, ids).records : undefined;
    if (listed) ids = ids.filter((id) => !listed.has(id));
    if (!ids.length) return [];
    const unanswered = (some: string[]) => {
      const peek = this.context.client.peekPartners(some);
      return some.filter((id) => !peek.has(id));
    };
    const missing = unanswered(ids.slice(0, enough));
    return missing.length < enough ? [...missing, ...unanswered(ids.slice(enough))] : missing;
  }

  /**
   * Every active partner, in list order (LP_FIND): the fresh snapshot; else a new one read now (or
   * by another execution that is reading it); else the last good one, marked stale; else the error.
   */
  activeRecords(): { records: ServiceRecord[]; staleSince?: number } {
    const view = this.snapshot.view();
    const whole = view?.fresh ? this.wholeList(view) : undefined;
    if (whole) return { records: whole };
    const filled = this.fill(Number.POSITIVE_INFINITY, view?.gen);
    const records = filled.view && this.wholeList(filled.view);
    if (records) return { records };
    const known = this.meta();
    const why = known && tooLong(known.total, pagesOf(known));
    const error = filled.error ?? (why ? new ServiceError('BAD_INPUT', why) : undefined);
    const stale = view ? this.snapshot.all(view) : undefined;
    if (stale && (!error || error.fallsBack)) return { records: stale, staleSince: view?.fetchedAt };
    throw error ?? new ServiceError('SERVER', 'The list of active partners could not be read; try again in a minute.');
  }

  /** The whole list, with the formula's fields at least (their column copies when it names them). */
  private wholeList(view: SnapshotView): ServiceRecord[] | undefined {
    const { fields } = this.context;
    return fields ? this.snapshot.columns(view, fields) : this.snapshot.all(view);
  }

  /**
   * Leaves the run's answers in the memo one by one (for the freshness lifetime only), with the
   * fields the formula shows, so the cells Sheets evaluates next each read one small entry instead
   * of the snapshot's buckets.
   */
  private copyColumn(records: ReadonlyMap<string, ServiceRecord>, column: readonly string[]): void {
    const { memo, fields } = this.context;
    const ids = uniq(column)
      .filter((id) => records.has(id))
      .slice(0, MAX_RUN_COPIES);
    const byBucket = new Map<string, Record<string, ServiceRecord>>();
    for (const id of ids) {
      const key = bucketKey(memo, id, fields);
      // No prototype: an id such as "__proto__" is stored as an ordinary entry.
      if (!byBucket.has(key)) byBucket.set(key, Object.create(null) as Record<string, ServiceRecord>);
      (byBucket.get(key) as Record<string, ServiceRecord>)[id] = projected(records.get(id) as ServiceRecord, fields);
    }
    memo.putMany([...byBucket], true);
  }

  /** The list's size, remembered so that cells deciding whether to read it ask once. */
  private meta(hits?: Map<string, Cached>): Meta | undefined {
    const key = snapKey(this.context.memo, 'meta');
    const hit = (hits ?? this.context.memo.getMany([key])).get(key);
    const v = hit?.value as Meta | undefined;
    return hit?.fresh && v && typeof v.total === 'number' && typeof v.size === 'number' ? v : undefined;
  }

  /**
   * Reads the whole active list when that is cheaper than `wanted` requests, or waits for another
   * execution doing it (stopping early once the answers to `wait.own` are in its buckets). `seen` is
   * the generation the caller found (holed, or no longer fresh): any other one published since is
   * taken as it is.
   */
  private fill(
    wanted: number,
    seen?: string,
    column?: readonly string[],
    wait?: { own: string[]; found: Found },
  ): Filled {
    const claim = new Claim(this.context, 'snapshot');
    // The list's size and the claim, in one cache read.
    const opening = this.context.memo.getMany([snapKey(this.context.memo, 'meta'), claim.key]);
    const known = this.meta(opening);
    if (known && !worthReading(wanted, known)) return {};
    // A reader's snapshot is a fresh one other than the one the caller found (which may be holed, as the reader found it).
    const head = this.snapshot.headKey();
    const published = (hits = this.context.memo.getMany([head])): Filled => {
      const v = this.snapshot.viewOf(hits.get(head));
      return v?.fresh && v.gen !== seen ? { view: v } : {};
    };
    // The reader leaves the column's answers before it writes the snapshot: a waiting cell stops at the first of the two.
    // A read of the list leaves answers in the run's buckets only: the ids' own entries are not read again.
    const copies = memoRead(this.context, wait?.own ?? [], { own: false, copies: true });
    const copiesIn = (hits = this.context.memo.getMany(readKeys(copies))) => {
      if (!wait) return false;
      take(this.context, copies, hits, wait.found);
      return all(wait.own, wait.found);
    };
    const shared = this.sharedRead(column);
    // A waiting execution offers to read a share of the reader's pages, and reads the one the reader gives it.
    const waitForReader = () => {
      try {
        shared.help(claim.holder());
        claim.waitFor(
          () => [...shared.lookKeys(), ...readKeys(copies), head],
          (hits) => {
            shared.help(claim.holder(hits), hits);
            return copiesIn(hits) || !!published(hits).view;
          },
        );
      } finally {
        shared.withdraw();
      }
      return published();
    };
    const taken = claim.take(opening, head);
    if (!taken) return waitForReader();
    let lost = false;
    try {
      // Another execution may have published a snapshot since this one looked (while it read its neighbours, say).
      const since = published(taken);
      if (since.view) return since;
      // Another execution may have claimed at the same instant and kept it: then it reads the list, not this one
      // (looked at before page 1 and again after it, so that two executions seldom both ask for page 1).
      lost = !claim.mine();
      const first = known || lost ? undefined : this.learnSize(wanted);
      if (!lost && !known && !first) return {};
      lost ||= !claim.mine();
      if (lost) return waitForReader();
      const filled = this.readAndPublish(claim, shared, first, column);
      // A read shared with others leaves this execution its own answers in the run's buckets, as theirs.
      if (!filled.view?.held) copiesIn();
      return filled;
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      return { error: e };
    } finally {
      if (!lost) claim.release();
    }
  }

  /**
   * Page 1, read to learn (and remember) the list's size; undefined when reading the list is not
   * worth it. Its failure is thrown: the read's error.
   */
  private learnSize(wanted: number): Outcome<Page<ServiceRecord>> | undefined {
    const first = this.context.client.activePartnerPages([1], FILL_PAGE_LIMIT)[0];
    if (!first.ok) throw first.error;
    const meta = sizeOf(first.value);
    this.context.memo.putMany([[snapKey(this.context.memo, 'meta'), meta]]);
    return worthReading(wanted, meta) ? first : undefined;
  }

  /** A read of the list shared with the executions waiting for it (src/api/shares.ts). */
  private sharedRead(column?: readonly string[]): SharedRead {
    const { client, clock, memo, token, random } = this.context;
    const until = () => clock.now() + client.timeLeft() - WRITE_RESERVE_MS - ANSWER_RESERVE_MS;
    return sharedRead(
      {
        memo,
        clock,
        token,
        random,
        until,
        fields: this.context.fields,
        pages: (pages, limit, end) => client.activePartnerPages(pages, limit, { until: end }),
        canWrite: () => client.timeLeft() >= WRITE_RESERVE_MS,
      },
      this.snapshot,
      new Set(column ?? []),
      (records) => client.timeLeft() > WRITE_RESERVE_MS / 2 && this.copyColumn(records, column ?? []),
    );
  }

  /**
   * Reads the list (page 1 already in when `first` is given): shared with the executions waiting for it when it
   * has pages left after page 1, else (or when the list moved under the shared read) by this execution alone;
   * leaves `column`'s answers and a new snapshot.
   */
  private readAndPublish(
    claim: Claim,
    shared: SharedRead,
    first: Outcome<Page<ServiceRecord>> | undefined,
    column?: readonly string[],
  ): Filled {
    const { client, clock, fields } = this.context;
    // The read ends early enough to leave time for writing it and answering the cell.
    const until = clock.now() + client.timeLeft() - WRITE_RESERVE_MS - ANSWER_RESERVE_MS;
    const opening = first ?? client.activePartnerPages([1], FILL_PAGE_LIMIT, { until })[0];
    const firstPage = opening.ok ? opening.value : undefined;
    // The list as page 1 tells it now, not as a size remembered earlier: it may have grown since.
    const why = firstPage && tooLong(firstPage.pagination.totalItems, pagesOf(sizeOf(firstPage)));
    if (why) return { error: new ServiceError('BAD_INPUT', why) };
    const plan = firstPage && shared.post(firstPage, FILL_PAGE_LIMIT);
    let before: number | undefined;
    if (firstPage && plan) {
      const got = this.readShared(claim, shared, plan, firstPage, until);
      if (typeof got !== 'number') return got;
      // The list moved under the shared read: read again here, from page 1, and judged against it.
      before = got;
    }
    // Page 1 as learnt is the first read's only: a read done again because the list moved asks for it again.
    let learnt: Outcome<Page<ServiceRecord>> | undefined = before === undefined ? opening : undefined;
    const fetch: PageFetcher = (pages, limit) => {
      const page1 = learnt && pages.length === 1 && pages[0] === 1 ? learnt : undefined;
      learnt = undefined;
      return page1 ? [page1] : client.activePartnerPages(pages, limit, { until });
    };
    const read = readList(fetch, {
      limit: FILL_PAGE_LIMIT,
      batch: 100,
      passes: plan ? 1 : 2,
      before,
      refuse: (total, pages) => tooLong(total, pages),
    });
    if (!read.verdict.complete) return { error: incompleteError('list of active partners', read.verdict) };
    claim.renew();
    const view = this.snapshot.hold(read.records, timeId(clock.now(), this.context.random));
    // The column's answers first: the cells waiting for this read (and the ones Sheets runs next) need only those.
    if (column && client.timeLeft() > WRITE_RESERVE_MS / 2) this.copyColumn(view.held.byId, column);
    // Writing the snapshot takes time (about 1 s per 10,000 partners): never at the cost of this cell's 30 s.
    if (client.timeLeft() >= WRITE_RESERVE_MS) this.snapshot.publishHeld(view, fields);
    return { view };
  }

  /** Drives a shared read to its end: published, or failed, or (its digest) to be read again. */
  private readShared(claim: Claim, shared: SharedRead, plan: Plan, first: Page<ServiceRecord>, until: number) {
    const { client, clock, fields } = this.context;
    const pause = poller(clock);
    const ended = shared.drive(plan, first, () => {
      if (clock.now() >= until) return false;
      claim.renew();
      pause();
      return true;
    });
    if (!ended.complete) return ended.digest ?? { error: ended.error };
    const whole = shared.whole(plan);
    if (!whole) {
      // The snapshot is this read once published (its generation); else the column's answers are all there is of it.
      const view = this.snapshot.view();
      return view?.gen === plan.gen ? { view } : {};
    }
    const view = this.snapshot.hold(whole, plan.gen);
    if (fields && client.timeLeft() >= WRITE_RESERVE_MS) this.snapshot.copyColumns(view, whole, fields);
    return { view };
  }

  /**
   * One request per id, for this cell's ids and, when this execution can claim the group, its
   * neighbours' too (their answers stay in the cache for them), the cell's own first: near the
   * day's fetch margin the quota guard admits the first of a batch. A cell whose group another
   * execution is fetching waits for that execution's answers first. Failures fall back to the
   * snapshot's last good copy.
   */
  private oneByOne(
    misses: string[],
    extra: string[],
    neighbours: Neighbours | undefined,
    found: Found,
    view: SnapshotView | undefined,
  ): void {
    let todo = misses;
    if (extra.length && neighbours) {
      const claim = new Claim(this.context, `ids:${neighbours.group}`);
      if (claim.take()) {
        try {
          this.fetchInto([...todo, ...extra.slice(0, Math.max(0, MAX_NEIGHBOURS - todo.length))], found, view);
        } finally {
          claim.release();
        }
        return;
      }
      // Its block's fetcher leaves answers id by id: the run's buckets (up to 64 of some 75 KB) are not read.
      const own = memoRead(this.context, todo, { own: true, copies: false });
      claim.waitFor(
        () => readKeys(own),
        (hits) => {
          take(this.context, own, hits, found);
          return all(todo, found);
        },
      );
      todo = todo.filter((id) => !found.has(id));
    }
    if (todo.length) this.fetchInto(todo, found, view);
  }

  private fetchInto(ids: string[], found: Found, view: SnapshotView | undefined): void {
    const outcomes = this.context.client.limitedPartners(ids);
    const failedWithCopy = ids.filter(
      (_, i) => !outcomes[i].ok && (outcomes[i] as { error: ServiceError }).error.fallsBack,
    );
    const stale = view && failedWithCopy.length ? this.snapshot.find(view, failedWithCopy).records : new Map();
    ids.forEach((id, i) => {
      const record = stale.get(id);
      found.set(id, record && view ? { ok: true, value: record, staleSince: view.fetchedAt } : outcomes[i]);
    });
  }
}

/**
 * The pause before each look of a wait: POLL_MS after the last look began, so that a look that follows work
 * (a share read, say) comes at once; the first look comes POLL_MS after the wait began.
 */
function poller(clock: Clock): () => void {
  let due: number | undefined;
  return () => {
    const wake = due ?? clock.now() + POLL_MS;
    if (wake > clock.now()) clock.sleep(wake - clock.now());
    due = clock.now() + POLL_MS;
  };
}

/** The list's size as page 1 tells it. */
function sizeOf(first: Page<ServiceRecord>): Meta {
  return { total: first.pagination.totalItems, size: Math.max(1, first.items.length) };
}

function pagesOf(m: Meta): number {
  return Math.max(1, Math.ceil(m.total / Math.max(1, m.size)));
}

/** Why a formula does not read a list of `total` records in `pages` pages: too many to ask for, or to keep a copy of. */
function tooLong(total: number, pages: number): string | undefined {
  if (total > MAX_SNAPSHOT_RECORDS)
    return `${grouped(total)} active partners are more than the spreadsheet's cache can keep a copy of (${grouped(MAX_SNAPSHOT_RECORDS)} at most), so they can be searched only in an imported sheet.`;
  if (pages > MAX_FILL_PAGES)
    return `${grouped(total)} active partners are too many to read in a formula; run Investor Data ▸ Import once (it keeps a copy the formulas search).`;
  return undefined;
}

/** Whether reading the list (its pages) is cheaper than `wanted` requests, and short enough for a formula. */
function worthReading(wanted: number, m: Meta): boolean {
  return wanted > pagesOf(m) && !tooLong(m.total, pagesOf(m));
}

/** The snapshot (its head as the lookup read it), a read of the list when cheaper, then one request per id for what is still missing. */
export function fetchMisses(
  context: LookupContext,
  own: readonly string[],
  neighboursOf: (() => Neighbours | undefined) | undefined,
  found: Found,
  head: Cached | undefined,
): void {
  new Misses(context).fetchMisses(own, neighboursOf, found, head);
}

/** Every active partner, in list order (PartnerLookup.activeRecords). */
export function activeRecords(context: LookupContext): { records: ServiceRecord[]; staleSince?: number } {
  return new Misses(context).activeRecords();
}
