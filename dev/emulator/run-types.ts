/**
 * What one run of the bundle in the emulator takes and gives: its options, its result with the
 * ledger, and an execution prepared to run (by the emulator itself or by a concurrent wave).
 */
import type { AuthModeName } from './auth';
import type { CellRef, Execution, ExecutionKind, Ledger, SimClock } from './execution';
import type { EmulatedLockService } from './lock';

export interface RunResult<T = unknown> {
  value?: T;
  error?: string;
  ledger: Ledger;
}

export interface RunOptions {
  kind?: ExecutionKind;
  user?: string;
  /** Kills the execution once this much simulated time has passed (a crash, a closed tab, a limit). */
  killAfterMs?: number;
  /**
   * The authorization mode (auth.ts). Default: the `authMode` of an event argument
   * (`{ authMode: 'NONE' }`), else LIMITED for simple triggers, CUSTOM_FUNCTION for custom
   * functions, FULL for the rest.
   */
  authMode?: Exclude<AuthModeName, 'CUSTOM_FUNCTION'>;
  /**
   * The cell that holds the formula (1-based), as Sheets gives a custom function: then
   * `SpreadsheetApp.getActiveRange()`, `getCurrentCell()` and `getActiveSheet()` (also on the
   * active spreadsheet) return that cell and its sheet. Without it they behave as before (the
   * active sheet; no active range is modelled).
   */
  activeCell?: CellRef;
}

/** Where an execution runs: its clock, and how the realm its code runs in makes an Error and a Date. */
export interface ExecutionSite {
  clock: SimClock;
  makeError: (m: string) => Error;
  makeDate: (ms: number) => Date;
}

/** An execution prepared by Emulator.prepare, run by Emulator.run or by a concurrent wave. */
export interface PreparedExecution {
  exec: Execution;
  globals: Record<string, object>;
  locks: EmulatedLockService;
  mode: AuthModeName;
  /** The arguments as the bundle sees them (event objects carry the execution's authMode enum). */
  args(args: unknown[]): unknown[];
}
