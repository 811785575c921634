/**
 * The import as a pure state machine over ports (./ports.ts). A run is a saved RunState; its read
 * of the active-partners list is one record (src/api/pages.ts: the list's shape and one slot per
 * page), driven by the same loop as a formula's read. Each step drives it until its time budget
 * ends (less the time to write what it read) and writes the pages it read to the staging area at
 * their place. When the read is over, the run finishes: a complete read (end confirmed, every page
 * as long as its place, distinct ids plus the records without a usable id, which are skipped and
 * counted in the run's message, equal to the total) replaces or merges into the target table in
 * one write (./end.ts); an incomplete one is read again (a live list moves). Failures follow the
 * one rule on the error type: a transient one ends the step and keeps what is in, a final one
 * (key refused…) fails the run at once. Every refusal and every read done again spends from one
 * budget per run (GIVE_UP); once it is spent, or too long passed without a page, the run fails and
 * says what it spent.
 * A failed, cancelled or killed run never touches the target table.
 */
import { ServiceError } from '../api/errors';
import { grouped, plural } from '../api/numbers';
import { DEADLINE_MARGIN_MS } from '../api/client';
import {
  drive,
  idsDigest,
  newStep,
  noSuchPage,
  pageIn,
  readAgain,
  rowsBefore,
  rowsOf,
  startRead,
  steadyRepeats,
  verdict,
} from '../api/pages';
import { CHUNK_RECORDS } from '../api/snapshot';
import { type Page, recordId, type ServiceRecord } from '../api/records';
import type { Cell } from '../table/cells';
import { failRun, replaceRefused, writeTarget } from './end';
import { adoption, MergeRefused, writeOwned } from './ownership';
import type { ImportPorts } from './ports';
import { pagesRead, RUN_VERSION, type RunSource, type RunState, type RunSummary, summarize } from './run-state';
import { keyedRows, type RowShape, rowShape } from './shape';
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
/**
 * What a run may spend before it gives up, whatever the cause: requests that brought no page in (each
 * refusal, and each page of a read done again) up to `requests` and `perPage` more for each page of the
 * list, and time without a page.
 */
export const GIVE_UP = { requests: 100, perPage: 3, withoutPageMs: 10 * 60_000 };

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
    list: startRead(FIRST_PAGE_LIMIT),
    staged: 0,
    read: 0,
    pass: 1,
    spent: { refused: 0, reread: 0 },
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
 * One step: drives the run's read (src/api/pages.ts `drive`) until the budget (less the time to
 * write what was read) ends, the read is over, or the service fails for now. Page 1 comes first,
 * alone: it tells the page size and the total, and so the place of every other page. Then pages
 * are asked for together; one that must wait (Retry-After, however long) waits in its slot while
 * the others come, and is asked for again when its time comes, in this step or the next; a page
 * that failed without a Retry-After waits for the next step. At the end of the step the pages it
 * read are written to staging at their place, in one write: the record's slots say which are in,
 * so no page answered in a run is asked for again.
 */
class Step {
  private readonly width: number;
  /** What a partner's staged row holds (the import's columns, then what its filters and sort need). */
  private readonly rows: RowShape;
  private readonly startedOver: boolean;
  private readonly counted: { fetches: number; retries: number };
  /** The pages the service answered in this step (the page after the last included). */
  private readonly answered = new Set<number>();
  /** Rows of the pages this step took in, by page. */
  private readonly known = new Map<number, Cell[][]>();
  /** Records of the pages this step read (for the shared snapshot, in list order as the read's checks pass them). */
  private readonly raw = new Map<number, ServiceRecord[]>();
  private readonly snapRecords: ServiceRecord[] = [];
  private failure?: ServiceError;
  private pagesIn = 0;
  /** The first page not yet passed to the snapshot. */
  private passed: number;

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
    this.startedOver = !!run.list.over;
    this.counted = ports.pages.counters();
    if (!run.snap?.gen.endsWith(`.${run.pass}`)) run.snap = { gen: `${run.runId}.${run.pass}`, chunks: 0, whole: true };
    newStep(run.list);
    this.passed = run.list.next;
    run.executions++;
  }

  perform(): RunSummary {
    const { spec, run, ports } = this;
    try {
      const { final, transient } = this.read();
      this.failure ??= final ?? transient;
      this.flushSnapshot(true);
      count(run, ports, this.counted);
      if (this.pagesIn > 0) run.progressAt = ports.now();
      const failed = this.failure ? this.judgeFailure(this.failure) : undefined;
      return failed ?? this.save();
    } catch (e) {
      return failRun(spec, run, ports, e instanceof MergeRefused ? e : e instanceof Error ? e.message : String(e));
    }
  }

  private read(): ReturnType<typeof drive> {
    const { run, ports } = this;
    const r = run.list;
    return drive(r, {
      now: () => ports.now(),
      batch: () => Math.min(PAGES_PER_FETCH, this.pages - this.pagesIn),
      wait: (wake, page) => {
        // Everything missing waits for the service's Retry-After: sleep until the first is due, keeping the time
        // to write it, or to the end of the budget (the next step carries on; one that ended at once would only
        // be called again).
        ports.sleep(Math.max(0, Math.min(wake, this.roundEnd([page])) - ports.now()));
        return ports.now() >= wake;
      },
      fetch: (due, limit) => {
        if (this.failure || this.pagesIn >= this.pages) return undefined;
        const now = ports.now();
        // As many of the due pages as the time left can write (wide rows, long pages), one at least.
        let ready = due;
        while (ready.length > 1 && now > this.roundEnd(ready)) ready = ready.slice(0, -1);
        const until = this.roundEnd(ready);
        if (now > until) return undefined;
        // The client waits inside a call only briefly: a longer wait is the machine's, which goes on with other pages.
        const outcomes = ports.pages.fetch(ready, limit, Math.min(until, now + CALL_WAIT_MS));
        ready.forEach((page, k) => {
          const o = outcomes[k];
          // A refusal spends from the run's budget (not the page after the last saying there is no such page).
          if (!o.ok && o.error.code !== 'UNSENT' && !(noSuchPage(o.error) && page > r.last && r.next > 1))
            run.spent.refused++;
        });
        ready.forEach((page, k) => outcomes[k].ok && this.answered.add(page));
        this.pagesIn += outcomes.filter((o) => o.ok).length;
        return { pages: ready, outcomes };
      },
      took: (page, value) => this.took(page, value),
    });
  }

  /** A page is in: its rows kept, and the records of the pages the read's checks have passed in order go to the snapshot. */
  private took(page: number, value: Page<ServiceRecord>): void {
    const { run } = this;
    this.known.set(page, value.items.map(this.rows.row));
    // The snapshot keys records by id: one without a usable id has no place in it (nor in the table).
    if (this.ports.snapshot && run.snap?.whole)
      this.raw.set(
        page,
        value.items.filter((r) => recordId(r) !== undefined),
      );
    if (page === 1) this.checkSize();
    const snap = run.snap as NonNullable<RunState['snap']>;
    for (; this.passed < Math.min(run.list.next, run.list.last + 1); this.passed++) {
      const records = this.raw.get(this.passed);
      this.raw.delete(this.passed);
      if (records) this.snapRecords.push(...records);
      else snap.whole = false;
    }
    this.flushSnapshot(false);
    run.read = rowsBefore(run.list, run.list.next);
    run.message = `Page ${grouped(pagesRead(run))} of ${grouped(run.list.last)}`;
  }

  /** Page 1 is in: a list whose table could not fit in a spreadsheet fails the run before more is read. */
  private checkSize(): void {
    const { spec, run } = this;
    const cells = (run.list.total + 1) * spec.fields.length;
    if (cells <= MAX_SPREADSHEET_CELLS) return;
    this.failure = new ServiceError(
      'BAD_RESPONSE',
      `The service reports ${grouped(run.list.total)} active partners: a table of that many rows and ${spec.fields.length} columns would not fit in a spreadsheet (${grouped(MAX_SPREADSHEET_CELLS)} cells at most).`,
    );
  }

  /** Whole chunks go to the cache as they fill, so a long step never holds every record it read; `all` at the end. */
  private flushSnapshot(all: boolean): void {
    const snap = this.run.snap as NonNullable<RunState['snap']>;
    if (!this.ports.snapshot || !snap.whole || !this.snapRecords.length) return;
    if (!all && this.snapRecords.length < 5 * CHUNK_RECORDS) return;
    const n = all ? this.snapRecords.length : this.snapRecords.length - (this.snapRecords.length % CHUNK_RECORDS);
    snap.chunks += this.ports.snapshot.write(snap.gen, snap.chunks, this.snapRecords.splice(0, n));
  }

  /** The pages a write covers: from the first read in this step to the last. */
  private region(pages: Iterable<number>): [number, number] | undefined {
    const all = [...pages];
    return all.length ? [Math.min(...all), Math.max(...all)] : undefined;
  }

  /** The time by which this round's requests must end, keeping time to write what is in hand and what they bring. */
  private roundEnd(asking: readonly number[]): number {
    const r = this.run.list;
    // The write save() makes: the pages at their place, from the first read in this step to the last (a round asks for one page at least).
    const [first, last] = [Math.min(...this.known.keys(), ...asking), Math.max(...this.known.keys(), ...asking)];
    return this.deadline - DEADLINE_MARGIN_MS - writeMargin((last - first + 1) * (r.size || r.limit), this.width);
  }

  /** The run after a failure: failed for good (a final error, or the budget spent), or carried on in the next step (undefined). */
  private judgeFailure(failure: ServiceError): RunSummary | undefined {
    const { spec, run, ports } = this;
    const spent = failure.transient ? givenUp(run, ports.now()) : '';
    if (spent !== undefined) return failRun(spec, run, ports, `${failure.message}${spent}`);
    // The service is failing for now (rate limit, outage): keep what is in, carry on in the next step.
    run.message = `${failure.message} Continuing at page ${grouped(run.list.next)} in the next step.`;
    return undefined;
  }

  /**
   * Writes what the step read to staging, or the table when the read is over, and saves the run.
   * The pages read in this step go to their place in one write, from the first of them to the last
   * (the pages between hold their rows, read back from staging when an earlier step wrote them, or
   * blank rows while they are not in).
   */
  private save(): RunSummary {
    const { spec, run, ports, width } = this;
    const r = run.list;
    // A read that ended too late to write the table in this step leaves the writing to the next one.
    const late = !this.startedOver && ports.now() + writeMargin(r.total, width) > this.deadline;
    const over = !!r.over && !late;
    if (over && run.staged === 0) return finish(spec, run, this.placed([1, Math.max(1, r.last)]), ports, this.deadline);
    const span = r.over === 'changed' ? undefined : this.region(this.answered);
    if (span) {
      ports.staging.write(spec.id, spec.fields, rowsBefore(r, span[0]), this.placed(span));
      run.staged = Math.max(run.staged, rowsBefore(r, span[1] + 1));
    }
    if (over) return finish(spec, run, ports.staging.read(spec.id, run.staged, width), ports, this.deadline);
    run.updatedAt = ports.now();
    ports.store.save(run);
    return summarize(spec.id, run);
  }

  /** The rows of pages `span` at their place: those in hand, those an earlier step staged (read back), blank rows for the others. */
  private placed([first, last]: [number, number]): Cell[][] {
    const r = this.run.list;
    const staged = (p: number) => !this.known.has(p) && pageIn(r, p) && rowsBefore(r, p) < this.run.staged;
    const back = [...Array(last - first + 1).keys()].some((k) => staged(first + k));
    const from = rowsBefore(r, first);
    const to = Math.min(rowsBefore(r, last + 1), this.run.staged);
    const before = back ? this.ports.staging.read(this.spec.id, to - from, this.width, from) : [];
    const rows: Cell[][] = [];
    for (let p = first; p <= last; p++) {
      const n = rowsOf(r, p);
      const mine =
        this.known.get(p) ??
        (staged(p) ? before.slice(rowsBefore(r, p) - from, rowsBefore(r, p) - from + n) : undefined);
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
  const { keyed, unique, skipped, note } = keyedRows(rows, idCol);
  const judged = verdict(run.list, unique.length + skipped);
  const digest = idsDigest(keyed.map((row) => String(row[idCol])));
  const repeats = steadyRepeats(judged, digest, run.digest) ? keyed.length - unique.length : 0;
  if (judged.complete || repeats) {
    if (ports.snapshot && run.snap?.whole && run.snap.chunks > 0) ports.snapshot.publish(run.snap.gen, run.snap.chunks);
    const twice = repeats
      ? ` Left out ${grouped(repeats)} repeated listing${repeats === 1 ? '' : 's'} (ids the service listed more than once, alike in two reads): each partner is kept as first listed.`
      : '';
    return writeTarget(spec, run, rowShape(spec).keep(unique), unique.length + skipped, ports, note + twice);
  }
  // A read done again spends the pages this one took in.
  run.spent.reread += Math.max(1, pagesRead(run) + (run.list.slots.match(/i/g)?.length ?? 0));
  const spent = givenUp(run, ports.now());
  if (spent !== undefined) {
    const why = judged.changed ? `it kept changing during the import (last read: ${judged.reason})` : judged.reason;
    return failRun(spec, run, ports, `Incomplete after ${plural(run.pass, 'read')} of the list: ${why}.${spent}`);
  }
  ports.staging.remove(spec.id);
  run.digest = digest;
  run.pass++;
  run.list = readAgain(run.list, FIRST_PAGE_LIMIT);
  run.staged = 0;
  run.read = 0;
  run.message = judged.changed
    ? 'The list changed during the import; reading it again.'
    : `The list did not add up (${judged.reason}); reading it again.`;
  ports.store.save(run);
  return step(spec, run, ports, deadline);
}

/**
 * What the run has spent when that is more than its budget allows (GIVE_UP), as a sentence that
 * says so; undefined while it may go on.
 */
function givenUp(run: RunState, now: number): string | undefined {
  const { refused, reread } = run.spent;
  const allowed = GIVE_UP.requests + GIVE_UP.perPage * run.list.last;
  const without = now - (run.progressAt ?? run.startedAt);
  if (refused + reread <= allowed && without <= GIVE_UP.withoutPageMs) return undefined;
  const since = without < 60_000 ? `${Math.round(without / 1000)} s` : plural(Math.round(without / 60_000), 'minute');
  const [on, from] = run.list.last
    ? [`on a list of ${plural(run.list.last, 'page')}`, 'the last page']
    : ["before the list's first page", 'the run began'];
  return ` The import gave up after ${plural(refused, 'request')} refused and ${plural(reread, 'page')} read again (it may spend ${grouped(allowed)} ${on}), ${since} since ${from}.`;
}

/** The analyst lets the import own the table in its sheet, which it did not write (typed by hand, or from before imports kept a record). */
export function adoptTable(importId: string, ports: ImportPorts): RunSummary {
  return locked(importId, ports, () => {
    const spec = specFor(importId, ports);
    const table = ports.target.read(spec.sheetName);
    if (table) {
      writeOwned(spec, ports, adoption(table, spec.fields));
    }
    return summarize(importId, ports.store.load(importId));
  });
}
