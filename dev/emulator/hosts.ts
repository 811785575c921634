/**
 * How Sheets and the sidebar call into the bundle. Custom functions: a fresh 30-second
 * execution with read-only services; a thrown error shows as #ERROR! with its message; a
 * recalculation runs many formula cells as concurrent executions, each seeing its own cell.
 * google.script.run: JSON-safe arguments and results only (a Date, function or undefined in
 * them fails the call, as Google's does), private names (ending in `_`) unreachable, and at
 * most 10 calls in flight; more wait their turn. Calls in flight run at once, as Google runs
 * each as its own execution: a sidebar can poll a record while a long call of its own runs
 * (each call is a wave of one job, concurrent.ts, so this thread is free while its code computes).
 */
import type { FormulaCell, WaveOptions } from './concurrent';
import type { RunResult } from './run-types';
import type { Emulator } from './runtime';

export interface CellResult {
  /** A value or a 2D array of values, as Sheets would spill it. */
  value?: unknown;
  /** The message a cell shows on hover when the function threw. */
  error?: string;
  run: RunResult;
}

/** What a cell shows for one custom-function execution. */
function cellResult(run: RunResult): CellResult {
  if (run.error !== undefined) return { error: run.error, run };
  return { value: run.value === undefined ? '' : run.value, run };
}

export function callCustomFunction(emu: Emulator, name: string, args: unknown[]): CellResult {
  return cellResult(emu.run(name, args, { kind: 'custom-function' }));
}

/** Recalculates formula cells as Sheets does, several executions at once (Emulator.recalculate); results in cell order. */
export async function recalculateCells(
  emu: Emulator,
  cells: FormulaCell[],
  options: WaveOptions = {},
): Promise<CellResult[]> {
  return (await emu.recalculate(cells, options)).map(cellResult);
}

export const MAX_IN_FLIGHT = 10;

/** Whether an object is a plain one: its prototype is an Object.prototype (of any realm: a result comes from a worker), or none. */
function plainPrototype(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** The path of the first value google.script.run cannot carry, or undefined. */
export function illegalValue(value: unknown, path = 'value'): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = illegalValue(value[i], `${path}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (typeof value === 'object' && plainPrototype(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const bad = illegalValue(v, `${path}.${k}`);
      if (bad) return bad;
    }
    return undefined;
  }
  return path;
}

export class ScriptRunHost {
  private inFlight = 0;
  private readonly queue: Array<() => void> = [];
  maxSeen = 0;

  constructor(
    private readonly emu: Emulator,
    private readonly user?: string,
  ) {}

  call(name: string, args: unknown[] = []): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const start = () => {
        this.inFlight++;
        this.maxSeen = Math.max(this.maxSeen, this.inFlight);
        this.execute(name, args)
          .then(resolve, reject)
          .finally(() => {
            this.inFlight--;
            this.queue.shift()?.();
          });
      };
      if (this.inFlight < MAX_IN_FLIGHT) start();
      else this.queue.push(start);
    });
  }

  private async execute(name: string, args: unknown[]): Promise<unknown> {
    if (name.endsWith('_')) throw new Error(`Script function not found: ${name}`);
    const badArg = illegalValue(args, 'arguments');
    if (badArg) throw new Error(`Failed due to illegal value in property: ${badArg}`);
    const [run] = await this.emu.runConcurrently([{ name, args, options: { kind: 'sidebar', user: this.user } }], {
      concurrency: 1,
    });
    if (run.error !== undefined) throw new Error(run.error);
    if (run.value === undefined) return null;
    const badResult = illegalValue(run.value, 'result');
    if (badResult) throw new Error(`Failed due to illegal value in property: ${badResult}`);
    return JSON.parse(JSON.stringify(run.value));
  }
}
