/**
 * The one page reader of the add-in (docs/architecture.md, "An import, step by step"): a read is one
 * record, the list's shape and one slot per page; `plan` and `verdict` are pure functions of it, and
 * `drive` the one loop over it, run to the end by `readList` (formulas) or step by step (the import).
 */
import { ServiceError } from './errors';
import { fnv1a } from './hash';
import { grouped, plural } from './numbers';
import type { Outcome } from './client';
import { firstOfEachId, type Page, recordId, type ServiceRecord } from './records';

export type PageFetcher = (pages: number[], limit: number) => Outcome<Page<ServiceRecord>>[];

/** Pages after the first one not checked in order that a read asks for at most (the record stays small). */
export const MAX_AHEAD = 500;

/**
 * A read of a list, plain data. `slots`: a mark for each page from `next` on (later pages are due): `.` due,
 * `w` waiting, `f` failed (due in the next step), `i` in, `x` absent; `vals`: a waiting page's time, a page's signature.
 */
export interface ListRecord {
  /** The `limit` to send: the one asked for until page 1 is in, then the page size the server used. */
  limit: number;
  /** From page 1: the total, the page size (0 until then) and the last page holding items. */
  total: number;
  size: number;
  last: number;
  /** Whether the end must be confirmed by the page after the last. */
  probe: boolean;
  /** The first page not checked in order, and the signature of the one before it. */
  next: number;
  sig: string;
  slots: string;
  vals: (number | string | null)[];
  over?: 'done' | 'changed' | 'problem';
  reason?: string;
}

/** Complete, or why not, whether reading again may help, and how many ids came twice when that is the only fault. */
export type ListVerdict = { complete: true } | { complete: false; reason: string; changed: boolean; repeated?: number };

/** The ids of a read in list order, repeats included, as one number: two reads that agree id for id give the same. */
export const idsDigest = (ids: readonly string[]): number => fnv1a(`${ids.length}\u0000${ids.join('\u0000')}`);

export function startRead(limit: number): ListRecord {
  return { limit, total: 0, size: 0, last: 0, probe: false, next: 1, sig: '', slots: '', vals: [] };
}

/** The rows page `page` holds once page 1 is in: full pages, then the rest, then none (the page after the last). */
export function rowsOf(r: Pick<ListRecord, 'size' | 'total' | 'last'>, page: number): number {
  if (page < r.last) return r.size;
  return page === r.last ? r.total - (r.last - 1) * r.size : 0;
}

/** Rows of the pages before `page`. */
export const rowsBefore = (r: ListRecord, page: number): number => Math.min(r.total, (page - 1) * r.size);

const slot = (r: ListRecord, page: number): string => r.slots[page - r.next] ?? '.';

/** Whether page `page` is in. */
export const pageIn = (r: ListRecord, page: number): boolean => page < r.next || slot(r, page) === 'i';

/** Sets page `page`'s slot to `m`, with its time or signature. */
function mark(r: ListRecord, page: number, m: '.' | 'w' | 'f' | 'i' | 'x', value: number | string | null = null): void {
  const k = page - r.next;
  const marks = [...r.slots.padEnd(k + 1, '.')];
  marks[k] = m;
  r.slots = marks.join('').replace(/\.+$/, '');
  r.vals = Array.from(r.slots, (_, i) => (i === k ? value : (r.vals[i] ?? null)));
}

/** The page after the last holding items, when the read must ask for it (else the last). */
export const end = (r: ListRecord): number => (r.next === 1 ? 1 : r.last + (r.probe ? 1 : 0));

/** What to ask next at `now`: up to `max` due pages in order (page 1 alone first), or when the first waiting one is due. */
export function plan(r: ListRecord, now: number, max: number): { ask: number[]; wake?: number; page?: number } {
  const ask: number[] = [];
  let wake: { wake: number; page: number } | undefined;
  if (r.over) return { ask };
  for (let p = r.next; p <= Math.min(end(r), r.next + MAX_AHEAD) && ask.length < Math.max(1, max); p++) {
    const m = slot(r, p);
    const at = m === 'w' ? (r.vals[p - r.next] as number) : 0;
    if (m === '.' || (m === 'w' && at <= now)) ask.push(p);
    else if (m === 'w' && at < (wake?.wake ?? Number.POSITIVE_INFINITY)) wake = { wake: at, page: p };
  }
  return ask.length ? { ask } : { ask, ...wake };
}

/** A new read of the same list: the pages that wait for a time still wait (a Retry-After is the service's, not the read's). */
export function readAgain(r: ListRecord, limit: number): ListRecord {
  const again = startRead(limit);
  [...r.slots].forEach((m, k) => m === 'w' && mark(again, r.next + k, 'w', r.vals[k]));
  return again;
}

/** A new step: the pages that failed in the last one are due again. */
export function newStep(r: ListRecord): void {
  r.slots = r.slots.replace(/f/g, '.');
}

/** Pages in: those checked in order and those in their slots (the page after the last is not counted). */
export const pagesIn = (r: ListRecord): number =>
  Math.max(0, Math.min(r.next - 1, r.last)) + (r.slots.match(/i/g)?.length ?? 0);

function signature(items: readonly ServiceRecord[]): string {
  // A record is known by its id when it has a usable one (or a number, in a list not keyed by id), else by its fields.
  const key = (r: ServiceRecord) =>
    recordId(r) !== undefined || typeof r.id === 'number' ? `#${r.id}` : JSON.stringify(r).slice(0, 120);
  const n = items.length;
  return n ? fnv1a(`${n}|${key(items[0])}|${key(items[n - 1])}`).toString(36) : '';
}

function stop(r: ListRecord, over: 'changed' | 'problem', reason: string): false {
  r.over = over;
  r.reason = reason;
  return false;
}

/** What a read keeps of a page: its length, the total and page size it reports, and its signature. */
export interface PageFacts {
  n: number;
  total: number;
  pageSize: number;
  sig: string;
}

export const factsOf = (value: Page<ServiceRecord>): PageFacts => ({
  n: value.items.length,
  total: value.pagination.totalItems,
  pageSize: value.pagination.pageSize,
  sig: signature(value.items),
});

/** Page 1: the list's shape. */
function takeFirst(r: ListRecord, f: PageFacts): boolean {
  const { n, total } = f;
  Object.assign(r, { total, next: 2, sig: f.sig, slots: r.slots.slice(1), vals: r.vals.slice(1) });
  if (n === 0 && total > 0)
    return stop(r, 'problem', `page 1 is empty although the service reports ${plural(total, 'item')}`);
  if (n > total)
    return stop(
      r,
      'problem',
      `page 1 holds ${plural(n, 'item')} although the service reports ${grouped(total)} in all`,
    );
  r.size = n;
  r.last = n ? Math.ceil(total / n) : 0;
  // The whole list in one page: unless it is visibly short of the page size, a longer list could hide behind an
  // under-reported total (ask for page 2 to be sure). A first page that is not the whole list is full: its length is the page size.
  r.probe = n === total ? n > 0 && (n >= r.limit || n >= f.pageSize) : total % n === 0;
  if (n < total) r.limit = n;
  if (r.last <= 1 && !r.probe) r.over = 'done';
  return n > 0;
}

/** Checks the pages in, in order, from `next` on: a page that repeats the one before, the end confirmed. */
function settle(r: ListRecord): void {
  for (let m = slot(r, r.next); !r.over && (m === 'i' || m === 'x'); m = slot(r, r.next)) {
    const p = r.next;
    const sig = m === 'i' ? (r.vals[0] as string) : '';
    if (p > r.last) {
      // The page after the last: empty or refused, or the server repeating its last page (clamping), ends the list.
      if (m === 'x' || sig.split(':')[1] === r.sig) r.over = 'done';
      else
        stop(
          r,
          'problem',
          `the service reports ${plural(r.total, 'item')} but page ${p}, past the end, holds ${grouped(Number(sig.split(':')[0]))} more`,
        );
    } else if (sig === r.sig) stop(r, 'problem', `page ${grouped(p)} repeats page ${grouped(p - 1)}`);
    Object.assign(r, { next: p + 1, sig, slots: r.slots.slice(1), vals: r.vals.slice(1) });
    if (!r.over && r.next > r.last && !r.probe) r.over = 'done';
  }
}

/** Takes in page `page` (its facts); true when its items are the list's (within it, checked against their place). */
export function takePage(r: ListRecord, page: number, f: PageFacts): boolean {
  if (r.over || page < r.next || page > end(r)) return false;
  if (page === 1) {
    mark(r, 1, '.');
    const taken = takeFirst(r, f);
    settle(r);
    return taken;
  }
  const { n } = f;
  if (f.total !== r.total) return stop(r, 'changed', 'the list changed while it was read');
  const expected = rowsOf(r, page);
  if (page <= r.last && n !== expected)
    return stop(
      r,
      'problem',
      `page ${grouped(page)} holds ${plural(n, 'item')} where ${grouped(expected)} were expected (the service reports ${plural(r.total, 'item')}, ${grouped(r.size)} a page)`,
    );
  if (n === 0) mark(r, page, 'x');
  // The page after the last keeps its length with its signature, for the message when it holds more.
  else mark(r, page, 'i', page > r.last ? `${n}:${f.sig}` : f.sig);
  settle(r);
  return page <= r.last;
}

/** Whether a page's refusal says the service has no such page (404 or 400). */
export function noSuchPage(error: ServiceError): boolean {
  return error.code === 'NOT_FOUND' || error.code === 'BAD_INPUT';
}

/**
 * Takes in a refusal of page `page` at `now`: one for now waits for the service's time, or fails until the next
 * step (one never sent stays due); no such page ends the list past its last page, and within it means the list
 * shrank under the read. Returns the error when it is final for the read (page 1 refused, a key refused…).
 */
export function takeRefusal(r: ListRecord, page: number, error: ServiceError, now: number): ServiceError | undefined {
  if (page < r.next) return undefined;
  if (error.transient) {
    // A wait is the service's, not the read's: kept for the next read when this one is over.
    if (error.retryAfterMs !== undefined) mark(r, page, 'w', error.retryAt ?? now + error.retryAfterMs);
    else if (error.code !== 'UNSENT') mark(r, page, 'f');
    return undefined;
  }
  if (r.over) return undefined;
  if (!noSuchPage(error) || page === 1) return error;
  if (page > r.last) mark(r, page, 'x');
  else {
    stop(
      r,
      'changed',
      `page ${grouped(page)} of ${grouped(r.last)} was gone by the time it was asked for (the list shrank while it was read)`,
    );
  }
  settle(r);
  return undefined;
}

/** The verdict on a read, given how many distinct ids it held plus the records skipped for having none (when keyed by id). */
export function verdict(r: ListRecord, distinct?: number): ListVerdict {
  if (r.over === 'problem' || r.over === 'changed')
    return { complete: false, reason: r.reason as string, changed: r.over === 'changed' };
  if (!r.over) return { complete: false, reason: 'the end of the list was not reached', changed: false };
  if (distinct !== undefined && distinct !== r.total) {
    // Consistent pages but repeated ids: the order moved between pages (a live list), so read again.
    const repeated = r.total - distinct;
    return {
      complete: false,
      reason: `${plural(repeated, 'item')} came twice, so others were missed`,
      repeated,
      changed: true,
    };
  }
  return { complete: true };
}

/**
 * The verdict on a read keyed by id, from its usable ids in list order, the records skipped for having none and
 * the idsDigest of the read before: ids listed twice are a list that moved, unless the read before listed the
 * same ids alike; then the list holds those repeats, each kept as first listed (`repeats`: the listings left out).
 */
export function judge(
  r: ListRecord,
  ids: readonly string[],
  skipped: number,
  before?: number,
): { verdict: ListVerdict; digest: number; repeats: number } {
  const repeats = ids.length - new Set(ids).size;
  const digest = idsDigest(ids);
  const judged = verdict(r, ids.length - repeats + skipped);
  const steady = !judged.complete && judged.repeated !== undefined && digest === before;
  return steady ? { verdict: { complete: true }, digest, repeats } : { verdict: judged, digest, repeats: 0 };
}

/** How `drive` asks for pages and waits: the one loop over a record, for a formula and for an import's step. */
export interface Driver {
  now(): number;
  /** The outcomes of a leading part of the due `pages`, in order (none, or undefined, to stop). */
  fetch(pages: number[], limit: number): Outcome<Page<ServiceRecord>>[] | undefined;
  /** Waits until `wake`, when page `page` is due (or less, when time runs short); false to stop instead. */
  wait(wake: number, page: number): boolean;
  /** Page `page` is taken in: its items are the list's. */
  took(page: number, value: Page<ServiceRecord>): void;
  /** Pages asked for together, at most. */
  batch(): number;
}

/**
 * What a drive met: a final error, else the first refusal for now (a step ends on it); and the refusals that
 * spend from a run's give-up budget (all but the page after the last saying there is no such page).
 */
export interface Drove {
  final?: ServiceError;
  transient?: ServiceError;
  refused: number;
}

/** Takes in the outcome for page `page` at `now`: the page in, or the refusal in its slot and in `out`. */
function takeOutcome(r: ListRecord, d: Driver, page: number, o: Outcome<Page<ServiceRecord>>, now: number, out: Drove) {
  if (o.ok) {
    if (takePage(r, page, factsOf(o.value))) d.took(page, o.value);
    return;
  }
  const { error } = o;
  if (error.code !== 'UNSENT' && !(noSuchPage(error) && page > r.last && r.next > 1)) out.refused++;
  out.final = takeRefusal(r, page, error, now);
  if (error.transient && error.code !== 'UNSENT' && (!out.transient || page === r.next)) out.transient = error;
}

/** Drives a read until it is over, nothing is due, or the driver stops. */
export function drive(r: ListRecord, d: Driver): Drove {
  const out: Drove = { refused: 0 };
  for (let next = plan(r, d.now(), d.batch()); !r.over && !out.final; next = plan(r, d.now(), d.batch())) {
    if (!next.ask.length) {
      if (next.wake === undefined || !d.wait(next.wake, next.page as number)) break;
      continue;
    }
    const outcomes = d.fetch(next.ask, r.limit) ?? [];
    if (!outcomes.length) break;
    const now = d.now();
    for (const [k, o] of outcomes.entries()) if (!out.final) takeOutcome(r, d, next.ask[k], o, now, out);
    if (outcomes.every((o) => !o.ok && o.error.code === 'UNSENT')) break;
  }
  if (out.final || r.over) out.transient = undefined;
  return out;
}

export interface ListRead {
  records: ServiceRecord[];
  verdict: ListVerdict;
  /** The idsDigest of the records read (keyed lists). */
  digest: number;
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
  /** Keyed by id (the default; partners): a record without a usable id is skipped and counted (see judge). */
  keyed?: boolean;
  /** The idsDigest of a read of the same list just before this one (see judge). */
  before?: number;
}

/** One read of a list in one execution; `before`: the idsDigest of the read before it. */
function readOnce(fetch: PageFetcher, o: ReadOptions, before?: number): ListRead {
  const r = startRead(o.limit);
  const pages: ServiceRecord[][] = [];
  let failed = false;
  const { final, transient } = drive(r, {
    now: () => 0,
    batch: () => o.batch,
    wait: () => false,
    // A formula does not wait: the first page refused for now ends the read (the client has retried it).
    fetch: (asked, limit) => {
      if (failed) return undefined;
      const outcomes = fetch(asked, limit);
      const k = outcomes.findIndex((x) => !x.ok && x.error.transient);
      failed = k >= 0;
      return failed ? outcomes.slice(0, k + 1) : outcomes;
    },
    took: (page, value) => {
      pages[page] = value.items;
      // The list's size is page 1's: a list refused is refused at page 1, before any other page is asked for.
      const why = o.refuse?.(r.total, r.last);
      if (why) throw new ServiceError('BAD_INPUT', why);
    },
  });
  if (final ?? transient) throw final ?? transient;
  const got = pages.flat();
  if (!(o.keyed ?? true)) return { records: got, verdict: verdict(r), digest: idsDigest([]) };
  // Keyed by id: a record without a usable id is skipped (and counted), each usable id kept once.
  const ids = got.flatMap((x) => recordId(x) ?? []);
  const judged = judge(r, ids, got.length - ids.length, before);
  const records = firstOfEachId(got.filter((x) => recordId(x) !== undefined));
  return { records, verdict: judged.verdict, digest: judged.digest };
}

/** Reads a whole list; a read that the list moved under is done again, up to `passes` reads (see judge). */
export function readList(fetch: PageFetcher, o: ReadOptions): ListRead {
  let read = readOnce(fetch, o, o.before);
  for (let pass = 1; pass < (o.passes ?? 2) && !read.verdict.complete && read.verdict.changed; pass++)
    read = readOnce(fetch, o, read.digest);
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
