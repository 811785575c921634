/**
 * The clock every benchmark charges: the emulator's modelled clock (EmulatorOptions.modelledClock)
 * at the service's injected latency, so that a figure is the same on a busy machine and a quiet
 * one: the CPU time of the work of each execution (the bundle's compilation and run included),
 * each request at the latency plus its bytes, at most FETCH_CONCURRENCY requests of a fetchAll in
 * flight. Set once by runBench (or a scale point's own process) before any emulator is made.
 */
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
