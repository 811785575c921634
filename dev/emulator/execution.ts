/**
 * One execution of the bundle: its kind and time limit, the simulated clock it advances, and the
 * ledger of what it did. Every emulated service call is charged here: the real time that passed
 * since the last charge (the bundle's own work, and real HTTP) plus the modelled cost of the call.
 * Under a modelled clock (useModelledClock) the real time is CPU time at a reference speed
 * (cpu-speed.ts, referenceCpuMs) instead of wall time, and fetches cost what the model says, not what the requests took on this machine.
 * Past the limit the execution is dead: this call and every later one throws Google's message.
 * It also runs in one authorization mode (auth.ts), which decides what it may call at all.
 */
import { type AuthModeName, readsEmail, refusal } from './auth';
import { referenceCpuMs } from './cpu-speed';

/** A cell of the workbook, 1-based: the cell whose formula a custom-function execution evaluates. */
export interface CellRef {
  sheet: string;
  row: number;
  col: number;
}

export type ExecutionKind = 'custom-function' | 'simple-trigger' | 'menu' | 'sidebar' | 'trigger' | 'editor';

/** Google's limits: 30 s for custom functions and simple triggers, 6 minutes for the rest. */
export const LIMIT_MS: Record<ExecutionKind, number> = {
  'custom-function': 30_000,
  'simple-trigger': 30_000,
  menu: 360_000,
  sidebar: 360_000,
  trigger: 360_000,
  editor: 360_000,
};

/** The cost model, in simulated milliseconds, beyond real elapsed time. */
export const COST = {
  call: 1,
  cache: 3,
  properties: 3,
  lock: 3,
  sheetRead: 10,
  sheetReadPerCell: 0.002,
  sheetWrite: 30,
  sheetWritePerCell: 0.01,
  flush: 20,
};

/**
 * A load-independent charge (EmulatorOptions.modelledClock): the bundle's own work at the CPU time
 * it takes, and each request at `latencyMs` plus its bytes (sent and received) at `bytesPerMs`,
 * at most `fetchConcurrency` requests of one fetchAll in flight at once, instead of the wall time
 * that passed, which grows with whatever else the machine is doing.
 */
export interface ClockModel {
  /** Every request's round trip (ms): the latency the service is configured with. */
  latencyMs: number;
  /** Transfer rate, bytes a millisecond (default FETCH_BYTES_PER_MS). */
  bytesPerMs?: number;
  /** Requests of one fetchAll in flight at once (default FETCH_CONCURRENCY, url-fetch.ts). */
  fetchConcurrency?: number;
}

export class SimClock {
  constructor(public nowMs: number) {}
  now(): number {
    return this.nowMs;
  }
  advance(ms: number): void {
    this.nowMs += Math.max(0, ms);
  }
}

export interface Ledger {
  kind: ExecutionKind;
  name: string;
  user: string;
  startedAt: number;
  endedAt: number;
  calls: Record<string, number>;
  fetches: number;
  fetchAllCalls: number;
  cacheHits: number;
  cacheMisses: number;
  sheetReads: number;
  sheetWrites: number;
  cellsWritten: number;
  logs: string[];
  timedOut: boolean;
  authMode: AuthModeName;
  /** Modal and modeless dialogs this execution showed (Ui.showModalDialog, showModelessDialog). */
  dialogs: Array<{ title: string; html: string; modal: boolean }>;
  /** Each compilation this execution was charged (compile.ts): the script's ("Code.js"), then each text it compiled by `eval`. */
  compiles: Array<{ name: string; ms: number }>;
  /** Under a clock model, the running of the script's top-level code it was charged (compile.ts, evaluateMs); else 0 (its real time is in its work's). */
  evaluatedMs: number;
}

/** The message of anything thrown (what a result's `error` holds). */
export function errorMessage(e: unknown): string {
  return typeof e === 'object' && e !== null && 'message' in e ? String((e as Error).message) : String(e);
}

/** The mode an execution of this kind runs in when nothing else says. */
export function defaultAuthMode(kind: ExecutionKind): AuthModeName {
  if (kind === 'custom-function') return 'CUSTOM_FUNCTION';
  return kind === 'simple-trigger' ? 'LIMITED' : 'FULL';
}

export class Execution {
  readonly ledger: Ledger;
  readonly limitMs: number;
  /** The real time this execution is charged for (ms): wall time, unless a host gives its own (useRealClock) or CPU time (useModelledClock). */
  private realNow: () => number = () => performance.now();
  private lastReal = performance.now();
  /** How fetches are charged: the real time they took (undefined), or this model (useModelledClock). */
  fetchModel: ClockModel | undefined;
  /** Makes a Date in the bundle's realm (set by the runtime). */
  makeDate: (ms: number) => Date = (ms) => new Date(ms);

  /** The manifest's oauthScopes; null when the project declares none (nothing is refused for a scope). */
  manifestScopes: ReadonlySet<string> | null = null;

  /**
   * The scopes the executing user has granted (project.ts): the manifest's, or fewer where the
   * user declined some; null when nothing is refused for a scope.
   */
  grantedScopes: ReadonlySet<string> | null = null;

  /** The document this execution runs in (Emulator.documentId; a spreadsheet's getId()). */
  documentId = '';

  /** The calling cell of a custom function (SpreadsheetApp.getActiveRange() returns it), when the host gave one. */
  activeCell: CellRef | undefined;

  constructor(
    readonly clock: SimClock,
    readonly kind: ExecutionKind,
    name: string,
    readonly user: string,
    readonly owner: string,
    readonly makeError: (m: string) => Error,
    killAfterMs?: number,
    readonly authMode: AuthModeName = defaultAuthMode(kind),
  ) {
    this.limitMs = Math.min(LIMIT_MS[kind], killAfterMs ?? Number.POSITIVE_INFINITY);
    this.ledger = {
      kind,
      name,
      user,
      startedAt: clock.now(),
      endedAt: clock.now(),
      calls: {},
      fetches: 0,
      fetchAllCalls: 0,
      cacheHits: 0,
      cacheMisses: 0,
      sheetReads: 0,
      sheetWrites: 0,
      cellsWritten: 0,
      logs: [],
      timedOut: false,
      authMode,
      dialogs: [],
      compiles: [],
      evaluatedMs: 0,
    };
  }

  /**
   * Throws Google's permission error when this execution's mode or scopes do not allow the call:
   * the scopes the user granted, except for the email readers, which need only the manifest's
   * (a user who declined the scope gets '' from getEmail instead, utilities.ts).
   */
  authorize(service: string, member: string): void {
    const scopes = readsEmail(service, member) ? this.manifestScopes : this.grantedScopes;
    const why = refusal(this.authMode, service, member, scopes);
    if (why) throw this.makeError(why);
  }

  get elapsedMs(): number {
    return this.clock.now() - this.ledger.startedAt;
  }

  /** Records a call, advances the clock by real time passed plus `costMs`, enforces the limit. */
  charge(call: string, costMs = COST.call): void {
    this.syncReal();
    this.check();
    this.ledger.calls[call] = (this.ledger.calls[call] ?? 0) + 1;
    this.clock.advance(costMs);
    this.check();
  }

  /**
   * Charges real time from this source from now on: the concurrent host (concurrent.ts) counts
   * only the time a job computes or is served, not the time it waits for its turn.
   */
  useRealClock(now: () => number): void {
    this.realNow = now;
    this.lastReal = now();
  }

  /**
   * Charges CPU time at the reference speed (cpu-speed.ts, referenceCpuMs) instead of wall time
   * from now on, and fetches at `model`'s cost.
   * A host with a clock of its own (useRealClock, after this) keeps it for the computation; the
   * fetches stay modelled.
   */
  useModelledClock(model: ClockModel): void {
    this.fetchModel = model;
    this.useRealClock(referenceCpuMs);
  }

  /**
   * Runs the emulator's own setup (not the script's work, nothing Google would spend) without
   * charging its real time to this execution.
   */
  uncharged<T>(work: () => T): T {
    this.syncReal();
    try {
      return work();
    } finally {
      this.lastReal = this.realNow();
    }
  }

  /** Charges a compilation (compile.ts): the script's before its top-level code runs, or a text it compiles by `eval`. */
  compiled(ms: number, name = 'Code.js'): void {
    this.syncReal();
    this.ledger.compiles.push({ name, ms });
    this.clock.advance(ms);
    this.check();
  }

  /** Charges the running of the script's top-level code at a figure of its own (compile.ts, evaluateMs) instead of its real time. */
  evaluated(ms: number): void {
    this.syncReal();
    this.ledger.evaluatedMs += ms;
    this.clock.advance(ms);
    this.check();
  }

  /** Adds real time spent since the last charge (the bundle's own computation, real I/O). */
  syncReal(): void {
    const now = this.realNow();
    this.clock.advance(now - this.lastReal);
    this.lastReal = now;
  }

  check(): void {
    if (this.ledger.timedOut || this.elapsedMs > this.limitMs) {
      this.ledger.timedOut = true;
      throw this.makeError('Exceeded maximum execution time');
    }
  }

  /** Custom functions may not call services that need authorisation, nor write. */
  deny(what: string): never {
    throw this.makeError(`Exception: You do not have permission to call ${what}`);
  }

  get readOnly(): boolean {
    return this.kind === 'custom-function';
  }

  finish(): Ledger {
    this.syncReal();
    this.ledger.endedAt = this.clock.now();
    if (this.elapsedMs > this.limitMs) this.ledger.timedOut = true;
    return this.ledger;
  }
}
