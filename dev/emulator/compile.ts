import vm from 'node:vm';
import { cpuTimeMs } from './execution';

/** The CPU time (ms) V8 takes to compile each script source, measured once per process. */
const compileCosts = new Map<string, number>();
let compiles = 0;

/**
 * What compiling this script costs (CPU ms): the median of five compilations of its text made new
 * to V8 each time (V8 keeps a compiled script for its text for the life of the process, so the
 * same text would cost nothing the second time). Apps Script compiles the project's files in every
 * execution before it runs them, so every execution is charged this (Execution.compiled): measured
 * once per source and process rather than paid again each time, which would make every test that
 * runs a thousand executions slower by as much, and a figure depend on one compilation's luck.
 * (The functions the bundle calls are compiled lazily on their first call, in the first execution
 * only; that part is not charged again.)
 */
export function compileMs(source: string): number {
  let ms = compileCosts.get(source);
  if (ms === undefined) {
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = cpuTimeMs();
      compiles++;
      new vm.Script(`${source}\n//# compilation ${compiles}`, { filename: 'Code.js' });
      samples.push(cpuTimeMs() - start);
    }
    ms = samples.sort((x, y) => x - y)[2];
    compileCosts.set(source, ms);
  }
  return ms;
}
