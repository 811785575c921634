/**
 * Looking up limited partners at sheet scale. The service has no batch lookup, but its
 * active-partners list returns full records a page at a time, so for many ids reading the list
 * is far cheaper than one request per id. A lookup takes, in order: fresh per-id answers from
 * the memo; the shared snapshot of the active list (src/api/snapshot.ts); when neither has
 * enough and more ids are wanted than the list has pages, a fresh copy of the list read by this
 * execution; and one request per id for the rest (inactive or unknown ids, small cases).
 *
 * "Wanted" includes the ids the neighbouring cells will ask for (a formula filled down a column),
 * so the first cold cell fetches for its neighbours and leaves their answers in the cache. A
 * range that reads the list leaves its ids' answers the same way, for single-id formulas after it.
 * Sheets runs many of those cells at once: a short claim in the cache lets one execution fetch
 * for a group while the others wait briefly for its answers instead of fetching the same ids, and
 * the cells waiting for a read of the list each read a share of its pages (src/api/shares.ts).
 *
 * This module is what a cell answered from the cache runs: its own entries and the run's buckets,
 * in one cache read. Everything a miss needs (the snapshot, the list's read, claims, requests) is
 * in ./misses.ts, which the bundle compiles only in an execution that misses.
 */
import type { Outcome } from './client';
import { ServiceError } from './errors';
import {
  all,
  COPY_BUCKETS,
  type Found,
  fromMemo,
  type LookupContext,
  type Neighbours,
  headKey,
  uniq,
} from './lookup-cache';
import { activeRecords, fetchMisses } from './misses';
import type { ServiceRecord } from './records';

export class PartnerLookup {
  constructor(private readonly context: LookupContext) {}

  /** `neighbours` is asked for only when this cell misses (reading them costs sheet reads). */
  lookup(ids: readonly string[], neighboursOf?: () => Neighbours | undefined): Outcome<ServiceRecord>[] {
    const found: Found = new Map();
    const own = uniq(ids);
    // One cache read for this cell's own answers, alone or in a run's bucket (small, never unzipped), and the snapshot's head.
    const head = headKey(this.context.memo);
    const hits = fromMemo(this.context, own, found, { own: true, copies: own.length <= COPY_BUCKETS }, [head]);
    if (!all(own, found)) fetchMisses(this.context, own, neighboursOf, found, hits.get(head));
    return ids.map((id) => found.get(id) ?? { ok: false, error: new ServiceError('BAD_INPUT', 'An id is empty.') });
  }

  /**
   * Every active partner, in list order (LP_FIND): the fresh snapshot; else a new one read now (or
   * by another execution that is reading it); else the last good one, marked stale; else the error.
   */
  activeRecords(): { records: ServiceRecord[]; staleSince?: number } {
    return activeRecords(this.context);
  }
}
