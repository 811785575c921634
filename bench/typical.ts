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

/**
 * Processes a repeated case's runs are spread over, a third of them in each (groups.ts runs such a
 * group PROCESSES times, each in a process of its own, and reports case by case the process whose
 * figure is the median: processMedian). A process moves all its runs together: the code V8
 * compiled and the heap it grew are its own, and they set the pace of every run in it. Two quiet
 * runs of the bench, each the median of 81 runs in one process, read the floors' warm LP_FILTER at
 * 168 and 182 ms; the medians of 27 runs read 135.5 to 142.8 ms in eight processes on the machine
 * the benchmarks run on now, four quiet and four beside two CPU burners, with no difference between
 * the two kinds. The median of three processes of 27 runs leaves out the process that strays most,
 * where 81 runs in one keep it: two runs of the bench, one beside two burners, then agreed within
 * 2.4 % on every case the four groups repeat. The cases such a group runs once (its baselines and
 * floors) run in each process too, so that every case is the median process's: the bench takes
 * a few minutes more.
 */
export const PROCESSES = 3;

/**
 * The groups (groups.ts GROUPS) whose cases are medians of repeated runs of a few hundred ms of CPU
 * time or less (warm formulas, LP_MATCH) beside runs of longer ones: each runs in PROCESSES
 * processes. The others repeat nothing, or repeat whole imports of seconds each (filtered), where
 * one process's pace moves a figure less than the 5 % two runs of the bench are held to.
 */
export const SPREAD = ['formulas', 'sheetScale', 'match', 'floors'] as const;

/** Runs of a repeated formula case (a few seconds each, cold), PROCESSES processes' worth: an odd number a process, so that its median is a run. */
export const RUNS = 9;
/**
 * Warm runs after each cold one. A warm figure is a few dozen to a few hundred ms of CPU time, which
 * one run of it moves by up to ±20 %; the medians of nine (one a round) differed by 7 to 11 % between
 * a quiet and a loaded run. Measured with the warm LP_GET over 1,000 ids (about 50 ms), thirty runs
 * a process: the median of 30 read 46 to 53 ms in four quiet processes; the medians of 120 read
 * 48.7 to 49.6 ms in three quiet processes and 50.1 to 52.3 ms in three beside two CPU burners
 * (3.7 % more on average: the load's part, which more runs do not take out). With the warm LP_GET
 * over 10,000 ids (about 115 ms, one run 92 to 190 ms), the median of 27 runs read 113.8 to
 * 119.6 ms in eleven processes, seven quiet and four beside two burners, and four runs of the bench
 * at nine a round (81 in all) read 114 and 118 quiet, 119 and 121 beside the burners: the sample
 * alone moves a median of 27 by up to 5 %. Twenty-seven a round make 81 a process and 243 in all,
 * for about the price of six cold runs a round. A warm figure also depends on what its process ran
 * before it: the sheet-scale group's warm LP_GET over 10,000 distinct ids, run in one process at
 * 27 a round, read 117 to 119 ms alone or after the 5,000-id case, but 125 to 129 ms after both the
 * 2,000- and the 5,000-id cases (115 to 116 ms after them at nine a round). So the bench's figure
 * went from 114 to 133 ms with 27 a round, where two runs of the bench at 27 agreed within 1.5 %.
 */
export const WARM_RUNS = 27;
/** Runs of a case of a few hundred ms of CPU time run the same way every time (LP_MATCH over a warm snapshot): as many as a warm formula's. */
export const SHORT_RUNS = RUNS * WARM_RUNS;
/** Runs of a repeated fill-down (a wave of 1,000 executions, several seconds of wall time each, its figure a sum over them): one a process. */
export const WAVE_RUNS = PROCESSES;
/** Runs of a repeated import (10,045 or 50,205 partners, several seconds each): one a process. */
export const IMPORT_RUNS = PROCESSES;

/** How many processes this one shares its group's runs with (groups.ts sets it before the group runs). */
let sharing = 1;

/** Spreads the runs of this process's group over `processes` processes (1: all of them here). */
export function shareRuns(processes: number): void {
  if (!Number.isInteger(processes) || processes < 1) throw new Error(`Cannot share runs over ${processes} processes.`);
  sharing = processes;
}

/** This process's part of `total` runs of a case (RUNS, SHORT_RUNS, WAVE_RUNS, IMPORT_RUNS). */
export function runsHere(total: number): number {
  const here = total / sharing;
  if (!Number.isInteger(here) || here % 2 === 0)
    throw new Error(`${total} runs do not share into an odd number a process over ${sharing} processes.`);
  return here;
}

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

/** The charged time a figure is ranked by: `ms` (the floors) or `emulatedMs` (the other groups). */
function chargedMs(figure: unknown, group: string, i: number): number {
  const f = figure as { ms?: unknown; emulatedMs?: unknown };
  const ms = typeof f.ms === 'number' ? f.ms : f.emulatedMs;
  if (typeof ms !== 'number') throw new Error(`Case ${i + 1} of the ${group} group has no charged time to rank by.`);
  return ms;
}

/**
 * A group's figures run in several processes (each with its share of the runs, runsHere), case by
 * case the process figure at the median charged time: every figure of a case from the same
 * process, which measured it. The processes must report the same cases in the same order.
 */
export function processMedian(group: string, processes: readonly (readonly unknown[])[]): unknown[] {
  if (processes.length === 0) throw new Error(`The ${group} group ran in no process.`);
  const [first] = processes;
  const name = (f: unknown) => (f as { name?: unknown }).name;
  for (const other of processes)
    if (other.length !== first.length || other.some((f, i) => name(f) !== name(first[i])))
      throw new Error(`The ${group} group's processes reported different cases.`);
  return first.map((_, i) =>
    median(
      processes.map((p) => p[i]),
      (f) => chargedMs(f, group, i),
    ),
  );
}
