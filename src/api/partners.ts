/**
 * Looking up limited partners at sheet scale. The service has no batch lookup, but its
 * active-partners list returns full records a page at a time, so for many ids reading the list
 * is far cheaper than one request per id. A lookup takes, in order: fresh per-id answers from
 * the memo; the shared snapshot of the active list (src/api/snapshot.ts); when neither has
 * enough and more ids are wanted than the list has pages, a fresh snapshot read by this
 * execution; and one request per id for the rest (inactive or unknown ids, small cases).
 *
 * "Wanted" includes the ids the neighbouring cells will ask for (a formula filled down a column),
 * so the first cold cell fetches for its neighbours and leaves their answers in the cache. A
 * range that reads the list leaves its ids' answers the same way, for single-id formulas after it.
 * Sheets runs many of those cells at once: a short claim in the cache lets one execution fetch
 * for a group while the others wait briefly for its answers instead of fetching the same ids.
 */
import type { Client, Outcome } from './client';
import { ServiceError } from './errors';
import { fnv1a, timeId } from './hash';
import type { Cached, Memo } from './memo';
import { incompleteError, type PageFetcher, readList } from './pages';
import { type Page, recordId, type ServiceRecord } from './records';
import { Snapshot, type SnapshotView } from './snapshot';
import type { Clock } from './transport';

/** Fewer wanted ids than this never read the list. */
export const FILL_MIN_IDS = 30;
/** A formula reads the list itself only up to this many pages; longer lists are left to the import. */
export const MAX_FILL_PAGES = 300;
/** The page size asked for (the service may cap it; the page reader uses what it gets). */
export const FILL_PAGE_LIMIT = 1000;
/** After reading the list for a filled-down column (or a range), this many of its ids' answers are also kept in small buckets (cheap to read). */
export const MAX_RUN_COPIES = 4000;
/** Buckets the run's answers are spread over (by a hash of the id): few cache items, each small enough to read without unzipping. */
export const COPY_BUCKETS = 64;
/**
 * A block of a filled-down column: its cells' ids are fetched one by one together, the cell's own
 * first, in at most this many requests: one batch of the client (parallelism 100 in
 * src/gas/context.ts).
 */
export const MAX_NEIGHBOURS = 100;
/** A claim older than this is abandoned (its execution was killed or is slow). */
export const CLAIM_MS = 25_000;
/** How often a waiting execution looks for the answers it waits for. */
export const POLL_MS = 300;
/** Time that must be left to write a snapshot just read (else it is used in memory only). */
const WRITE_RESERVE_MS = 8_000;
/** Time a read of the list keeps beyond that, for answering the cell once the snapshot is written. */
const ANSWER_RESERVE_MS = 1_500;
/** Time a waiting execution keeps for its own requests after giving up the wait. */
const KEEP_FOR_SELF_MS = 8_000;

export interface LookupContext {
  client: Client;
  memo: Memo;
  clock: Clock;
  /** This execution, for claims. */
  token: string;
  random?: () => number;
}

export interface Neighbours {
  /** Ids the cells of this cell's block will ask for (fetched one by one with its own when cheap). */
  ids: readonly string[];
  /** Ids the whole filled-down column of such cells will ask for (they decide whether reading the list is cheaper). */
  column: readonly string[];
  /** Names the block (sheet, column, rows), so all its cells claim the same key. */
  group: string;
}

interface Meta {
  total: number;
  size: number;
}

const uniq = (xs: readonly string[]) => [...new Set(xs.filter((x) => String(x ?? '').trim() !== ''))];

/** A record another execution left in a run's bucket (fresh copies only). */
function copied(hit: Cached | undefined, id: string): ServiceRecord | undefined {
  const bucket =
    hit?.fresh && hit.value && typeof hit.value === 'object' ? (hit.value as Record<string, unknown>) : undefined;
  // Own properties only: an id such as "__proto__" must not find Object.prototype.
  const record: unknown = bucket ? Object.getOwnPropertyDescriptor(bucket, id)?.value : undefined;
  return record && typeof record === 'object' ? (record as ServiceRecord) : undefined;
}

export class PartnerLookup {
  private readonly snapshot: Snapshot;
  /** The records this execution read from the list, by id, in list order. */
  private readRecords: Map<string, ServiceRecord> | undefined;
  /** Why this execution's read of the list failed, when it did. */
  private fillError: ServiceError | undefined;

  constructor(private readonly context: LookupContext) {
    this.snapshot = new Snapshot(context.memo);
  }

  /** `neighbours` is asked for only when this cell misses (reading them costs sheet reads). */
  lookup(ids: readonly string[], neighboursOf?: () => Neighbours | undefined): Outcome<ServiceRecord>[] {
    const found = new Map<string, Outcome<ServiceRecord>>();
    const wantedOwn = uniq(ids);
    this.fromCache(wantedOwn, found);
    const misses = wantedOwn.filter((id) => !found.has(id));
    if (misses.length) this.fetchMisses(wantedOwn, misses, neighboursOf, found);
    return ids.map((id) => found.get(id) ?? { ok: false, error: new ServiceError('BAD_INPUT', 'An id is empty.') });
  }

  /** One cache read for this cell's own answers, alone or in a run's bucket (small, never unzipped). */
  private fromCache(own: readonly string[], found: Map<string, Outcome<ServiceRecord>>): void {
    const keys = this.context.client.partnerKeys(own).filter((k): k is string => !!k);
    const buckets = own.length <= COPY_BUCKETS ? own.map((id) => this.bucketKey(id)) : [];
    const hits = this.context.memo.getMany([...new Set([...keys, ...buckets])]);
    for (const [id, record] of this.context.client.peekPartners(own, hits)) found.set(id, { ok: true, value: record });
    buckets.forEach((key, i) => {
      const record = copied(hits.get(key), own[i]);
      if (!found.has(own[i]) && record) found.set(own[i], { ok: true, value: record });
    });
  }

  /** The snapshot, a read of the list when cheaper, then one request per id for what is still missing. */
  private fetchMisses(
    own: readonly string[],
    misses: string[],
    neighboursOf: (() => Neighbours | undefined) | undefined,
    found: Map<string, Outcome<ServiceRecord>>,
  ): void {
    let view = this.snapshot.view();
    if (view?.fresh) misses = this.fromSnapshot(view, misses, found);
    if (!misses.length) return;
    // A fresh snapshot that names a chunk the cache has evicted since is holed: it may be read again.
    const holed = !!view?.fresh && misses.some((id) => view?.chunkOf(id) !== undefined);
    const neighbours = neighboursOf?.();
    const ownSet = new Set(own);
    const whole = holed ? undefined : view;
    let extra = this.missingNeighbours(neighbours?.ids, ownSet, whole);
    const wanted = misses.length + (neighbours ? this.missingNeighbours(neighbours.column, ownSet, whole).length : 0);
    if ((!view?.fresh || holed) && wanted >= FILL_MIN_IDS) {
      const filled = this.fill(wanted, view?.gen, neighbours?.column ?? own, misses, found);
      ({ misses, extra, view } = this.afterFill(
        filled,
        misses.filter((id) => !found.has(id)),
        extra,
        found,
        view,
      ));
    }
    if (misses.length) this.oneByOne(misses, extra, neighbours, found, view);
  }

  /** The misses and neighbours left once the list was read (by this execution, in memory, or as a new snapshot). */
  private afterFill(
    filled: SnapshotView | undefined,
    misses: string[],
    extra: string[],
    found: Map<string, Outcome<ServiceRecord>>,
    view: SnapshotView | undefined,
  ) {
    const records = this.readRecords;
    if (records) {
      // This execution read the list: answer from memory (fill left the column's answers for its neighbours).
      for (const id of misses) {
        const record = records.get(id);
        if (record) found.set(id, { ok: true, value: record });
      }
      return { misses: misses.filter((id) => !records.has(id)), extra: extra.filter((id) => !records.has(id)), view };
    }
    if (!filled) return { misses, extra, view };
    const left = this.fromSnapshot(filled, misses, found);
    return { misses: left, extra: extra.filter((id) => filled.chunkOf(id) === undefined), view: filled };
  }

  /** Answers for `ids` from the run's buckets (another execution's copies); true when every one was there. */
  private fromCopies(ids: readonly string[], found: Map<string, Outcome<ServiceRecord>>): boolean {
    const keys = ids.map((id) => this.bucketKey(id));
    const hits = this.context.memo.getMany([...new Set(keys)]);
    ids.forEach((id, i) => {
      const record = copied(hits.get(keys[i]), id);
      if (!found.has(id) && record) found.set(id, { ok: true, value: record });
    });
    return ids.every((id) => found.has(id));
  }

  /** Answers from a fresh view of the snapshot (the only kind it is given); returns the ids it did not hold. */
  private fromSnapshot(view: SnapshotView, ids: string[], found: Map<string, Outcome<ServiceRecord>>): string[] {
    const hits = this.snapshot.lookup(view, ids);
    for (const [id, hit] of hits) found.set(id, { ok: true, value: hit.record });
    return ids.filter((id) => !hits.has(id));
  }

  /** Neighbours' ids that have no fresh answer anywhere (the snapshot's are left out when it is fresh). */
  private missingNeighbours(
    neighbours: readonly string[] | undefined,
    own: Set<string>,
    view: SnapshotView | undefined,
  ): string[] {
    if (!neighbours) return [];
    let ids = uniq(neighbours).filter((id) => !own.has(id));
    if (view?.fresh) ids = ids.filter((id) => view.chunkOf(id) === undefined);
    if (!ids.length) return [];
    const peek = this.context.client.peekPartners(ids);
    return ids.filter((id) => !peek.has(id));
  }

  /**
   * Every active partner, in list order (LP_FIND): the fresh snapshot; else a new one read now (or
   * by another execution that is reading it); else the last good one, marked stale; else the error.
   */
  activeRecords(): { records: ServiceRecord[]; staleSince?: number } {
    const view = this.snapshot.view();
    const whole = view?.fresh ? this.snapshot.all(view) : undefined;
    if (whole) return { records: whole };
    const filled = this.fill(Number.POSITIVE_INFINITY, view?.gen);
    const records = this.readRecords ? [...this.readRecords.values()] : filled ? this.snapshot.all(filled) : undefined;
    if (records) return { records };
    const known = this.meta();
    if (!this.fillError && known && pagesOf(known) > MAX_FILL_PAGES) {
      this.fillError = new ServiceError(
        'BAD_INPUT',
        `${known.total} active partners are too many to read in a formula; run Investor Data ▸ Import once (it keeps a copy the formulas search).`,
      );
    }
    const stale = view ? this.snapshot.all(view) : undefined;
    if (stale && (!this.fillError || this.fillError.fallsBack)) return { records: stale, staleSince: view?.fetchedAt };
    throw (
      this.fillError ??
      new ServiceError('SERVER', 'The list of active partners could not be read; try again in a minute.')
    );
  }

  /**
   * Leaves the run's answers in the memo one by one (for the freshness lifetime only), so the
   * cells Sheets evaluates next each read one small entry instead of the snapshot's chunks.
   */
  private copyColumn(column: readonly string[]): void {
    const records = this.readRecords;
    if (!records) return;
    const ids = uniq(column)
      .filter((id) => records.has(id))
      .slice(0, MAX_RUN_COPIES);
    const byBucket = new Map<string, Record<string, ServiceRecord>>();
    for (const id of ids) {
      const key = this.bucketKey(id);
      // No prototype: an id such as "__proto__" is stored as an ordinary entry.
      if (!byBucket.has(key)) byBucket.set(key, Object.create(null) as Record<string, ServiceRecord>);
      (byBucket.get(key) as Record<string, ServiceRecord>)[id] = records.get(id) as ServiceRecord;
    }
    this.context.memo.putMany([...byBucket], true);
  }

  private bucketKey(id: string): string {
    return this.context.memo.key('copy', String(fnv1a(id) % COPY_BUCKETS));
  }

  private key(name: string): string {
    return this.context.memo.key('claim', name);
  }

  /** Claims `name` for this execution; false when another execution holds a live claim on it. */
  private claim(name: string): boolean {
    const key = this.key(name);
    const held = this.context.memo.getMany([key]).get(key);
    if (held && held.value !== this.context.token && this.context.clock.now() - held.fetchedAt < CLAIM_MS) return false;
    this.context.memo.putMany([[key, this.context.token]]);
    // Two executions may have written at once: the value that stayed decides.
    return this.context.memo.getMany([key]).get(key)?.value === this.context.token;
  }

  /** Whether this execution still holds its claim on `name` (two claims written at the same instant: the later one stays). */
  private holds(name: string): boolean {
    const key = this.key(name);
    return this.context.memo.getMany([key]).get(key)?.value === this.context.token;
  }

  /** Renews this execution's claim on `name`, so that a long read is not taken for abandoned. */
  private renew(name: string): void {
    this.context.memo.putMany([[this.key(name), this.context.token]]);
  }

  private release(name: string): void {
    this.context.memo.remove([this.key(name)]);
  }

  /**
   * Waits (briefly, within the deadline) until `done` holds or the claim on `name` is gone; then
   * says whether `done` holds. A wait cut short by the time (or never begun, when only the time
   * kept for this execution's own requests is left) still looks once: what another execution has
   * already left costs a cache read, not a request.
   */
  private waitFor(name: string, done: () => boolean): boolean {
    const key = this.key(name);
    const until = this.context.clock.now() + CLAIM_MS;
    while (this.context.clock.now() < until && this.context.client.timeLeft() > KEEP_FOR_SELF_MS) {
      this.context.clock.sleep(POLL_MS);
      if (done()) return true;
      const held = this.context.memo.getMany([key]).get(key);
      if (!held || this.context.clock.now() - held.fetchedAt >= CLAIM_MS) return done();
    }
    return done();
  }

  /** The list's size, remembered so that cells deciding whether to read it ask once. */
  private meta(): Meta | undefined {
    const key = this.context.memo.key('snap', 'meta');
    const hit = this.context.memo.getMany([key]).get(key);
    const v = hit?.value as Meta | undefined;
    return hit?.fresh && v && typeof v.total === 'number' && typeof v.size === 'number' ? v : undefined;
  }

  /**
   * Reads the whole active list into a new snapshot when that is cheaper than `wanted` requests,
   * or waits for another execution doing it. Returns the fresh snapshot, or undefined. `seen` is
   * the generation the caller found (holed, or no longer fresh): any other one published since is
   * taken as it is.
   */
  private fill(
    wanted: number,
    seen: string | undefined,
    column?: readonly string[],
    own: readonly string[] = [],
    found?: Map<string, Outcome<ServiceRecord>>,
  ): SnapshotView | undefined {
    const known = this.meta();
    if (known && !worthReading(wanted, known)) return undefined;
    // A reader's snapshot is a fresh one other than the one the caller found (which may be holed, as the reader found it).
    const published = () => {
      const v = this.freshView();
      return v && v.gen !== seen ? v : undefined;
    };
    // The reader leaves the column's answers before it writes the snapshot: a waiting cell stops at the first of the two.
    const copiedOwn = () => found !== undefined && own.length > 0 && this.fromCopies(own, found);
    const waitForReader = () =>
      this.waitFor('snapshot', () => copiedOwn() || published() !== undefined) ? published() : undefined;
    if (!this.claim('snapshot')) return waitForReader();
    let lost = false;
    try {
      // Another execution may have published a snapshot since this one looked (while it read its neighbours, say).
      const since = published();
      if (since) return since;
      const first = known ? undefined : this.learnSize(wanted);
      if (!known && !first) return undefined;
      // Another execution may have claimed at the same instant and kept it: then it reads the list, not this one.
      lost = !this.holds('snapshot');
      return lost ? waitForReader() : this.readAndPublish(first, column);
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      this.fillError = e;
      return undefined;
    } finally {
      if (!lost) this.release('snapshot');
    }
  }

  private freshView(): SnapshotView | undefined {
    const v = this.snapshot.view();
    return v?.fresh ? v : undefined;
  }

  /**
   * Page 1, read to learn (and remember) the list's size; undefined when it failed or reading the
   * list is not worth it.
   */
  private learnSize(wanted: number): Outcome<Page<ServiceRecord>> | undefined {
    const first = this.context.client.activePartnerPages([1], FILL_PAGE_LIMIT)[0];
    if (!first.ok) {
      this.fillError = first.error;
      return undefined;
    }
    const meta: Meta = { total: first.value.pagination.totalItems, size: Math.max(1, first.value.items.length) };
    this.context.memo.putMany([[this.context.memo.key('snap', 'meta'), meta]]);
    return worthReading(wanted, meta) ? first : undefined;
  }

  /**
   * Reads the list (page 1 already in when `first` is given), keeps it in memory, and leaves
   * `column`'s answers and a new snapshot.
   */
  private readAndPublish(
    first: Outcome<Page<ServiceRecord>> | undefined,
    column?: readonly string[],
  ): SnapshotView | undefined {
    // The read ends early enough to leave time for writing it and answering the cell.
    const until = this.context.clock.now() + this.context.client.timeLeft() - WRITE_RESERVE_MS - ANSWER_RESERVE_MS;
    const client = this.context.client;
    // Page 1 as learnt is the first read's only: a read done again because the list moved asks for it again.
    let learnt = first;
    const fetch: PageFetcher = (pages, limit) => {
      const page1 = learnt && pages.length === 1 && pages[0] === 1 ? learnt : undefined;
      learnt = undefined;
      return page1 ? [page1] : client.activePartnerPages(pages, limit, { until });
    };
    const read = readList(fetch, { limit: FILL_PAGE_LIMIT, batch: 100, passes: 2 });
    if (!read.verdict.complete) {
      this.fillError = incompleteError('list of active partners', read.verdict);
      return undefined;
    }
    this.readRecords = new Map(read.records.map((r) => [recordId(r) as string, r]));
    this.renew('snapshot');
    // The column's answers first: the cells waiting for this read (and the ones Sheets runs next) need only those.
    if (column && this.context.client.timeLeft() > WRITE_RESERVE_MS / 2) this.copyColumn(column);
    // Writing the snapshot takes time (about 1 s per 10,000 partners): never at the cost of this cell's 30 s.
    if (this.context.client.timeLeft() < WRITE_RESERVE_MS) return undefined;
    this.snapshot.replace(read.records, timeId(this.context.clock.now(), this.context.random));
    return this.freshView();
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
    found: Map<string, Outcome<ServiceRecord>>,
    view: SnapshotView | undefined,
  ): void {
    let todo = misses;
    if (extra.length && neighbours) {
      const name = `ids:${neighbours.group}`;
      if (this.claim(name)) {
        try {
          this.fetchInto([...todo, ...extra.slice(0, Math.max(0, MAX_NEIGHBOURS - todo.length))], found, view);
        } finally {
          this.release(name);
        }
        return;
      }
      this.waitFor(name, () => this.context.client.peekPartners(todo).size === todo.length);
      const peek = this.context.client.peekPartners(todo);
      for (const [id, record] of peek) found.set(id, { ok: true, value: record });
      todo = todo.filter((id) => !peek.has(id));
    }
    if (todo.length) this.fetchInto(todo, found, view);
  }

  private fetchInto(ids: string[], found: Map<string, Outcome<ServiceRecord>>, view: SnapshotView | undefined): void {
    const outcomes = this.context.client.limitedPartners(ids);
    const failedWithCopy = ids.filter(
      (_, i) => !outcomes[i].ok && (outcomes[i] as { error: ServiceError }).error.fallsBack,
    );
    const stale = view && failedWithCopy.length ? this.snapshot.lookup(view, failedWithCopy) : new Map();
    ids.forEach((id, i) => {
      const hit = stale.get(id);
      found.set(id, hit ? { ok: true, value: hit.record, staleSince: hit.fetchedAt } : outcomes[i]);
    });
  }
}

function pagesOf(m: Meta): number {
  return Math.max(1, Math.ceil(m.total / Math.max(1, m.size)));
}

/** Whether reading the list (its pages) is cheaper than `wanted` requests, and short enough for a formula. */
function worthReading(wanted: number, m: Meta): boolean {
  return wanted > pagesOf(m) && pagesOf(m) <= MAX_FILL_PAGES;
}
