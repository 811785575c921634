/**
 * The clock every benchmark charges: the emulator's modelled clock (EmulatorOptions.modelledClock)
 * at the service's injected latency, so that a figure is the same on a busy machine and a quiet
 * one: the CPU time of the work of each execution (the bundle's compilation and run included) at
 * the reference speed of dev/emulator/cpu-speed.ts (measured alongside the work with a calibration
 * task, so that cores slowed by a busy neighbour charge the same work the same),
 * each request at the latency plus its bytes, at most FETCH_CONCURRENCY requests of a fetchAll in
 * flight. Set once by runBench (or a scale point's own process) before any emulator is made.
 */
import { spawnSync } from 'node:child_process';
import type { ClockModel } from '../dev/emulator/execution';
import type { EmulatorOptions } from '../dev/emulator/runtime';

let model: ClockModel | undefined;

export function setBenchClock(latencyMs: number, fetchConcurrency?: number): void {
  model = { latencyMs, ...(fetchConcurrency === undefined ? {} : { fetchConcurrency }) };
}

/** Emulator options with the benchmarks' clock (and `more`). */
export function modelled(more: EmulatorOptions = {}): EmulatorOptions {
  if (!model) throw new Error('setBenchClock first: a benchmark charges the modelled clock');
  return { ...more, modelledClock: model };
}

/**
 * The V8 flag that leaves V8 no helper threads, with which every benchmark runs (runBench's
 * process, and a scale point's). The modelled clock charges the CPU time of the whole process
 * while one thread computes at a time (cpuTimeMs in dev/emulator/cpu-speed.ts); V8's helper
 * threads (concurrent and parallel garbage collection, background compilation) of every isolate,
 * the main one and each worker of a concurrent wave, run beside it, and their work was charged to
 * whichever execution computed at that moment, as much of it as the machine's scheduling let run
 * then. Without them each isolate does that work on its own thread, when its code needs it, and
 * is charged for it. Measured with the formula cases of the floors group, quiet and beside two
 * CPU burners: a 1,000-cell fill-down (ten worker isolates) read 10.9 % more time and 11.1 % more
 * exec-s beside the burners with helper threads, 0.1 % and 0.1 % without. What still moved was
 * CPU time itself: in the whole floors group without them, beside the burners, the 0.15 s warm
 * cases read 23 % more, LP_FILTER cold 7 % less, the 10,045 import 6 % more, the rest within 2.2 %;
 * the reference speed (dev/emulator/cpu-speed.ts) is what takes that out.
 */
export const SINGLE_THREADED = '--single-threaded';

/** Whether this process runs with SINGLE_THREADED. */
export const singleThreaded = (): boolean => process.execArgv.includes(SINGLE_THREADED);

/** Runs this script again, with SINGLE_THREADED, the same loader flags and arguments; its exit code. */
export function rerunSingleThreaded(): number {
  const run = spawnSync(process.execPath, [SINGLE_THREADED, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  return run.status ?? 1;
}
