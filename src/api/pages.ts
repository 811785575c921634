/**
 * The one page reader of the add-in. A paginated list (active partners, a fund's industries) is
 * read through a small pure cursor that trusts only what it can check: it learns the real page
 * size from the first page (a first page that is not the whole list is full), plans pages from
 * `totalItems` and that size (never from `totalPages` or `pageSize`, which it only cross-checks),
 * checks every page's length and total, spots a page that repeats the one before, and confirms
 * the end (a short last page, or the page after the last being empty or refused). A page whose
 * total moved ends the read at once: the list changed, and is read again. It ends with a verdict:
 * complete, or incomplete with the reason. `readList` drives the cursor to the end in
 * one execution (custom functions); the import drives the same cursor across executions.
 */
import { ServiceError } from './errors';
import { fnv1a } from './hash';
import { grouped, plural } from './numbers';
import type { Outcome } from './client';
import { firstOfEachId, type Page, recordId, type ServiceRecord } from './records';

export type PageFetcher = (pages: number[], limit: number) => Outcome<Page<ServiceRecord>>[];

/** Where a read of a list stands. Plain data (JSON-safe), so an import can save it between executions. */
export interface ListCursor {
  /** The `limit` to send: what was asked for until the first page, then the page size the server used. */
  limit: number;
  /** Whether page 1 is in. */
  started: boolean;
  /** Items per page, as observed (0 until page 1 is in). */
  size: number;
  /** `totalItems` as page 1 reported it. */
  totalItems: number;
  /** The last page that should hold items: ceil(totalItems / size). */
  lastPage: number;
  /** Next page to ask for (1-based). */
  nextPage: number;
  /** Whether the end must be confirmed by asking for the page after the last one. */
  probe: boolean;
  /** Items received so far, in pages that passed the checks (the pages taken in). */
  received: number;
  /** Whether the end of the list is confirmed. */
  endConfirmed: boolean;
  /** Whether the list changed under the read (`totalItems` moved, or a page within it was gone): the read ends, to be redone. */
  changed: boolean;
  /** A page within the list the service then said it does not have (the list shrank under the read). */
  gone?: number;
  /** Why the read cannot be trusted, when it cannot. */
  problem?: string;
  /** A short signature of the last page read, to spot a page that repeats it. */
  lastSignature: string;
}

/**
 * A finished read: complete, or why not, whether reading it again may help (`changed`), and when
 * the only fault is ids listed more than once, how many repeats (`repeated`; see steadyRepeats).
 */
export type ListVerdict = { complete: true } | { complete: false; reason: string; changed: boolean; repeated?: number };

/** The ids of a read in list order, repeats included, as one number: two reads that agree id for id give the same. */
export const idsDigest = (ids: readonly string[]): number => fnv1a(`${ids.length}\u0000${ids.join('\u0000')}`);

/**
 * Whether a read whose only fault is ids listed more than once (`digest`: its idsDigest) found the
 * same ids in the same order as the read before it (`before`): then the list does hold those
 * repeats, not a list that moved between pages (which would have missed others): the read is
 * complete, each id kept once. One odd record never fails every list.
 */
export function steadyRepeats(verdict: ListVerdict, digest: number, before: number | undefined): boolean {
  return !verdict.complete && verdict.repeated !== undefined && digest === before;
}

export function startCursor(limit: number): ListCursor {
  return {
    limit,
    started: false,
    size: 0,
    totalItems: 0,
    lastPage: 0,
    nextPage: 1,
    probe: false,
    received: 0,
    endConfirmed: false,
    changed: false,
    lastSignature: '',
  };
}

/** Whether the read is over (complete or not): the end is confirmed, the list changed, or a problem was found. */
export function cursorDone(c: ListCursor): boolean {
  return c.endConfirmed || c.changed || c.problem !== undefined;
}

/** The pages to ask for next, at most `max` of them, in order; the first call asks for page 1 alone. */
export function nextPages(c: ListCursor, max: number): number[] {
  if (cursorDone(c)) return [];
  if (!c.started) return [1];
  const last = c.lastPage + (c.probe ? 1 : 0);
  const out: number[] = [];
  for (let p = c.nextPage; p <= last && out.length < Math.max(1, max); p++) out.push(p);
  return out;
}

function signature(items: readonly ServiceRecord[]): string {
  if (items.length === 0) return '';
  // A record is known by its id when it has a usable one (or a number, in a list not keyed by id), else by its fields.
  const key = (r: ServiceRecord) =>
    recordId(r) !== undefined || typeof r.id === 'number' ? `#${r.id}` : JSON.stringify(r).slice(0, 120);
  return `${items.length}|${key(items[0])}|${key(items[items.length - 1])}`;
}

/** Takes in page `page` (pages must be accepted in order). */
export function acceptPage(c: ListCursor, page: number, value: Page<ServiceRecord>): void {
  if (cursorDone(c) || page !== c.nextPage) return;
  const n = value.items.length;
  const reported = value.pagination;
  const sig = signature(value.items);
  c.nextPage = page + 1;
  if (!c.started) {
    c.started = true;
    c.totalItems = reported.totalItems;
    c.lastSignature = sig;
    if (n === 0) {
      if (reported.totalItems > 0)
        c.problem = `page 1 is empty although the service reports ${plural(reported.totalItems, 'item')}`;
      else c.endConfirmed = true;
      return;
    }
    if (n > reported.totalItems) {
      c.problem = `page 1 holds ${plural(n, 'item')} although the service reports ${grouped(reported.totalItems)} in all`;
      return;
    }
    c.received = n;
    if (n === reported.totalItems) {
      // The whole list came in one page. Unless the page is visibly short of the page size, a
      // longer list could hide behind an under-reported total: ask for page 2 to be sure.
      c.size = n;
      c.lastPage = 1;
      c.probe = n >= c.limit || n >= reported.pageSize;
      c.endConfirmed = !c.probe;
      return;
    }
    // A first page that is not the whole list is full: its length is the real page size.
    c.size = n;
    c.limit = n;
    c.lastPage = Math.ceil(reported.totalItems / n);
    c.probe = reported.totalItems % n === 0;
    return;
  }
  if (reported.totalItems !== c.totalItems) {
    c.changed = true;
    return;
  }
  if (page > c.lastPage) {
    // The page after the last: empty, or the server repeating its last page (clamping), ends the list.
    if (n === 0 || sig === c.lastSignature) c.endConfirmed = true;
    else
      c.problem = `the service reports ${plural(c.totalItems, 'item')} but page ${page}, past the end, holds ${grouped(n)} more`;
    return;
  }
  if (sig === c.lastSignature) {
    c.problem = `page ${grouped(page)} repeats page ${grouped(page - 1)}`;
    return;
  }
  c.lastSignature = sig;
  const expected = page < c.lastPage ? c.size : c.totalItems - (c.lastPage - 1) * c.size;
  if (n !== expected) {
    c.problem = `page ${grouped(page)} holds ${plural(n, 'item')} where ${grouped(expected)} were expected (the service reports ${plural(c.totalItems, 'item')}, ${grouped(c.size)} a page)`;
    return;
  }
  c.received += n;
  if (page === c.lastPage && !c.probe) c.endConfirmed = true;
}

/** Whether a page's refusal says the service has no such page (404 or 400). */
export function noSuchPage(error: ServiceError): boolean {
  return error.code === 'NOT_FOUND' || error.code === 'BAD_INPUT';
}

/**
 * Takes in a page refused as no such page (404 or 400). The page after the last, in its turn, ends
 * the list. A page within the list page 1 reported, not taken in yet, in any order, means the list
 * shrank under the read (or the service contradicts itself): the read ends, changed, to be done
 * again. False for any other refusal, and the cursor is left as it was.
 */
export function acceptRefusal(c: ListCursor, page: number, error: ServiceError): boolean {
  if (!c.started || cursorDone(c) || page < c.nextPage || !noSuchPage(error)) return false;
  if (page <= c.lastPage) {
    c.changed = true;
    c.gone = page;
  } else if (page === c.nextPage && c.probe) {
    c.nextPage = page + 1;
    c.endConfirmed = true;
  } else return false;
  return true;
}

/** The verdict on a finished read, given how many distinct ids it held plus the records skipped for having none (when keyed by id). */
export function listVerdict(c: ListCursor, distinct?: number): ListVerdict {
  if (c.problem !== undefined) return { complete: false, reason: c.problem, changed: false };
  if (c.changed) {
    const reason = c.gone
      ? `page ${grouped(c.gone)} of ${grouped(c.lastPage)} was gone by the time it was asked for (the list shrank while it was read)`
      : 'the list changed while it was read';
    return { complete: false, reason, changed: true };
  }
  if (!c.endConfirmed) return { complete: false, reason: 'the end of the list was not reached', changed: false };
  if (c.received !== c.totalItems) {
    return {
      complete: false,
      reason: `${plural(c.received, 'item')} arrived where the service reports ${grouped(c.totalItems)}`,
      changed: false,
    };
  }
  if (distinct !== undefined && distinct !== c.totalItems) {
    // Consistent pages but repeated ids: the order moved between pages (a live list), so read again.
    return {
      complete: false,
      reason: `${plural(c.totalItems - distinct, 'item')} came twice, so others were missed`,
      repeated: c.totalItems - distinct,
      changed: true,
    };
  }
  return { complete: true };
}

export interface ListRead {
  records: ServiceRecord[];
  verdict: ListVerdict;
  /** The idsDigest of the records read (keyed lists). */
  digest: number;
  /** The service's total, as page 1 reported it. */
  totalItems: number;
}

export interface ReadOptions {
  /** `limit` for page 1 (the server may use fewer). */
  limit: number;
  /** Pages asked for together. */
  batch: number;
  /** Why a list of this many items and pages is not read (refused as a bad request), or undefined to read it. */
  refuse?: (totalItems: number, pages: number) => string | undefined;
  /** Reads of the whole list before an incomplete one is given up (a live list may move under one read). */
  passes?: number;
  /**
   * The list's records are keyed by id (partners): a record without a usable id (idProblem) is
   * skipped, and the read is complete when the distinct ids and the skipped records add up to the
   * total. The default; a list that is not keyed (a fund's industries) is taken as it comes.
   */
  keyed?: boolean;
}

/** The records of the pages a read has taken in, in list order, repeats included. */
type Taken = ServiceRecord[];

/**
 * Takes in one page's outcome; a failure other than the refused page after the last is thrown.
 * Once the read is over (a page of the batch showed the list cannot be trusted), the later pages
 * of the batch are not looked at: their failures are not the list's.
 */
function takeOutcome(c: ListCursor, page: number, outcome: Outcome<Page<ServiceRecord>>, got: Taken, o: ReadOptions) {
  if (cursorDone(c)) return;
  if (!outcome.ok) {
    if (acceptRefusal(c, page, outcome.error)) return;
    throw outcome.error;
  }
  const before = c.received;
  acceptPage(c, page, outcome.value);
  if (c.received > before) got.push(...outcome.value.items);
  // The list's size is page 1's: a list refused is refused at page 1, before any other page is asked for.
  const why = o.refuse?.(c.totalItems, c.lastPage);
  if (why) throw new ServiceError('BAD_INPUT', why);
}

function readOnce(fetch: PageFetcher, o: ReadOptions): ListRead {
  const keyed = o.keyed ?? true;
  const c = startCursor(o.limit);
  const got: Taken = [];
  for (let pages = nextPages(c, o.batch); pages.length; pages = nextPages(c, o.batch)) {
    const outcomes = fetch(pages, c.limit);
    pages.forEach((page, k) => takeOutcome(c, page, outcomes[k], got, o));
  }
  if (!keyed) return { records: got, verdict: listVerdict(c), totalItems: c.totalItems, digest: idsDigest([]) };
  // Keyed by id: a record without a usable id is skipped (and counted), each usable id kept once (firstOfEachId).
  const ids = got.flatMap((r) => recordId(r) ?? []);
  const records = firstOfEachId(got.filter((r) => recordId(r) !== undefined));
  const verdict = listVerdict(c, records.length + got.length - ids.length);
  return { records, verdict, totalItems: c.totalItems, digest: idsDigest(ids) };
}

/** Reads a whole list; a read that the list moved under is done again, up to `passes` reads (see steadyRepeats). */
export function readList(fetch: PageFetcher, o: ReadOptions): ListRead {
  let read = readOnce(fetch, o);
  for (let pass = 1; pass < (o.passes ?? 2) && !read.verdict.complete && read.verdict.changed; pass++) {
    const before = read.digest;
    read = readOnce(fetch, o);
    if (steadyRepeats(read.verdict, read.digest, before)) read = { ...read, verdict: { complete: true } };
  }
  return read;
}

/** The message for a list that could not be read completely: never a silently short list. */
export function incompleteError(what: string, verdict: ListVerdict): ServiceError {
  const reason = verdict.complete ? '' : verdict.reason;
  return new ServiceError(
    'BAD_RESPONSE',
    `The data service sent an inconsistent ${what} (${reason}); nothing is shown rather than a partial list. Try again later.`,
  );
}
