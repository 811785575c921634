/**
 * The run a benchmark reports for a case it repeats: the run at the median of its charged time.
 *
 * A figure that is mostly the add-in's own CPU time (a warm formula, the CPU part of a cold one)
 * is charged at the reference speed (dev/emulator/cpu-speed.ts), and one run of it still moves
 * with what the machine does meanwhile: a collection that lands in it or not, a calibration that
 * read the host slower or faster than the work ran. Measured on the two-core machine the
 * benchmarks run on, twenty warm runs of LP_GET over 10,000 ids in each of six processes (three
 * quiet, three beside two CPU burners): the fastest run of a process read 113 to 141 ms, the
 * median 152 to 168 ms. The fastest of a few runs is an extreme and repeats worst; the median
 * repeats best, and it is a run that happened, so every figure of the case (requests, calls)
 * comes from the same run as its time.
 */

/** Runs of a repeated formula case (a few seconds each, cold): odd, so that the median is a run. */
export const RUNS = 9;
/**
 * Warm runs after each cold one. A warm figure is a few dozen to a few hundred ms of CPU time, which
 * one run of it moves by up to ±20 %; the medians of nine (one a round) differed by 7 to 11 % between
 * a quiet and a loaded run. Measured with the warm LP_GET over 1,000 ids (about 50 ms), thirty runs
 * a process: the median of 30 read 46 to 53 ms in four quiet processes, so two medians of 27 differ
 * by more than 5 % about one time in three from the sample alone; the medians of 120 read 48.7 to
 * 49.6 ms in three quiet processes and 50.1 to 52.3 ms in three beside two CPU burners (3.7 % more
 * on average: the load's part, which more runs do not take out). Nine a round make the median one of
 * 81 runs, for about the price of two cold ones.
 */
export const WARM_RUNS = 9;
/** Runs of a case of a few hundred ms of CPU time run the same way every time (LP_MATCH over a warm snapshot): as many as a warm formula's. */
export const SHORT_RUNS = RUNS * WARM_RUNS;
/** Runs of a repeated fill-down (a wave of 1,000 executions, several seconds of wall time each). */
export const WAVE_RUNS = 5;

/** The run at the median of `ms` among `runs` runs of `one` (each told its index). */
export function medianRun<T>(runs: number, one: (run: number) => T, ms: (t: T) => number): T {
  const all: T[] = [];
  for (let i = 0; i < runs; i++) all.push(one(i));
  return median(all, ms);
}

/** medianRun for a case that runs asynchronously (a wave of concurrent executions). */
export async function medianRunAsync<T>(
  runs: number,
  one: (run: number) => Promise<T>,
  ms: (t: T) => number,
): Promise<T> {
  const all: T[] = [];
  for (let i = 0; i < runs; i++) all.push(await one(i));
  return median(all, ms);
}

/** The element at the median of `ms` (the lower of the two middle ones for an even count). */
export function median<T>(all: readonly T[], ms: (t: T) => number): T {
  if (all.length === 0) throw new Error('median of no runs');
  return [...all].sort((a, b) => ms(a) - ms(b))[Math.floor((all.length - 1) / 2)];
}
