/**
 * The import as a pure state machine over ports (./ports.ts). A run is a saved RunState; each
 * step reads pages of the active-partners list through the one page reader's cursor
 * (src/api/pages.ts) until its time budget ends (less the time to write what it read), keeps rows
 * in memory or in the staging area, and saves the cursor. Page 1 comes first, alone; then pages are
 * asked for together, and one the service refuses for now waits alone (its Retry-After, in this step
 * or the next) while the pages after it are held (./held.ts). When the cursor's read is over, the run finishes: a complete read (end
 * confirmed, every page as long as it should be, distinct ids plus the records without a usable
 * id, which are skipped and counted in the run's message, equal to the total) replaces or merges
 * into the target table in one write (./end.ts); an incomplete one is read again (a live list moves),
 * up to MAX_PASSES reads, and then fails with the reason. Failures follow the one rule on the
 * error type: a transient one ends the step and keeps what is in; the run fails only after
 * MAX_STALLS steps in a row that read nothing (or, when the service said when to come back, after
 * MAX_WAIT_WITHOUT_PAGE_MS without a page), or at once on a final error (key refused…).
 * A failed, cancelled or killed run never touches the target table.
 */
import { ServiceError } from '../api/errors';
import { grouped, plural } from '../api/numbers';
import { DEADLINE_MARGIN_MS } from '../api/client';
import {
  acceptPage,
  acceptRefusal,
  cursorDone,
  idsDigest,
  listVerdict,
  noSuchPage,
  startCursor,
  steadyRepeats,
} from '../api/pages';
import { CHUNK_RECORDS } from '../api/snapshot';
import { type Page, recordId, type ServiceRecord } from '../api/records';
import type { Cell } from '../table/cells';
import { expectedRows, gonePages, type Held, heldSpan, keepable, noteHeld, noteWaits, restoreHeld } from './held';
import { replaceRefused, writeOwned, writeTarget } from './end';
import { MergeRefused } from './merge';
import type { ImportPorts } from './ports';
import { adoption } from './replace';
import { pagesRead, RUN_VERSION, type RunSource, type RunState, type RunSummary, summarize } from './run-state';
import { failRun } from './run-log';
import { dedupe, keyedRows, type RowShape, rowShape } from './shape';
import { MAX_SPREADSHEET_CELLS } from './watch';
import type { ImportSpec } from './spec';

/** What the first request asks for; the server's cap decides, and the reader learns it. */
export const FIRST_PAGE_LIMIT = 1000;
/** Pages asked for in one call (one fetchAll; more costs memory); a page that must wait does so alone, the next call goes on. */
export const PAGES_PER_FETCH = 20;
/** The longest the client waits inside one call before a retry; a longer wait is left to the step, which goes on with other pages. */
export const CALL_WAIT_MS = 5000;
/**
 * Time a step keeps at its end for writing what it read: a fixed part and a part per cell in hand
 * (about twice what the emulator models for reading back and writing a cell).
 */
export const WRITE_MARGIN = { fixedMs: 1000, perCellMs: 0.025 };
/** How long one step may run: short from the sidebar (its progress bar moves), long from triggers. */
export const STEP_BUDGET_MS: Readonly<Record<RunSource, number>> = { sidebar: 20_000, schedule: 300_000 };
export const LOCK_WAIT_MS = 30_000;
/** Steps in a row that may end on a transient failure without reading a page before the run fails. */
export const MAX_STALLS = 3;
/** How long a run waits without a page for a service that keeps asking (Retry-After) to come back later. */
export const MAX_WAIT_WITHOUT_PAGE_MS = 10 * 60_000;
/** Full reads of the list an import makes at most before it gives up on one it cannot trust. */
export const MAX_PASSES = 3;
/**
 * A list that only moved under a read (a live service) is read again more often when it is
 * short, where a read is cheap: up to MAX_LIVE_PASSES reads for lists of at most LIVE_LIST_PAGES pages.
 */
export const MAX_LIVE_PASSES = 10;
export const LIVE_LIST_PAGES = 50;

export const LOCKED_MESSAGE = 'Another import is writing to this spreadsheet; waiting for it to finish.';

export function newRun(
  spec: ImportSpec,
  source: RunSource,
  ports: Pick<ImportPorts, 'now' | 'newRunId' | 'claimRun'>,
): RunState {
  const now = ports.now();
  const runId = ports.newRunId();
  return {
    version: RUN_VERSION,
    runId,
    importId: spec.id,
    source,
    by: ports.claimRun(runId),
    status: 'running',
    startedAt: now,
    updatedAt: now,
    list: startCursor(FIRST_PAGE_LIMIT),
    staged: 0,
    read: 0,
    pass: 1,
    stalls: 0,
    fetches: 0,
    retries: 0,
    executions: 0,
    message: 'Starting…',
  };
}

function specFor(importId: string, ports: ImportPorts): ImportSpec {
  const spec = ports.store.specs().find((i) => i.id === importId);
  if (!spec) throw new Error(`No saved import ${importId}.`);
  return spec;
}

/** Runs `body` under the lock; when another execution holds it, says so instead. */
function locked(importId: string, ports: ImportPorts, body: () => RunSummary): RunSummary {
  if (!ports.lock.tryLock(LOCK_WAIT_MS))
    return { ...summarize(importId, ports.store.load(importId)), message: LOCKED_MESSAGE, busy: true };
  try {
    return body();
  } finally {
    ports.lock.release();
  }
}

/**
 * Starts a run, or carries on the one already running (a second start never begins another); `force`: Replace anyway,
 * for this run; `pages`: the most pages the step reads (a sidebar's steps are short, so its progress bar moves).
 */
export function beginRun(
  importId: string,
  source: RunSource,
  ports: ImportPorts,
  deadline: number,
  force = false,
  pages = Number.POSITIVE_INFINITY,
): RunSummary {
  return locked(importId, ports, () => {
    const spec = specFor(importId, ports);
    const current = ports.store.load(importId);
    if (current?.status === 'running' && current.version === RUN_VERSION)
      return step(spec, current, ports, deadline, pages);
    return start(spec, source, ports, deadline, force, pages);
  });
}

function start(
  spec: ImportSpec,
  source: RunSource,
  ports: ImportPorts,
  deadline: number,
  force: boolean,
  pages: number,
): RunSummary {
  const run = newRun(spec, source, ports);
  if (force || spec.replaceAnyway) run.force = true;
  ports.store.save(run);
  // Refused before any request when the sheet is not as the import left it (checked again before writing).
  const refusal = replaceRefused(spec, run, ports);
  if (refusal) return failRun(spec, run, ports, refusal);
  return step(spec, run, ports, deadline, pages);
}

/**
 * A run that could not begin (no usable key, the address not confirmed, the spreadsheet busy):
 * recorded as failed with `reason`, in the run log and the import's status, the sheet untouched.
 * Not under the lock, which may be what is busy: it writes only its own rows and records.
 */
export function notStarted(importId: string, source: RunSource, ports: ImportPorts, reason: string): RunSummary {
  const spec = specFor(importId, ports);
  return failRun(spec, newRun(spec, source, ports), ports, reason);
}

export function continueRun(
  importId: string,
  ports: ImportPorts,
  deadline: number,
  pages = Number.POSITIVE_INFINITY,
): RunSummary {
  return locked(importId, ports, () => {
    const run = ports.store.load(importId);
    if (run?.status !== 'running') return summarize(importId, run);
    // A run saved in another shape (RUN_VERSION) starts over.
    if (run.version !== RUN_VERSION) return start(specFor(importId, ports), run.source, ports, deadline, false, pages);
    return step(specFor(importId, ports), run, ports, deadline, pages);
  });
}

export function cancelRun(importId: string, ports: ImportPorts): RunSummary {
  return locked(importId, ports, () => {
    const run = ports.store.load(importId);
    if (run?.status === 'running' && run.version === RUN_VERSION)
      failRun(specFor(importId, ports), run, ports, '', 'cancelled');
    return summarize(importId, run);
  });
}

function count(run: RunState, ports: ImportPorts, from: { fetches: number; retries: number }): void {
  const now = ports.pages.counters();
  run.fetches += now.fetches - from.fetches;
  run.retries += now.retries - from.retries;
}

/** Time to keep at the end of a step for writing `rows` rows of `width` cells. */
export function writeMargin(rows: number, width: number): number {
  return WRITE_MARGIN.fixedMs + Math.ceil(rows * width * WRITE_MARGIN.perCellMs);
}

/**
 * One step: pages until the budget (less the time to write what was read) ends, the read is over,
 * or the service fails for now. Page 1 comes first, alone: it tells the page size and the total,
 * and so the place of every other page. Then pages are asked for together; one that must wait
 * (Retry-After, however long) waits alone while the ones after it are held, and is asked for again
 * when its time comes, in this step or the next (which carries on where this one stopped); a page
 * that failed without a Retry-After, its retries spent, waits for the next step. At the end of the
 * step the pages it read are written to staging at their place, in one write, and the held ones
 * are noted, so no page answered in a run is asked for again.
 */
class Step {
  private readonly width: number;
  /** What a partner's staged row holds (the import's columns, then what its filters and sort need). */
  private readonly rows: RowShape;
  /** Rows taken into the cursor in this step, in list order. */
  private readonly taken: Cell[][] = [];
  private readonly startedEmpty: boolean;
  private readonly startedOver: boolean;
  private readonly counted: { fetches: number; retries: number };
  private held = new Map<number, Held>();
  /** Not-before times (clock ms) of the pages the service asked to wait for. */
  private waits = new Map<number, number>();
  /** Pages that failed without a time to come back: left to the next step. */
  private readonly tried = new Set<number>();
  /** Rows of every page this step has in hand (read here, or read back from staging), by page. */
  private readonly known = new Map<number, Cell[][]>();
  /** Pages read in this step (the others in hand came back from staging, where they already are). */
  private readonly readHere = new Set<number>();
  /** Records of the pages this step fetched, by page, and those taken in list order, for the shared snapshot. */
  private readonly rawHere = new Map<number, ServiceRecord[]>();
  private readonly snapRecords: ServiceRecord[] = [];
  private failure?: ServiceError;
  private transient?: ServiceError;
  private pagesIn = 0;

  constructor(
    private readonly spec: ImportSpec,
    private readonly run: RunState,
    private readonly ports: ImportPorts,
    private readonly deadline: number,
    /** The most pages this step reads. */
    private readonly pages: number,
  ) {
    this.rows = rowShape(spec, ports.fund?.bind(ports));
    this.width = this.rows.width;
    this.startedEmpty = run.staged === 0;
    this.startedOver = cursorDone(run.list);
    this.counted = ports.pages.counters();
    if (!run.snap?.gen.endsWith(`.${run.pass}`)) run.snap = { gen: `${run.runId}.${run.pass}`, chunks: 0, whole: true };
    run.executions++;
  }

  perform(): RunSummary {
    const { spec, run, ports } = this;
    try {
      this.restore();
      this.take();
      while (!cursorDone(run.list) && !this.failure && this.pagesIn < this.pages && this.round());
      if (!this.failure && this.transient && !cursorDone(run.list)) this.failure = this.transient;
      this.flushSnapshot(true);
      count(run, ports, this.counted);
      if (this.pagesIn > 0) run.progressAt = ports.now();
      const failed = this.failure ? this.judgeFailure(this.failure) : undefined;
      return failed ?? this.save();
    } catch (e) {
      return failRun(spec, run, ports, e instanceof MergeRefused ? e : e instanceof Error ? e.message : String(e));
    }
  }

  /** The held pages and waits the previous step left (see held.ts), held pages read back from staging. */
  private restore(): void {
    const { spec, run } = this;
    const note = run.held;
    run.held = undefined;
    if (!note) return;
    this.waits = noteWaits(note);
    const span = heldSpan(run.list, note);
    const rows = span > 0 ? this.ports.staging.read(spec.id, span, this.width, run.staged) : [];
    this.held = restoreHeld(run.list, note, rows, spec.fields.indexOf('id'));
    for (const [p, h] of this.held) if ('rows' in h) this.known.set(p, h.rows);
  }

  /** Takes the held pages that are next in the cursor's order. */
  private take(): void {
    const { run } = this;
    const next = () => (cursorDone(run.list) || this.failure ? undefined : this.held.get(run.list.nextPage));
    for (let h = next(); h; h = next()) {
      const page = run.list.nextPage;
      this.held.delete(page);
      if ('refused' in h) {
        if (!acceptRefusal(run.list, page, h.refused)) this.failure = h.refused;
        continue;
      }
      const before = run.list.received;
      acceptPage(run.list, page, h.page);
      if (page === 1) this.checkSize();
      if (run.list.received > before) this.takeRows(page, h.rows);
    }
    run.read = run.staged + this.taken.length;
    run.message = `Page ${grouped(pagesRead(run))} of ${grouped(run.list.lastPage)}`;
  }

  /** Page 1 is in: a list whose table could not fit in a spreadsheet fails the run before more is read. */
  private checkSize(): void {
    const { spec, run } = this;
    const cells = (run.list.totalItems + 1) * spec.fields.length;
    if (cells <= MAX_SPREADSHEET_CELLS) return;
    this.failure = new ServiceError(
      'BAD_RESPONSE',
      `The service reports ${grouped(run.list.totalItems)} active partners: a table of that many rows and ${spec.fields.length} columns would not fit in a spreadsheet (${grouped(MAX_SPREADSHEET_CELLS)} cells at most).`,
    );
  }

  private takeRows(page: number, rows: Cell[][]): void {
    const snap = this.run.snap as NonNullable<RunState['snap']>;
    this.taken.push(...rows);
    const raw = this.rawHere.get(page);
    this.rawHere.delete(page);
    if (raw) this.snapRecords.push(...raw);
    else snap.whole = false;
    this.flushSnapshot(false);
  }

  /** Whole chunks go to the cache as they fill, so a long step never holds every record it read; `all` at the end. */
  private flushSnapshot(all: boolean): void {
    const snap = this.run.snap as NonNullable<RunState['snap']>;
    if (!this.ports.snapshot || !snap.whole || !this.snapRecords.length) return;
    if (!all && this.snapRecords.length < 5 * CHUNK_RECORDS) return;
    const n = all ? this.snapRecords.length : this.snapRecords.length - (this.snapRecords.length % CHUNK_RECORDS);
    snap.chunks += this.ports.snapshot.write(snap.gen, snap.chunks, this.snapRecords.splice(0, n));
  }

  /**
   * The pages missing from the cursor's next page on, in order (page 1 alone until it is in): the first
   * PAGES_PER_FETCH due at `now`, and those among them that wait for their time.
   */
  private missingPages(now: number): { due: number[]; waiting: number[] } {
    const c = this.run.list;
    const due: number[] = [];
    const waiting: number[] = [];
    // No need to list more (and a total the service over-reports must not make a list of billions).
    const most = Math.min(PAGES_PER_FETCH, this.pages - this.pagesIn);
    for (let p = c.nextPage; p <= (c.started ? c.lastPage + (c.probe ? 1 : 0) : 1) && due.length < most; p++)
      if (!this.held.has(p) && !this.tried.has(p)) ((this.waits.get(p) ?? 0) > now ? waiting : due).push(p);
    return { due, waiting };
  }

  /** The pages a write of `pages` covers: from the first to the last. */
  private region(pages: readonly number[]): [number, number] | undefined {
    return pages.length ? [Math.min(...pages), Math.max(...pages)] : undefined;
  }

  /** The time by which this round's requests must end, keeping time to write what is in hand and what they bring. */
  private roundEnd(asking: readonly number[]): number {
    const { run } = this;
    const size = run.list.size || run.list.limit;
    // The write save() makes: the pages at their place, from the first read in this step to the last (a round
    // asks for one page at least).
    const [first, last] = this.region([...this.readHere, ...asking]) as [number, number];
    return this.deadline - DEADLINE_MARGIN_MS - writeMargin((last - first + 1) * size, this.width);
  }

  /** One round of requests, or a wait for the first page due; false when the step should end. */
  private round(): boolean {
    const { run, ports } = this;
    const now = ports.now();
    const { due, waiting } = this.missingPages(now);
    // As many of the due pages as the time left can write (wide rows, long pages), one at least.
    let ready = due;
    while (ready.length > 1 && now > this.roundEnd(ready)) ready = ready.slice(0, -1);
    if (!ready.length && waiting.length) {
      // Everything missing waits for the service's Retry-After: sleep until the first is due, keeping the time
      // to write it, or to the end of the budget (the next step carries on; one that ended at once would only
      // be called again).
      const [first] = waiting.sort((a, b) => (this.waits.get(a) as number) - (this.waits.get(b) as number));
      const next = this.waits.get(first) as number;
      ports.sleep(Math.max(0, Math.min(next, this.roundEnd([first])) - now));
      return ports.now() >= next;
    }
    if (!ready.length) return false;
    const until = this.roundEnd(ready);
    if (now > until) return false;
    // The client waits inside a call only briefly: a longer wait is the machine's, which goes on with other pages.
    const outcomes = ports.pages.fetch(ready, run.list.limit, Math.min(until, now + CALL_WAIT_MS));
    const end = ports.now();
    let final: ServiceError | undefined;
    ready.forEach((page, k) => {
      const o = outcomes[k];
      const error = o.ok ? this.hold(page, o.value) : this.refused(page, o.error, end);
      final ??= error;
    });
    this.take();
    if (final && !cursorDone(run.list)) this.failure = final;
    // Nothing went out (the client had no time left to send any of them): the step ends, the next one carries on.
    return outcomes.some((o) => o.ok || o.error.code !== 'UNSENT');
  }

  private hold(page: number, value: Page<ServiceRecord>): undefined {
    // Only the ids stay with the rows (enough for the cursor's checks, and far less to keep in memory), and the
    // few records without a usable one whole: the page's signature knows them by their fields.
    const items = value.items.map((r): ServiceRecord => (recordId(r) !== undefined ? { id: r.id } : r));
    const rows = value.items.map(this.rows.row);
    this.held.set(page, { page: { items, pagination: value.pagination }, rows });
    this.known.set(page, rows);
    this.readHere.add(page);
    // The snapshot keys records by id: one without a usable id has no place in it (nor in the table).
    if (this.ports.snapshot && this.run.snap?.whole) {
      this.rawHere.set(
        page,
        value.items.filter((r) => recordId(r) !== undefined),
      );
    }
    this.waits.delete(page);
    this.pagesIn++;
    return undefined;
  }

  /** A page refused: held (past the end), waited for, left to the next step, or the run's final error (returned). */
  private refused(page: number, error: ServiceError, end: number): ServiceError | undefined {
    const c = this.run.list;
    // A page within the list refused as no such page: the list shrank, this read is over (and done again). The same
    // page refused so in the next read too, while that read goes on, is no list that shrank but a page the service
    // refuses: the run fails.
    if (page === this.run.gone && c.started && !cursorDone(c) && page <= c.lastPage && noSuchPage(error)) {
      const why = `The data service refused page ${grouped(page)} of the ${grouped(c.lastPage)} its list reports, in two reads in a row`;
      this.failure = new ServiceError(error.code, `${why}: ${error.message}`);
      return undefined;
    }
    if (acceptRefusal(c, page, error)) return undefined;
    // Any other page refused as no such page (past the end, or page 1): the cursor judges it when it gets there.
    if (noSuchPage(error)) this.held.set(page, { refused: error });
    else if (!error.transient) return error;
    else if (error.code !== 'UNSENT') {
      // A page the service said when to ask again for waits for that time (in this step or the next);
      // one without (the client's own retries are spent) waits for the next step.
      if (error.retryAfterMs !== undefined) this.waits.set(page, error.retryAt ?? end + error.retryAfterMs);
      else this.tried.add(page);
      if (!this.transient || page === c.nextPage) this.transient = error;
    }
    return undefined;
  }

  /** The run after a failure: failed for good, or carried on in the next step (undefined). */
  private judgeFailure(failure: ServiceError): RunSummary | undefined {
    const { spec, run, ports } = this;
    if (!failure.transient) return failRun(spec, run, ports, failure.message);
    run.stalls = this.pagesIn > 0 ? 0 : run.stalls + 1;
    // A service that says when to ask again is waited for (a step may then hold one attempt only),
    // up to MAX_WAIT_WITHOUT_PAGE_MS without a page; one that does not say fails the run after MAX_STALLS steps.
    const told = failure.retryAfterMs !== undefined;
    const waited = ports.now() - (run.progressAt ?? run.startedAt);
    if (run.stalls > MAX_STALLS && (!told || waited > MAX_WAIT_WITHOUT_PAGE_MS)) {
      return failRun(spec, run, ports, failure.message);
    }
    // The service is failing for now (rate limit, outage): keep what is in, carry on in the next step.
    const inARow = ` (${plural(run.stalls, 'step')} in a row without a page; the run fails after ${plural(MAX_STALLS + 1, 'step')})`;
    const tries = run.stalls > 1 && !told ? inARow : '';
    run.message = `${failure.message} Continuing at page ${grouped(run.list.nextPage)} in the next step${tries}.`;
    return undefined;
  }

  /**
   * Writes what the step read to staging, or the table when the read is over, and saves the run.
   * The pages read in this step go to their place in one write, from the first of them to the last
   * (the pages between hold their rows, or blank rows while they are not in).
   */
  private save(): RunSummary {
    const { spec, run, ports, width } = this;
    if (!this.failure && this.pagesIn > 0) run.stalls = 0;
    // A read that ended too late to write the table in this step leaves the writing to the next one.
    const late = !this.startedOver && ports.now() + writeMargin(run.staged + this.taken.length, width) > this.deadline;
    const over = cursorDone(run.list) && !this.failure && !late;
    const kept = cursorDone(run.list) ? [] : keepable(run.list, this.held);
    run.held = noteHeld(run.list, kept, this.waits, gonePages(this.held));
    if (over && this.startedEmpty) return finish(spec, run, this.taken, ports, this.deadline);
    const span = this.region([...this.readHere].filter((p) => p < run.list.nextPage || kept.includes(p)));
    if (span) ports.staging.write(spec.id, spec.fields, (span[0] - 1) * run.list.size, this.placed(span));
    run.staged += this.taken.length;
    if (over) return finish(spec, run, ports.staging.read(spec.id, run.staged, width), ports, this.deadline);
    run.updatedAt = ports.now();
    ports.store.save(run);
    return summarize(spec.id, run);
  }

  /** The staging rows of pages `span`: a page in hand as long as its place its rows, any other blank rows as long. */
  private placed([first, last]: [number, number]): Cell[][] {
    const rows: Cell[][] = [];
    for (let p = first; p <= last; p++) {
      const n = expectedRows(this.run.list, p);
      const mine = this.known.get(p);
      if (mine?.length === n) rows.push(...mine);
      else for (let k = 0; k < n; k++) rows.push(new Array<Cell>(this.width).fill(''));
    }
    return rows;
  }
}

export function step(
  spec: ImportSpec,
  run: RunState,
  ports: ImportPorts,
  deadline: number,
  pages = Number.POSITIVE_INFINITY,
): RunSummary {
  // A step that begins with its time spent (another import of the same execution used it) leaves the run as it
  // is, for a step with time: it would otherwise start a write it has no time for.
  if (ports.now() + DEADLINE_MARGIN_MS + WRITE_MARGIN.fixedMs > deadline) return summarize(spec.id, run);
  return new Step(spec, run, ports, deadline, pages).perform();
}

function finish(spec: ImportSpec, run: RunState, rows: Cell[][], ports: ImportPorts, deadline: number): RunSummary {
  const idCol = spec.fields.indexOf('id');
  const { keyed, skipped, note } = keyedRows(rows, idCol);
  const unique = dedupe(keyed, idCol);
  const verdict = listVerdict(run.list, unique.length + skipped);
  const digest = idsDigest(keyed.map((row) => String(row[idCol])));
  const repeats = steadyRepeats(verdict, digest, run.digest) ? keyed.length - unique.length : 0;
  if (verdict.complete || repeats) {
    if (ports.snapshot && run.snap?.whole && run.snap.chunks > 0) ports.snapshot.publish(run.snap.gen, run.snap.chunks);
    const twice = repeats
      ? ` Left out ${grouped(repeats)} repeated listing${repeats === 1 ? '' : 's'} (ids the service listed more than once, alike in two reads): each partner is kept as first listed.`
      : '';
    return writeTarget(spec, run, rowShape(spec).keep(unique), unique.length + skipped, ports, note + twice);
  }
  const passes = verdict.changed && run.list.lastPage <= LIVE_LIST_PAGES ? MAX_LIVE_PASSES : MAX_PASSES;
  // A read the list changed under ends there: such reads count by the share of the list they read, so a burst of
  // changes does not use them up, and a list that keeps changing fails after as many pages as that many whole reads.
  const pagesRead = (run.readBefore ?? 0) + Math.max(1, Math.min(run.list.nextPage - 1, run.list.lastPage));
  if ((verdict.changed ? pagesRead / Math.max(1, run.list.lastPage) : run.pass) >= passes) {
    const why = verdict.changed ? `it kept changing during the import (last read: ${verdict.reason})` : verdict.reason;
    return failRun(spec, run, ports, `Incomplete after ${plural(run.pass, 'read')} of the list: ${why}.`);
  }
  ports.staging.remove(spec.id);
  // The pages the service asked to wait for still wait in the next read: a Retry-After is the run's, not the read's.
  const waits = run.held ? noteWaits(run.held) : new Map<number, number>();
  run.gone = run.list.gone;
  run.digest = digest;
  run.readBefore = pagesRead;
  run.pass++;
  run.list = startCursor(FIRST_PAGE_LIMIT);
  run.held = noteHeld(run.list, [], waits);
  run.staged = 0;
  run.read = 0;
  run.message = verdict.changed
    ? 'The list changed during the import; reading it again.'
    : `The list did not add up (${verdict.reason}); reading it again.`;
  ports.store.save(run);
  return step(spec, run, ports, deadline);
}

/** The analyst lets the import own the table in its sheet, which it did not write (typed by hand, or from before imports kept a record). */
export function adoptTable(importId: string, ports: ImportPorts): RunSummary {
  return locked(importId, ports, () => {
    const spec = specFor(importId, ports);
    const table = ports.target.read(spec.sheetName);
    if (table) {
      const { grid, columns, owns } = adoption(table, spec.fields);
      writeOwned(spec, grid, columns, ports, owns);
    }
    return summarize(importId, ports.store.load(importId));
  });
}
