/**
 * The import as a pure state machine over ports (./ports.ts; docs/architecture.md, "An import, step by
 * step"). A run is a saved RunState whose read of the list is one record (src/api/pages.ts), driven step
 * by step; a complete read replaces or merges into the target table in one write (./end.ts), an
 * incomplete one is read again, until the run's one give-up budget (GIVE_UP) is spent. A failed,
 * cancelled or killed run never touches the target table.
 */
import { ServiceError } from '../api/errors';
import { grouped, plural } from '../api/numbers';
import { DEADLINE_MARGIN_MS } from '../api/client';
import {
  drive,
  judge,
  type ListRecord,
  newStep,
  pageIn,
  pagesIn,
  readAgain,
  rowsBefore,
  rowsOf,
  startRead,
} from '../api/pages';
import { MAX_FILL_PAGES, MAX_SNAPSHOT_RECORDS } from '../api/lookup-cache';
import { recordId, type ServiceRecord } from '../api/records';
import type { Cell } from '../table/cells';
import { failRun, writeTarget } from './end';
import { adoption, refusal, writeOwned } from './ownership';
import type { ImportPorts, SnapshotPort } from './ports';
import { pagesRead, RUN_VERSION, type RunSource, type RunState, type RunSummary, summarize } from './run-state';
import { keyedRows, rowShape } from './shape';
import { MAX_SPREADSHEET_CELLS } from './watch';
import type { ImportSpec } from './spec';

/** What the first request asks for; the server's cap decides, and the reader learns it. */
export const FIRST_PAGE_LIMIT = 1000;
/**
 * Records a step holds for the shared snapshot before it writes them as a part (a long step never holds every
 * record it read). A lookup reads one bucket a part: after an import of 50,205 partners, a fill-down of 1,000
 * single-id formulas, 10 at once, took 8.2 s in parts of 10,000 (78 ms a cell) and 5.4 s in parts of 20,000
 * (52 ms), with the same largest heap after a full collection (88.6 and 87.3 MB).
 */
export const PART_RECORDS = 20_000;
/**
 * Pages asked for in one call (one fetchAll); a page that must wait does so alone, the next call goes on. Each call
 * costs a round of cache calls (Cancel, progress, quota), more pages cost memory: 50,205 partners in pages of 100
 * were imported in 18.3–18.6 s by calls of 20, 17.8–18.0 s by calls of 50, 18.5 s by calls of 100 (bench/floors.ts).
 */
export const PAGES_PER_FETCH = 50;
/** Records asked for in one call at most: a server that sends long pages (the limit is the server's) gets fewer pages a call. */
export const RECORDS_PER_FETCH = 10_000;
/** The longest the client waits inside one call before a retry; a longer wait is left to the step, which goes on with other pages. */
export const CALL_WAIT_MS = 5000;
/**
 * Time a step keeps at its end for writing what it read: a fixed part and a part per cell in hand
 * (about twice what the emulator models for reading back and writing a cell).
 */
export const WRITE_MARGIN = { fixedMs: 1000, perCellMs: 0.025 };
/**
 * How long one step may run, from the sidebar or a trigger: well inside Apps Script's 6 minutes, so
 * that most imports are one step and write their table once (every step before the last stages
 * what it read, which the last reads back). The sidebar shows a step's progress from its live
 * record (LivePort), and Cancel reaches a running step there.
 */
export const STEP_BUDGET_MS = 300_000;
export const LOCK_WAIT_MS = 30_000;
/**
 * What a run may spend before it gives up, whatever the cause: requests that brought no page in (each
 * refusal, and each page of a read done again) up to `requests` and `perPage` more for each page of the
 * list, and time without a page.
 */
export const GIVE_UP = { requests: 100, perPage: 3, withoutPageMs: 10 * 60_000 };

/** The longest a waiting step sleeps before it looks whether Cancel asked it to stop (LivePort). */
export const STOP_LOOK_MS = 5000;

export const LOCKED_MESSAGE = 'Another import is writing to this spreadsheet; waiting for it to finish.';

/** How a run is begun: Replace anyway (`force`), and the id its caller gave it (`runId`, else a new one). */
export interface Start {
  force?: boolean;
  runId?: string;
}

export function newRun(
  spec: ImportSpec,
  source: RunSource,
  ports: Pick<ImportPorts, 'now' | 'newRunId' | 'claimRun'>,
  named?: string,
): RunState {
  const now = ports.now();
  const runId = named ?? ports.newRunId();
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
 * Starts a run, or carries on the one already running (a second start never begins another). `start.force`: Replace
 * anyway, for this run; `start.runId`: the id the caller gave the run (the sidebar names the run it starts, so that
 * its Cancel reaches the run before the run is saved).
 */
export function beginRun(
  importId: string,
  source: RunSource,
  ports: ImportPorts,
  deadline: number,
  start: Start = {},
): RunSummary {
  return carryOn(importId, ports, deadline, { source, ...start });
}

export function continueRun(importId: string, ports: ImportPorts, deadline: number): RunSummary {
  return carryOn(importId, ports, deadline);
}

/** Steps the running run, under the lock; else starts one when asked to `begin`, or when the one running was saved in another shape (RUN_VERSION). */
function carryOn(
  importId: string,
  ports: ImportPorts,
  deadline: number,
  begin?: Start & { source: RunSource },
): RunSummary {
  return locked(importId, ports, () => {
    const run = ports.store.load(importId);
    if (!begin && run?.status !== 'running') return summarize(importId, run);
    const spec = specFor(importId, ports);
    if (run?.status === 'running' && run.version === RUN_VERSION) return step(spec, run, ports, deadline);
    const fresh = newRun(spec, begin?.source ?? (run as RunState).source, ports, begin?.runId);
    // Replace anyway is a replace's: a merge is never forced, whatever its saved import once said.
    if (spec.mode !== 'merge' && (begin?.force || spec.replaceAnyway)) fresh.force = true;
    ports.store.save(fresh);
    // Refused before any request when the import may not write the sheet as it is (checked again before writing).
    const refused = !fresh.force && refusal(ports.target.read(spec.sheetName), spec, spec.sheetName);
    return refused ? failRun(spec, fresh, ports, refused) : step(spec, fresh, ports, deadline);
  });
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

/** What a run is at: what its running step last showed (LivePort) when that is newer than the state it saved. */
export function runStatus(importId: string, ports: Pick<ImportPorts, 'store' | 'live'>): RunSummary {
  const run = ports.store.load(importId);
  const saved = summarize(importId, run);
  if (!run || saved.status !== 'running') return saved;
  const live = ports.live?.shown(run.runId);
  return live && live.at > run.updatedAt ? live.summary : saved;
}

/**
 * Cancels the running run: asks the step that may be running it to stop (it holds the lock), then ends the run under
 * the lock. `named`: the run the caller started (beginRun's `start.runId`), asked to stop too, saved or not yet: a
 * Cancel that comes before its run is saved stops the run's step at its first round.
 */
export function cancelRun(importId: string, ports: ImportPorts, named?: string): RunSummary {
  const running = ports.store.load(importId);
  if (named) ports.live?.askStop(named);
  if (running?.status === 'running') ports.live?.askStop(running.runId);
  return locked(importId, ports, () => {
    const run = ports.store.load(importId);
    if (run?.status === 'running' && run.version === RUN_VERSION)
      failRun(specFor(importId, ports), run, ports, '', 'cancelled');
    return summarize(importId, run);
  });
}

/** Time to keep at the end of a step for writing `rows` rows of `width` cells. */
export function writeMargin(rows: number, width: number): number {
  return WRITE_MARGIN.fixedMs + Math.ceil(rows * width * WRITE_MARGIN.perCellMs);
}

/**
 * The shared partner snapshot a run's read leaves: the records of the pages it reads, each with its
 * place in the list, written as a part once PART_RECORDS are held (a long step never holds every
 * record it read) and at the end of the step. Written where it is read: where a snapshot is kept (a
 * formula or the filter editor read the list into one, which the import then refreshes), or where
 * the list is longer than a formula reads itself (MAX_FILL_PAGES), which only an import can fill;
 * never a list longer than the cache keeps a copy of (MAX_SNAPSHOT_RECORDS).
 * A read with a step that did not write its pages publishes none (it would not be whole).
 */
function snapshotFeed(run: RunState, ports: ImportPorts) {
  if (!run.snap?.gen.endsWith(`.${run.pass}`))
    run.snap = { gen: `${run.runId}.${run.pass}`, parts: [], records: 0, at: ports.now(), whole: true };
  const snap = run.snap;
  let held: { records: ServiceRecord[]; places: number[] } = { records: [], places: [] };
  const wanted = (): SnapshotPort | null =>
    ports.snapshot &&
    run.list.total <= MAX_SNAPSHOT_RECORDS &&
    (run.list.last > MAX_FILL_PAGES || ports.snapshot.kept())
      ? ports.snapshot
      : null;
  const flush = (all: boolean) => {
    const to = held.records.length && (all || held.records.length >= PART_RECORDS) ? wanted() : null;
    if (!to) return;
    snap.parts.push(to.write(snap.gen, snap.parts.length, held.records, held.places));
    snap.records += held.records.length;
    held = { records: [], places: [] };
  };
  return {
    took(page: number, items: readonly ServiceRecord[]): void {
      if (!wanted()) {
        snap.whole = false;
        return;
      }
      const at = rowsBefore(run.list, page);
      // The snapshot keys records by id: one without a usable id has no place in it (nor in the table).
      items.forEach((r, i) => {
        if (recordId(r) === undefined) return;
        held.records.push(r);
        held.places.push(at + i);
      });
      flush(false);
    },
    flush: () => flush(true),
  };
}

/** Page 1 is in: a list whose table could not fit in a spreadsheet fails the run before more is read. */
function checkSize(spec: ImportSpec, r: ListRecord): void {
  if ((r.total + 1) * spec.fields.length <= MAX_SPREADSHEET_CELLS) return;
  throw new ServiceError(
    'BAD_RESPONSE',
    `The service reports ${grouped(r.total)} active partners: a table of that many rows and ${spec.fields.length} columns would not fit in a spreadsheet (${grouped(MAX_SPREADSHEET_CELLS)} cells at most).`,
  );
}

/**
 * One step: drives the run's read until the budget (less the time to write what was read) ends, the read
 * is over, the service fails for now or cancelling the run is asked for; then writes the pages it read to
 * staging at their place, in one write, or finishes the run. Before each round it shows what it has read
 * (LivePort): the run's saved state is the step's to save, at its end.
 */
export function step(spec: ImportSpec, run: RunState, ports: ImportPorts, deadline: number): RunSummary {
  // A step that begins with its time spent (another import of the same execution used it) leaves the run as it
  // is, for a step with time: it would otherwise start a write it has no time for.
  if (ports.now() + DEADLINE_MARGIN_MS + WRITE_MARGIN.fixedMs > deadline) return summarize(spec.id, run);
  const r = run.list;
  const { row, width } = rowShape(spec, ports.fund?.bind(ports));
  const startedOver = !!r.over;
  const counted = ports.pages.counters();
  const count = () => {
    const now = ports.pages.counters();
    run.fetches += now.fetches - counted.fetches;
    run.retries += now.retries - counted.retries;
    Object.assign(counted, now);
  };
  const snap = snapshotFeed(run, ports);
  /** Rows of the pages this step took in, and the pages the service answered in it (the page after the last included). */
  const known = new Map<number, Cell[][]>();
  const answered = new Set<number>();
  newStep(r);
  run.executions++;

  /** When a round's requests must end: in time to write the pages in hand and those asked for, from the first to the last. */
  const roundEnd = (asking: readonly number[]): number => {
    const span = [...known.keys(), ...asking];
    const rows = (Math.max(...span) - Math.min(...span) + 1) * (r.size || r.limit);
    return deadline - DEADLINE_MARGIN_MS - writeMargin(rows, width);
  };

  /**
   * The rows of pages first..last at their place: those in hand, those an earlier step staged (read back), blank
   * rows for the others. A page in that this step did not take is staged: every step stages each page it takes.
   */
  const placed = (first: number, last: number): Cell[][] => {
    const from = rowsBefore(r, first);
    const staged = (p: number) => !known.has(p) && pageIn(r, p);
    const span = Array.from({ length: last - first + 1 }, (_, k) => first + k);
    const back = span.some(staged)
      ? ports.staging.read(spec.id, Math.min(rowsBefore(r, last + 1), run.staged) - from, width, from)
      : [];
    return span.flatMap((p) => {
      const n = rowsOf(r, p);
      const at = rowsBefore(r, p) - from;
      const rows = known.get(p) ?? (staged(p) ? back.slice(at, at + n) : []);
      return rows.length === n ? rows : Array.from({ length: n }, () => new Array<Cell>(width).fill(''));
    });
  };

  /**
   * When the run has gone too long without a page (GIVE_UP): a step does not wait past it. A step that begins
   * past it (after a gap between steps: the hourly trigger's) asks first, as the run has not been waiting.
   */
  const began = ports.now();
  const quitAt = () => {
    const at = (run.progressAt ?? run.startedAt) + GIVE_UP.withoutPageMs + 1;
    return at > began ? at : Number.POSITIVE_INFINITY;
  };

  const stopAsked = () => !!ports.live?.stopAsked(run.runId);
  try {
    const drove = drive(r, {
      now: () => ports.now(),
      batch: () => Math.max(1, Math.min(PAGES_PER_FETCH, Math.floor(RECORDS_PER_FETCH / (r.size || r.limit)))),
      wait: (wake, page) => {
        // Everything missing waits for its Retry-After: sleep until the first is due, or to the end of the budget,
        // or until the run has gone too long without a page (then it gives up); a look for Cancel every STOP_LOOK_MS.
        const until = Math.min(wake, roundEnd([page]), quitAt());
        for (let left = until - ports.now(); left > 0 && !stopAsked(); left = until - ports.now())
          ports.sleep(Math.min(left, STOP_LOOK_MS));
        return ports.now() >= wake;
      },
      fetch: (due, limit) => {
        if (answered.size) ports.live?.show(run.runId, summarize(spec.id, run), ports.now());
        if (stopAsked()) return undefined;
        const now = ports.now();
        // As many of the due pages as the time left can write (wide rows, long pages), one at least.
        let ready = due;
        while (ready.length > 1 && now > roundEnd(ready)) ready = ready.slice(0, -1);
        const until = roundEnd(ready);
        if (now > until) return undefined;
        // The client waits inside a call only briefly: a longer wait is the step's, which goes on with other pages.
        const outcomes = ports.pages.fetch(ready, limit, Math.min(until, now + CALL_WAIT_MS));
        ready.forEach((page, k) => outcomes[k].ok && answered.add(page));
        if (outcomes.some((o) => o.ok)) run.progressAt = ports.now();
        return outcomes;
      },
      took: (page, value) => {
        known.set(page, value.items.map(row));
        snap.took(page, value.items);
        if (page === 1) checkSize(spec, r);
        run.read = rowsBefore(r, r.next);
        run.message = `Page ${grouped(pagesRead(run))} of ${grouped(r.last)}`;
      },
    });
    run.spent.refused += drove.refused;
    snap.flush();
    count();
    const failure = drove.final ?? drove.transient;
    if (failure?.transient) run.refusal = failure.message;
    // What the read stops on: this step's failure, else (a step that ended waiting) the refusal the run waits on.
    const stopsOn = failure?.message ?? (r.over ? undefined : run.refusal);
    const spent = stopsOn === undefined ? undefined : failure && !failure.transient ? '' : givenUp(run, ports.now());
    if (spent !== undefined) return failRun(spec, run, ports, `${stopsOn}${spent}`);
    // The service is failing for now (rate limit, outage): keep what is in, carry on in the next step.
    if (failure) run.message = `${failure.message} Continuing at page ${grouped(r.next)} in the next step.`;
    // A read that ended too late to write the table in this step leaves the writing to the next one.
    const over = !!r.over && (startedOver || ports.now() + writeMargin(r.total, width) <= deadline);
    // The step that writes the table takes the pages in hand as they are and reads back only what earlier steps staged.
    if (over) return finish(spec, run, placed(1, Math.max(1, r.last)), ports, deadline);
    if (answered.size) {
      const [first, last] = [Math.min(...answered), Math.max(...answered)];
      ports.staging.write(spec.id, spec.fields, rowsBefore(r, first), placed(first, last));
      run.staged = Math.max(run.staged, rowsBefore(r, last + 1));
    }
    run.updatedAt = ports.now();
    ports.store.save(run);
    return summarize(spec.id, run);
  } catch (e) {
    count();
    return failRun(spec, run, ports, e instanceof Error ? e.message : String(e));
  }
}

function finish(spec: ImportSpec, run: RunState, rows: Cell[][], ports: ImportPorts, deadline: number): RunSummary {
  const idCol = spec.fields.indexOf('id');
  const { keyed, unique, skipped, note } = keyedRows(rows, idCol);
  const judged = judge(
    run.list,
    keyed.map((row) => String(row[idCol])),
    skipped,
    run.digest,
  );
  if (judged.verdict.complete) {
    const snap = run.snap;
    // The read supersedes the kept snapshot: it publishes its own, or retires one it could not replace.
    if (ports.snapshot && snap?.whole && snap.parts.length)
      ports.snapshot.publish(snap.gen, snap.records, snap.parts, snap.at);
    else if (ports.snapshot && run.list.total > MAX_SNAPSHOT_RECORDS) ports.snapshot.retire();
    const twice = judged.repeats
      ? ` Left out ${plural(judged.repeats, 'repeated listing')} (ids the service listed more than once, alike in two reads): each partner is kept as first listed.`
      : '';
    return writeTarget(spec, run, rowShape(spec).keep(unique), unique.length + skipped, ports, note + twice);
  }
  const { reason, changed } = judged.verdict;
  // A read done again spends the pages this one took in.
  run.spent.reread += Math.max(1, pagesIn(run.list));
  const spent = givenUp(run, ports.now());
  if (spent !== undefined) {
    const why = changed ? `it kept changing during the import (last read: ${reason})` : reason;
    return failRun(spec, run, ports, `Incomplete after ${plural(run.pass, 'read')} of the list: ${why}.${spent}`);
  }
  ports.staging.remove(spec.id);
  Object.assign(run, {
    digest: judged.digest,
    pass: run.pass + 1,
    list: readAgain(run.list, FIRST_PAGE_LIMIT),
    staged: 0,
    read: 0,
    message: changed
      ? 'The list changed during the import; reading it again.'
      : `The list did not add up (${reason}); reading it again.`,
  });
  ports.store.save(run);
  return step(spec, run, ports, deadline);
}

/** What the run has spent, as a sentence, once that is more than its budget (GIVE_UP) allows. */
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

/** The analyst lets the import own the table in its sheet, which it did not write (typed by hand, or tagged by another import or record version). */
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
