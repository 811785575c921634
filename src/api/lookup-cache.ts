/**
 * What a lookup of limited partners (./partners.ts) finds in the cache without asking anything
 * else: a cell's own per-id entries and the run's buckets another execution left, read in one
 * cache call; with the lookup's settings and the keys its reads share.
 */
import type { Client, Outcome } from './client';
import { fnv1a } from './hash';
import type { Cached, Memo } from './memo';
import type { ServiceRecord } from './records';
import type { Clock } from './transport';

/** Fewer wanted ids than this never read the list. */
export const FILL_MIN_IDS = 30;
/** A formula reads the list itself only up to this many pages; longer lists are left to the import. */
export const MAX_FILL_PAGES = 300;
/**
 * Records the shared snapshot (./snapshot.ts) holds at most: 850 buckets of 200 records, 85 % of the
 * 1,000 items a cache keeps (the document cache, which the spreadsheet's users and keys share), so
 * that the column copies scans leave and other formulas' answers fit beside it. Measured after an
 * import of 160,809 active partners: its 805 buckets, then the column copies of an LP_MATCH and an
 * LP_FIND, made 909 items. A list of 200,646 made 1,004 buckets: the cache dropped the first ones
 * as the last were written, LP_FIND and LP_MATCH found no whole copy (and said to run the import
 * just run), and a warm LP_GET over 1,000 ids asked for 666 of them again. A longer list is neither
 * written by an import nor read by a formula, and a formula that needs all of it says why.
 */
export const MAX_SNAPSHOT_RECORDS = 170_000;
/** The page size asked for (the service may cap it; the page reader uses what it gets). */
export const FILL_PAGE_LIMIT = 1000;
/**
 * After reading the list for a filled-down column (or a range), this many of its ids' answers are
 * also kept in small buckets, cheap to read: about 31 partners a bucket, some 75 KB with every
 * field (fewer with the fields the formula shows), never gzipped (at 4,000 with every field they
 * were, and a cold range over 10,000 ids took 0.3 s more).
 */
export const MAX_RUN_COPIES = 2000;
/**
 * Buckets the run's answers are spread over (by a hash of the id): few cache items, each small
 * enough to read without unzipping. A snapshot bucket holds about 200 partners, gzipped: a cell
 * that read one instead took twice the time (33 ms against 16 per cell of a 1,000-cell fill-down).
 */
export const COPY_BUCKETS = 64;
/**
 * A block of a filled-down column: its cells' ids are fetched one by one together, the cell's own
 * first, in at most this many requests: one batch of the client (parallelism 100 in
 * src/gas/context.ts).
 */
export const MAX_NEIGHBOURS = 100;
/** A claim older than this is abandoned (its execution was killed or is slow). */
export const CLAIM_MS = 25_000;
/** How often a waiting execution looks for the answers it waits for (and for a share of the list's read to take). */
export const POLL_MS = 20;
export interface LookupContext {
  client: Client;
  memo: Memo;
  clock: Clock;
  /** This execution, for claims. */
  token: string;
  random?: () => number;
  /**
   * The fields the formula shows (every field when absent): a scan of the snapshot then reads only
   * their column copies, and a read of the list leaves them.
   */
  fields?: readonly string[];
}

export interface Neighbours {
  /** Ids the cells of this cell's block will ask for (fetched one by one with its own when cheap). */
  ids: readonly string[];
  /** Ids the whole filled-down column of such cells will ask for (they decide whether reading the list is cheaper). */
  column: readonly string[];
  /** Names the block (sheet, column, rows), so all its cells claim the same key. */
  group: string;
}

export type Found = Map<string, Outcome<ServiceRecord>>;

export const uniq = (xs: readonly string[]) => [...new Set(xs.filter((x) => String(x ?? '').trim() !== ''))];
export const all = (ids: readonly string[], found: Found) => ids.every((id) => found.has(id));

/** The cache key of a name of the shared snapshot (src/api/snapshot.ts) or of the reads that make it. */
export const snapKey = (memo: Memo, name: string): string => memo.key('snap', name);
/** The cache key of the snapshot's head (src/api/snapshot.ts), which a lookup reads with its own answers. */
export const headKey = (memo: Memo): string => snapKey(memo, 'head');

/**
 * The run's bucket an id's answer is copied to for a formula showing `fields` (every field when absent):
 * the cells of one filled-down column show the same fields, and a bucket holds only those.
 */
export const bucketKey = (memo: Memo, id: string, fields?: readonly string[]): string =>
  memo.key('copy', `${fields ? fnv1a(fields.join('\u0000')) : 'all'}.${fnv1a(id) % COPY_BUCKETS}`);

/** What a run's bucket keeps of a record for a formula showing `fields`: those and its id (the whole record when absent). */
export function projected(record: ServiceRecord, fields?: readonly string[]): ServiceRecord {
  if (!fields) return record;
  const has = Object.prototype.hasOwnProperty;
  // Defined, not assigned (fromEntries): a field named "__proto__" is an ordinary one.
  return Object.fromEntries(['id', ...fields].filter((f) => has.call(record, f)).map((f) => [f, record[f]]));
}

/** A record another execution left in a run's bucket (fresh copies only). */
function copied(hit: Cached | undefined, id: string): ServiceRecord | undefined {
  // Own properties only: an id such as "__proto__" must not find Object.prototype.
  const record: unknown = hit?.fresh && hit.value ? Object.getOwnPropertyDescriptor(hit.value, id)?.value : undefined;
  return record && typeof record === 'object' ? (record as ServiceRecord) : undefined;
}

/** What a lookup reads of the memo for `ids`: their own entries (their keys, when `own`) and their run's buckets (when `copies`). */
export interface MemoRead {
  ids: readonly string[];
  keys: Array<string | undefined>;
  buckets: string[];
}

export function memoRead(
  context: LookupContext,
  ids: readonly string[],
  read: { own: boolean; copies: boolean },
): MemoRead {
  const buckets = read.copies ? ids.map((id) => bucketKey(context.memo, id, context.fields)) : [];
  return { ids, keys: read.own ? context.client.partnerKeys(ids) : [], buckets };
}

/** The cache keys of a read. */
export const readKeys = (r: MemoRead): string[] => [...r.keys.filter((k): k is string => !!k), ...r.buckets];

/** Takes into `found` the answers a cache read (`hits`) holds for `r`'s ids: their own entries, else their run's buckets. */
export function take(context: LookupContext, r: MemoRead, hits: Map<string, Cached>, found: Found): void {
  const { ids, keys, buckets } = r;
  for (const [id, record] of context.client.peekPartners(ids, hits, keys)) found.set(id, { ok: true, value: record });
  buckets.forEach((key, i) => {
    const record = copied(hits.get(key), ids[i]);
    if (!found.has(ids[i]) && record) found.set(ids[i], { ok: true, value: record });
  });
}

/** Answers from the memo in one cache read (with the keys `also`): the ids' own entries, the run's buckets, or both. */
export function fromMemo(
  context: LookupContext,
  ids: readonly string[],
  found: Found,
  read: { own: boolean; copies: boolean },
  also: readonly string[],
): Map<string, Cached> {
  const r = memoRead(context, ids, read);
  const hits = context.memo.getMany([...new Set([...readKeys(r), ...also])]);
  take(context, r, hits, found);
  return hits;
}
