import vm from 'node:vm';
import { cpuTimeMs } from './execution';

/**
 * Bytes of script V8 compiles in a millisecond of CPU: the rate at which every execution is
 * charged its script's compilation (compileMs). Measured: dist/Code.js, 153.5 KB, compiles afresh in
 * 6.8 to 8.0 ms (the median of 25 fresh compilations, measureLoad, in eight runs quiet and beside
 * two CPU burners) on the two-core machine the benchmarks run on: about 20,000 bytes a ms.
 */
export const COMPILE_BYTES_PER_MS = 20_000;

/**
 * What compiling this script costs each execution (ms): its size at COMPILE_BYTES_PER_MS. Apps
 * Script compiles the project's files in every execution before it runs them, so every execution
 * is charged this (Execution.compiled). A model rather than a measurement, as a request's latency
 * is: one compilation takes 5 to 16 ms of CPU here depending on what else the machine runs (the
 * median of five, measured per process, moved a 1,000-execution figure by half), and a benchmark
 * figure must repeat on a busy machine. The running of the top-level code, every execution's own
 * work, stays charged at the CPU time it takes. measureLoad gives the measured figures.
 */
export function compileMs(source: string): number {
  return Buffer.byteLength(source) / COMPILE_BYTES_PER_MS;
}

let compiles = 0;

/**
 * The CPU time (ms) V8 takes to compile this script afresh and to run its top-level code in a
 * fresh context: the medians of `samples` tries, each compiling a text new to V8 (V8 keeps a
 * compiled script for its text for the life of the process, so the same text would cost nothing
 * the second time). What the benchmarks report beside the bundle's size.
 */
export function measureLoad(source: string, samples = 25): { compileMs: number; evaluateMs: number } {
  const compile: number[] = [];
  const evaluate: number[] = [];
  for (let i = 0; i < samples; i++) {
    const context = vm.createContext({});
    const start = cpuTimeMs();
    compiles++;
    const script = new vm.Script(`${source}\n//# compilation ${compiles}`, { filename: 'Code.js' });
    const compiled = cpuTimeMs();
    script.runInContext(context);
    evaluate.push(cpuTimeMs() - compiled);
    compile.push(compiled - start);
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return { compileMs: median(compile), evaluateMs: median(evaluate) };
}
