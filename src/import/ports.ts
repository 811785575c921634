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
import type { OutCell } from './merge';
import type { OwnedTable, SheetTag } from './replace';
import type { RunState } from './run-state';
import type { ImportSpec } from './spec';

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
  /** The sheet's cells, the field each column's metadata names and the import's tag; null when there is no such sheet. */
  read(sheetName: string): OwnedTable | null;
  /** Records the import's tag on the sheet (creating the sheet if there is none). */
  tag(sheetName: string, tag: SheetTag): void;
  /**
   * Replaces the table in one write, then names each column's field (`columns`; undefined for the
   * analyst's), formats the import's columns by field (clearing a format it set for another field)
   * and protects them with a warning-only protection naming `importId`.
   */
  write(sheetName: string, grid: OutCell[][], columns: ReadonlyArray<string | undefined>, importId: string): void;
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

/** The shared partner snapshot (src/api/snapshot.ts): every import that reads the whole list leaves a copy formulas can use. */
export interface SnapshotPort {
  /** Writes records as chunks `first`, `first + 1`, … of generation `gen`; returns how many chunks. */
  write(gen: string, first: number, records: readonly ServiceRecord[]): number;
  /** Publishes generation `gen` (its `chunks` chunks) as the snapshot. */
  publish(gen: string, chunks: number): void;
}

export interface ImportPorts {
  pages: PagePort;
  /** Optional: without it the import keeps no snapshot. */
  snapshot?: SnapshotPort;
  staging: StagingPort;
  target: TargetPort;
  store: RunStore;
  logs: LogPort;
  lock: LockPort;
  now(): number;
  /** Waits `ms` (Utilities.sleep in Apps Script). */
  sleep(ms: number): void;
  newRunId(): string;
}
