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
import { fnv1a } from './hash';
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
 * among them, in at most this many requests: one batch of the client (parallelism 100 in
 * src/gas/context.ts), which the quota guard sends or refuses whole.
 */
export const MAX_NEIGHBOURS = 100;
/** A claim older than this is abandoned (its execution was killed or is slow). */
export const CLAIM_MS = 25_000;
/** How often a waiting execution looks for the answers it waits for. */
export const POLL_MS = 300;
/** Time that must be left to write a snapshot just read (else it is used in memory only). */
const WRITE_RESERVE_MS = 8_000;
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
  /** Ids the whole run of such cells will ask for (they decide whether reading the list is cheaper). */
  run: readonly string[];
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
  const bucket = hit?.fresh && hit.value && typeof hit.value === 'object' ? (hit.value as Record<string, unknown>) : undefined;
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

  constructor(private readonly c: LookupContext) {
    this.snapshot = new Snapshot(c.memo);
  }

  /** `neighbours` is asked for only when this cell misses (reading them costs sheet reads). */
  lookup(ids: readonly string[], neighboursOf?: () => Neighbours | undefined): Outcome<ServiceRecord>[] {
    const found = new Map<string, Outcome<ServiceRecord>>();
    const wantedOwn = uniq(ids);
    // One cache read for this cell's own answers, alone or in a run's bucket (small, never unzipped).
    const keys = this.c.client.partnerKeys(wantedOwn).filter((k): k is string => !!k);
    const buckets = wantedOwn.length <= COPY_BUCKETS ? wantedOwn.map((id) => this.bucketKey(id)) : [];
    const hits = this.c.memo.getMany([...new Set([...keys, ...buckets])]);
    const peek = this.c.client.peekPartners(wantedOwn, hits);
    for (const [id, record] of peek) found.set(id, { ok: true, value: record });
    wantedOwn.forEach((id, i) => {
      const record = i < buckets.length ? copied(hits.get(buckets[i]), id) : undefined;
      if (!found.has(id) && record) found.set(id, { ok: true, value: record });
    });
    let misses = wantedOwn.filter((id) => !found.has(id));
    let view: SnapshotView | undefined;
    let extra: string[] = [];
    let neighbours: Neighbours | undefined;
    if (misses.length) {
      view = this.snapshot.view();
      if (view?.fresh) misses = this.fromSnapshot(view, misses, found);
      // A fresh snapshot that names a chunk the cache has evicted since is holed: it may be read again.
      const holed = !!view?.fresh && misses.some((id) => view?.chunkOf(id) !== undefined);
      if (misses.length) {
        neighbours = neighboursOf?.();
        const own = new Set(wantedOwn);
        const whole = holed ? undefined : view;
        extra = this.missingNeighbours(neighbours?.ids, own, whole);
        const wanted = misses.length + (neighbours ? this.missingNeighbours(neighbours.run, own, whole).length : 0);
        if ((!view?.fresh || holed) && wanted >= FILL_MIN_IDS) {
          const filled = this.fill(wanted, view?.gen, neighbours?.run ?? wantedOwn, misses, found);
          misses = misses.filter((id) => !found.has(id));
          const records = this.readRecords;
          if (records) {
            // This execution read the list: answer from memory (fill left the column's answers for its neighbours).
            for (const id of misses) {
              const record = records.get(id);
              if (record) found.set(id, { ok: true, value: record });
            }
            misses = misses.filter((id) => !records.has(id));
            extra = extra.filter((id) => !records.has(id));
          } else if (filled) {
            view = filled;
            misses = this.fromSnapshot(filled, misses, found);
            extra = extra.filter((id) => filled.chunkOf(id) === undefined);
          }
        }
      }
    }
    if (misses.length) this.oneByOne(misses, extra, neighbours, found, view);
    return ids.map((id) => found.get(id) ?? { ok: false, error: new ServiceError('BAD_INPUT', 'An id is empty.') });
  }

  /** Answers for `ids` from the run's buckets (another execution's copies); true when every one was there. */
  private fromCopies(ids: readonly string[], found: Map<string, Outcome<ServiceRecord>>): boolean {
    const keys = ids.map((id) => this.bucketKey(id));
    const hits = this.c.memo.getMany([...new Set(keys)]);
    ids.forEach((id, i) => {
      const record = copied(hits.get(keys[i]), id);
      if (!found.has(id) && record) found.set(id, { ok: true, value: record });
    });
    return ids.every((id) => found.has(id));
  }

  private fromSnapshot(view: SnapshotView, ids: string[], found: Map<string, Outcome<ServiceRecord>>): string[] {
    const hits = this.snapshot.lookup(view, ids);
    for (const [id, hit] of hits) found.set(id, hit.fresh ? { ok: true, value: hit.record } : { ok: true, value: hit.record, staleSince: hit.fetchedAt });
    return ids.filter((id) => !hits.has(id));
  }

  /** Neighbours' ids that have no fresh answer anywhere (the snapshot's are left out when it is fresh). */
  private missingNeighbours(neighbours: readonly string[] | undefined, own: Set<string>, view: SnapshotView | undefined): string[] {
    if (!neighbours) return [];
    let ids = uniq(neighbours).filter((id) => !own.has(id));
    if (view?.fresh) ids = ids.filter((id) => view.chunkOf(id) === undefined);
    if (!ids.length) return [];
    const peek = this.c.client.peekPartners(ids);
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
      this.fillError = new ServiceError('BAD_INPUT', `${known.total} active partners are too many to read in a formula; run Investor Data ▸ Import once (it keeps a copy the formulas search).`);
    }
    const stale = view ? this.snapshot.all(view) : undefined;
    if (stale && (!this.fillError || this.fillError.fallsBack)) return { records: stale, staleSince: view?.fetchedAt };
    throw this.fillError ?? new ServiceError('SERVER', 'The list of active partners could not be read; try again in a minute.');
  }

  /**
   * Leaves the run's answers in the memo one by one (for the freshness lifetime only), so the
   * cells Sheets evaluates next each read one small entry instead of the snapshot's chunks.
   */
  private copyRun(run: readonly string[]): void {
    const records = this.readRecords;
    if (!records) return;
    const ids = uniq(run).filter((id) => records.has(id)).slice(0, MAX_RUN_COPIES);
    const byBucket = new Map<string, Record<string, ServiceRecord>>();
    for (const id of ids) {
      const key = this.bucketKey(id);
      // No prototype: an id such as "__proto__" is stored as an ordinary entry.
      if (!byBucket.has(key)) byBucket.set(key, Object.create(null) as Record<string, ServiceRecord>);
      (byBucket.get(key) as Record<string, ServiceRecord>)[id] = records.get(id) as ServiceRecord;
    }
    this.c.memo.putMany([...byBucket], true);
  }

  private bucketKey(id: string): string {
    return this.c.memo.key('copy', String(fnv1a(id) % COPY_BUCKETS));
  }

  private key(name: string): string {
    return this.c.memo.key('claim', name);
  }

  /** Claims `name` for this execution; false when another execution holds a live claim on it. */
  private claim(name: string): boolean {
    const key = this.key(name);
    const held = this.c.memo.getMany([key]).get(key);
    if (held && held.value !== this.c.token && this.c.clock.now() - held.fetchedAt < CLAIM_MS) return false;
    this.c.memo.putMany([[key, this.c.token]]);
    // Two executions may have written at once: the value that stayed decides.
    return this.c.memo.getMany([key]).get(key)?.value === this.c.token;
  }

  /** Whether this execution still holds its claim on `name` (two claims written at the same instant: the later one stays). */
  private holds(name: string): boolean {
    const key = this.key(name);
    return this.c.memo.getMany([key]).get(key)?.value === this.c.token;
  }

  /** Renews this execution's claim on `name`, so that a long read is not taken for abandoned. */
  private renew(name: string): void {
    this.c.memo.putMany([[this.key(name), this.c.token]]);
  }

  private release(name: string): void {
    this.c.memo.remove([this.key(name)]);
  }

  /** Waits (briefly, within the deadline) until `done` holds or the claim on `name` is gone. */
  private waitFor(name: string, done: () => boolean): boolean {
    const key = this.key(name);
    const until = this.c.clock.now() + CLAIM_MS;
    while (this.c.clock.now() < until && this.c.client.timeLeft() > KEEP_FOR_SELF_MS) {
      this.c.clock.sleep(POLL_MS);
      if (done()) return true;
      const held = this.c.memo.getMany([key]).get(key);
      if (!held || this.c.clock.now() - held.fetchedAt >= CLAIM_MS) return done();
    }
    return false;
  }

  /** The list's size, remembered so that cells deciding whether to read it ask once. */
  private meta(): Meta | undefined {
    const key = this.c.memo.key('snap', 'meta');
    const hit = this.c.memo.getMany([key]).get(key);
    const v = hit?.value as Meta | undefined;
    return hit?.fresh && v && typeof v.total === 'number' && typeof v.size === 'number' ? v : undefined;
  }

  /**
   * Reads the whole active list into a new snapshot when that is cheaper than `wanted` requests,
   * or waits for another execution doing it. Returns the fresh snapshot, or undefined. `seen` is
   * the generation the caller found (holed, or no longer fresh): any other one published since is
   * taken as it is.
   */
  private fill(wanted: number, seen: string | undefined, run?: readonly string[], own: readonly string[] = [], found?: Map<string, Outcome<ServiceRecord>>): SnapshotView | undefined {
    const fresh = () => {
      const v = this.snapshot.view();
      return v?.fresh ? v : undefined;
    };
    const known = this.meta();
    if (known && (wanted <= pagesOf(known) || pagesOf(known) > MAX_FILL_PAGES)) return undefined;
    // The reader leaves the column's answers before it writes the snapshot: a waiting cell stops at the first of the two.
    const copied = () => found !== undefined && own.length > 0 && this.fromCopies(own, found);
    const waitForReader = () => (this.waitFor('snapshot', () => copied() || fresh() !== undefined) ? fresh() : undefined);
    if (!this.claim('snapshot')) return waitForReader();
    let lost = false;
    try {
      // Another execution may have published a snapshot since this one looked (while it read its neighbours, say).
      const published = fresh();
      if (published && published.gen !== seen) return published;
      let first: Outcome<Page<ServiceRecord>> | undefined;
      const fetch: PageFetcher = (pages, limit) => {
        if (pages.length === 1 && pages[0] === 1 && first) return [first];
        return this.c.client.activePartnerPages(pages, limit);
      };
      if (!known) {
        first = this.c.client.activePartnerPages([1], FILL_PAGE_LIMIT)[0];
        if (!first.ok) this.fillError = first.error;
        if (!first.ok || first.staleSince !== undefined) return undefined;
        const size = Math.max(1, first.value.items.length);
        const meta: Meta = { total: first.value.pagination.totalItems, size };
        this.c.memo.putMany([[this.c.memo.key('snap', 'meta'), meta]]);
        if (wanted <= pagesOf(meta) || pagesOf(meta) > MAX_FILL_PAGES) return undefined;
      }
      // Another execution may have claimed at the same instant and kept it: then it reads the list, not this one.
      if (!this.holds('snapshot')) {
        lost = true;
        return waitForReader();
      }
      // The read ends early enough to leave time for writing it and answering the cell.
      const until = this.c.clock.now() + this.c.client.timeLeft() - WRITE_RESERVE_MS;
      const read = this.c.client.within(until, () => readList(fetch, { limit: FILL_PAGE_LIMIT, batch: 100, passes: 2 }));
      if (!read.verdict.complete) this.fillError = incompleteError('list of active partners', read.verdict);
      if (!read.verdict.complete || read.staleSince !== undefined) return undefined;
      this.readRecords = new Map(read.records.map((r) => [recordId(r) as string, r]));
      this.renew('snapshot');
      // The column's answers first: the cells waiting for this read (and the ones Sheets runs next) need only those.
      if (run && this.c.client.timeLeft() > WRITE_RESERVE_MS / 2) this.copyRun(run);
      // Writing the snapshot takes time (about 1 s per 10,000 partners): never at the cost of this cell's 30 s.
      if (this.c.client.timeLeft() < WRITE_RESERVE_MS) return undefined;
      const gen = Snapshot.newGeneration(this.c.clock.now(), this.c.random ?? Math.random);
      this.snapshot.replace(read.records, gen);
      return fresh();
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      this.fillError = e;
      return undefined;
    } finally {
      if (!lost) this.release('snapshot');
    }
  }

  /**
   * One request per id, for this cell's ids and, when this execution can claim the group, its
   * neighbours' too (their answers stay in the cache for them). A cell whose group another
   * execution is fetching waits for that execution's answers first; a batch the quota guard refuses
   * whole is tried again with the cell's own ids alone. Failures fall back to the snapshot's last
   * good copy.
   */
  private oneByOne(misses: string[], extra: string[], neighbours: Neighbours | undefined, found: Map<string, Outcome<ServiceRecord>>, view: SnapshotView | undefined): void {
    let todo = misses;
    let also: string[] = [];
    if (extra.length && neighbours) {
      const name = `ids:${neighbours.group}`;
      if (this.claim(name)) {
        also = extra.slice(0, Math.max(0, MAX_NEIGHBOURS - todo.length));
        try {
          this.fetchInto([...todo, ...also], found, view);
          // Near the day's fetch margin the batch with the neighbours may be refused whole: this cell's own ids alone may still fit.
          const refused = todo.filter((id) => {
            const o = found.get(id);
            return o !== undefined && !o.ok && o.error.code === 'QUOTA';
          });
          if (refused.length) this.fetchInto(refused, found, view);
        } finally {
          this.release(name);
        }
        return;
      }
      this.waitFor(name, () => this.c.client.peekPartners(todo).size === todo.length);
      const peek = this.c.client.peekPartners(todo);
      for (const [id, record] of peek) found.set(id, { ok: true, value: record });
      todo = todo.filter((id) => !peek.has(id));
    }
    if (todo.length) this.fetchInto(todo, found, view);
  }

  private fetchInto(ids: string[], found: Map<string, Outcome<ServiceRecord>>, view: SnapshotView | undefined): void {
    const outcomes = this.c.client.limitedPartners(ids);
    const failedWithCopy = ids.filter((_, i) => !outcomes[i].ok && (outcomes[i] as { error: ServiceError }).error.fallsBack);
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
