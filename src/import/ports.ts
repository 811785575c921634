/**
 * What the import needs from the world, as small interfaces: the list's pages, a staging area
 * for rows between executions, the target table, the store of saved imports and runs, the run
 * and change logs, a clock, a lock and an id source. src/gas supplies the Apps Script versions
 * (src/gas/import-ports.ts); the unit tests supply fakes, so every path of the state machine runs
 * in milliseconds without a spreadsheet.
 */
import type { Outcome } from '../api/client';
import type { Page, ServiceRecord } from '../api/records';
import type { Cell } from '../table/cells';
import type { RunState, RunSummary } from './run-state';
import type { ImportSpec } from './spec';

/** A cell as the import writes it: a value, or a formula (an analyst's, kept). */
export type OutCell = Cell | { formula: string };
/** The field each column's record names: the import's columns; undefined for the analyst's. */
export type Fields = ReadonlyArray<string | undefined>;

/** The target sheet as its port reads it: its cells, each column's field, the import's tag and record (./ownership.ts). */
export interface OwnedTable {
  values: Cell[][];
  formulas: string[][];
  fields: Fields;
  tag: { import: string; version: number } | null;
  /** The record's rows (`hash.hash…|id`): the current record's and, after an execution ended mid-write, the pending one's. */
  written: readonly string[];
}
export type SheetTag = NonNullable<OwnedTable['tag']>;

export interface PagePort {
  /** Pages of the active-partners list at `limit` a page, fetched together, in order, all answered by `until` (clock ms). */
  fetch(pages: number[], limit: number, until: number): Outcome<Page<ServiceRecord>>[];
  /** Requests sent and retried so far by this port. */
  counters(): { fetches: number; retries: number };
}

/** Rows kept between executions (a hidden sheet in Apps Script). */
export interface StagingPort {
  /** Writes `rows` from data row `at` (0-based); at 0 the area is created anew, with `header`. */
  write(importId: string, header: readonly string[], at: number, rows: Cell[][]): void;
  /** `count` data rows from data row `from` (0-based, default 0), `width` cells each. */
  read(importId: string, count: number, width: number, from?: number): Cell[][];
  remove(importId: string): void;
}

export interface TargetPort {
  /** The sheet's cells, the field each column's metadata names, the import's tag and record; null when there is no such sheet. */
  read(sheetName: string): OwnedTable | null;
  /**
   * Keeps `rows` as the pending record of import `importId` on the sheet (creating the sheet if there is none), beside
   * its current record: `read` gives the rows of both until `commit`.
   */
  record(sheetName: string, importId: string, rows: readonly string[]): void;
  /** Makes the pending record the sheet's record (with `rows` in its place, when given), tagged with the record's version. */
  commit(sheetName: string, importId: string, rows?: readonly string[]): void;
  /**
   * Replaces the table in one write (one per run of the import's columns when the analyst's sit
   * between them: a column undefined in `columns` that held no field before is the analyst's and is
   * never written), then names each column's field, formats the import's columns by field (clearing a format it set for another field)
   * and protects them with a warning-only protection naming `importId`.
   */
  write(sheetName: string, grid: OutCell[][], columns: Fields, importId: string): void;
}

export interface RunStore {
  specs(): ImportSpec[];
  saveSpecs(specs: readonly ImportSpec[]): void;
  load(importId: string): RunState | null;
  save(run: RunState): void;
}

export interface LogPort {
  run(row: Cell[]): void;
  changes(rows: Cell[][]): void;
}

export interface LockPort {
  tryLock(waitMs: number): boolean;
  release(): void;
}

/** The shared partner snapshot (src/api/snapshot.ts): an import refreshes one that is kept, or fills one for a list longer than formulas read. */
export interface SnapshotPort {
  /** Whether a snapshot is kept (one the cache holds, fresh or not: a formula or the filter editor read the list into it). */
  kept(): boolean;
  /** Writes part `part` of generation `gen`: records at their places in the list; returns the part's bucket count. */
  write(gen: string, part: number, records: readonly ServiceRecord[], places: readonly number[]): number;
  /** Publishes generation `gen` (each part's bucket count) as the snapshot of `total` records, read from `readAt` on. */
  publish(gen: string, total: number, parts: number[], readAt: number): void;
  /** Removes the kept snapshot: a complete read found a list longer than the cache keeps a copy of, so the copy is of an older one. */
  retire(): void;
}

/** The sheet keeping an import's history (src/import/watch.ts): whole runs, each row marked by its run's time in column A (the run's record). */
export interface HistoryPort {
  /** The sheet's header and the runs its rows are marked with (time in ms, rows), in any order; nothing when there is no sheet. Throws when a sheet of that name is not this import's. */
  runs(sheetName: string, importId: string): { header: string[]; runs: Array<{ at: number; rows: number }> };
  /** The cells of every other sheet, and the history sheet's grid (rows and columns; those of a new sheet when there is none). */
  grid(sheetName: string): { others: number; rows: number; cols: number };
  /** Deletes the rows of the runs marked with these times, wherever the analyst sorted them. */
  prune(sheetName: string, runs: readonly number[]): void;
  /** Appends rows in one write, creating the sheet (the import's, with `header`) when there is none. */
  append(sheetName: string, importId: string, header: readonly string[], rows: Cell[][]): void;
}

/** One listed partner as an alert's owner was last told of them: the id, the name ('' when the import has none) and the watched fields' values, as text. */
export interface Known {
  id: string;
  name: string;
  values: string[];
}

/** An alert's record of what its owner was last told (a hidden sheet in Apps Script): who was added or removed, and what changed, since. */
export interface ListedPort {
  /** Null when there is no record. */
  read(importId: string): Known[] | null;
  /** Replaces the record in one write. */
  write(importId: string, known: readonly Known[]): void;
  remove(importId: string): void;
}

/** Email for alerts (MailApp): the daily recipients left, one send, and the links an email gives. */
export interface MailPort {
  /** Why the user this execution runs as cannot send mail ('' when they can: they granted the scope). */
  off(): string;
  remaining(): number;
  send(to: string, subject: string, htmlBody: string, body: string): void;
  /** Texts no email may hold (the user's key). */
  secrets(): readonly string[];
  links(): { spreadsheet: string; changeLog: string };
}

/**
 * What a running step and the sidebar say to each other while the step runs (it holds the lock, and
 * saves the run only at its end): display-only progress, and a request to stop. Each names its run,
 * so what an earlier run left is never taken for this one's.
 */
export interface LivePort {
  /** The step's progress at `at`, for importStatus while it runs; never read back by a step. */
  show(runId: string, summary: RunSummary, at: number): void;
  /** What the step running run `runId` last showed, and when; null when nothing is known. */
  shown(runId: string): { summary: RunSummary; at: number } | null;
  /** Asks the step running run `runId` to stop at its next round (Cancel). */
  askStop(runId: string): void;
  /** Whether stopping run `runId` was asked for. */
  stopAsked(runId: string): boolean;
}

export interface ImportPorts {
  pages: PagePort;
  /** A venture fund's record, for an import sorted by fit (asked for once a step; throws when it cannot be had). */
  fund?(id: string): ServiceRecord;
  /** Optional: without it the import keeps no snapshot. */
  snapshot?: SnapshotPort;
  staging: StagingPort;
  target: TargetPort;
  /** Optional: without it no history is kept. */
  history?: HistoryPort;
  /** Optional: without it (or `listed`) no alert is sent. */
  mail?: MailPort;
  listed?: ListedPort;
  store: RunStore;
  /** Optional: without it a step shows no progress until it ends, and Cancel waits for the step to end. */
  live?: LivePort;
  logs: LogPort;
  lock: LockPort;
  now(): number;
  /** Waits `ms` (Utilities.sleep in Apps Script). */
  sleep(ms: number): void;
  newRunId(): string;
  /** The user this execution runs as (Person.id), who begins run `runId`: recorded in their own properties as theirs. */
  claimRun(runId: string): string;
}
