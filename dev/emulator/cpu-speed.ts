/**
 * The CPU time the modelled clock charges, at a fixed reference speed rather than at whatever speed
 * the machine's cores run at the moment.
 *
 * CPU time (cpuTimeMs) leaves out the time a process spends off the CPU, but not the time the same
 * work takes longer on a loaded machine: two cores that are hardware threads of one physical core,
 * or share its caches and memory bandwidth, run the same instructions slower while the sibling is
 * busy. Measured with the floors group of the benchmarks (bench/floors.ts) quiet and beside two CPU
 * burners, CPU time alone: the warm LP_GET over 10,000 ids and the warm LP_FILTER (about 0.15 s of
 * pure CPU each) read 23 % more beside the burners; the fastest of several runs cannot remove a
 * load that lasts the whole run.
 *
 * So the clock measures the machine's speed alongside the work, with a calibration task of the
 * same kind as the add-in's (REFERENCE_TASK: parsing a JSON answer of partner records, indexing,
 * filtering, sorting and projecting them to rows), and charges each stretch of CPU time scaled by
 * REFERENCE_TASK_MS over what the task takes now: CPU time at the speed of the reference record,
 * however busy the machine is. The task is run again, interleaved with the measured work, whenever
 * CALIBRATE_EVERY_CPU_MS of CPU time or CALIBRATE_EVERY_WALL_MS of wall time have passed since the
 * last calibration (the emulator can only do it between two of the script's service calls); a
 * stretch is scaled by the mean of the speeds measured at its two ends.
 *
 * A calibration is the mean of several runs of the task (calibrationRuns: more after a longer
 * stretch, so that the speed after it is sampled over a time of the same order), the slowest fifth
 * of them (in whole runs) left out: a run the collector or an interrupt lands in says nothing of
 * the core's speed. Not the fastest run, nor the median: the load of a shared machine comes and
 * goes within milliseconds (a neighbour's process runs, then sleeps), the work runs through both,
 * and the fastest of a few runs would read the quiet moments alone, the median the more frequent
 * state alone (measured: the median of runs after a warm-up run held the floors group within 5 %
 * beside two burners in 48 of 56 figures, the mean in 53). Its own CPU time is never charged.
 *
 * The clock is per thread (each module instance keeps its own): the main thread's serves the
 * executions run here and every job of a concurrent wave (concurrent.ts scales the compute a job's
 * worker reports with referenceMs, at the moment the job hands back).
 */

/**
 * The raw CPU time (ms) of this process, which referenceCpuMs scales to the reference speed for the
 * modelled clock: user and system (getrusage, microseconds). It counts every thread of the process, which is what
 * the emulator wants as long as one thread computes at a time, and it does: a sequential run
 * computes on the main thread while the fetch thread waits (a fetch under the model is charged its
 * modelled cost in place of everything spent during it, url-fetch.ts), and a concurrent wave lets
 * one job compute at a time (concurrent.ts) while the main thread and the other jobs' threads wait.
 * It would also count V8's helper threads (garbage collection, background compilation) of every
 * isolate, whenever they happen to run, charged to whichever execution computes then: the
 * benchmarks run without them (SINGLE_THREADED in bench/clock.ts), so that each isolate does that
 * work itself, when its own code needs it. Other processes (the service,
 * whatever else runs on the machine) are not counted at all.
 *
 * Why not one thread's own CPU time: Node 20 has none (process.cpuUsage is getrusage of the whole
 * process, in a worker too; process.threadCpuUsage came in Node 23.9), and Linux's per-thread
 * figures from /proc (…/task/<tid>/schedstat, …/stat) are brought up to date only at the
 * scheduler's tick for a running thread: steps of about 4 ms (stat: 10 ms), too coarse for
 * executions of a few milliseconds.
 */
export function cpuTimeMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** One partner record of the calibration answer. */
interface Row {
  id: string;
  fullName: string;
  firm: string;
  ticketSize: number;
  country: string;
  updatedAt: string;
  tags: string[];
}

const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'SG', 'CA'];

/** The calibration answer: 200 partner records as the service sends them (about 36 KB of JSON). */
const ANSWER = JSON.stringify({
  items: Array.from(
    { length: 200 },
    (_, i): Row => ({
      id: `lp_${(i * 7919).toString(16).padStart(5, '0')}`,
      fullName: `Partner ${String.fromCharCode(65 + ((i * 11) % 26))}${i} Holdings`,
      firm: `Firm ${(i * 13) % 17} Capital`,
      ticketSize: ((i * 104_729) % 50) * 250_000,
      country: COUNTRIES[i % COUNTRIES.length],
      updatedAt: `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
      tags: ['pension', 'family office', 'endowment'].slice(0, 1 + (i % 3)),
    }),
  ),
  page: 1,
  totalItems: 200,
});

/**
 * The calibration task: what the add-in does with an answer, in small. Parse it, index the records
 * by id, keep those over a ticket size, sort by two keys, and project them to rows of cells.
 * Returns a figure of its result so that no part of it can be left out.
 */
export function REFERENCE_TASK(): number {
  const answer = JSON.parse(ANSWER) as { items: Row[] };
  const byId = new Map<string, Row>();
  for (const row of answer.items) byId.set(row.id, row);
  const kept = answer.items.filter((r) => r.ticketSize >= 2_500_000 && byId.has(r.id));
  kept.sort((a, b) => a.country.localeCompare(b.country) || b.ticketSize - a.ticketSize);
  const rows = kept.map((r) => [r.id, r.fullName, r.firm, r.ticketSize, r.tags.join(', '), r.updatedAt.slice(0, 10)]);
  return rows.reduce((n, row) => n + String(row[1]).length + (row[3] as number), 0);
}

/**
 * The CPU time (ms) REFERENCE_TASK takes at the reference speed: the speed every charge is scaled
 * to, the task's when no neighbour slows its core. Measured on the two-core machine the benchmarks
 * run on (AMD EPYC, two vCPUs under KVM), 200 measurements a process (each the fastest of five
 * runs), several processes: they fall in two groups, 0.201 to 0.21 ms and 0.33 to 0.39 ms, the
 * second whenever the other core is busy (beside two CPU burners the median is 0.34 to 0.35 ms;
 * with the other core mostly idle, 0.206 to 0.209). The scaling is by work of the same kind, not
 * the same work: measured in turns in one process, the warm LP_FILTER's CPU time grew 11 % beside
 * two burners where the task's median run grew 35 %.
 */
export const REFERENCE_TASK_MS = 0.21;

/** Runs of the task a calibration takes at least, and at most. */
export const CALIBRATION_RUNS = { least: 3, most: 25 };
/** CPU time (ms) charged between two calibrations at most, when the work runs on. */
export const CALIBRATE_EVERY_CPU_MS = 10;
/** Wall time (ms) after which a calibration is stale (the load may have changed meanwhile). */
export const CALIBRATE_EVERY_WALL_MS = 50;

/** The last figure of the task (kept, so that its work cannot be left out). */
export let taskFigure = 0;

/** Runs of the task after a stretch of `rawMs` of CPU time: one for each 2 ms of it, within CALIBRATION_RUNS. */
export function calibrationRuns(rawMs: number): number {
  return Math.min(CALIBRATION_RUNS.most, Math.max(CALIBRATION_RUNS.least, Math.round(rawMs / 2)));
}

/** The CPU time (ms) the calibration task takes now: the mean of `runs` runs, the slowest fifth (in whole runs) left out. */
export function measureReferenceTask(runs = CALIBRATION_RUNS.least): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = cpuTimeMs();
    taskFigure = REFERENCE_TASK();
    times.push(cpuTimeMs() - start);
  }
  times.sort((a, b) => a - b);
  const kept = times.slice(0, Math.max(1, Math.ceil(runs * 0.8)));
  // getrusage counts in microseconds; runs it saw as 0 took under one.
  return Math.max(kept.reduce((a, b) => a + b, 0) / kept.length, 0.001);
}

/** The state of this thread's reference clock. */
interface Calibration {
  /** Reference ms a CPU ms is worth now (REFERENCE_TASK_MS over the task's time). */
  scale: number;
  /** Raw CPU time and wall time of the last calibration. */
  cpuAt: number;
  wallAt: number;
}

let calibration: Calibration | undefined;
/** Raw CPU time at the last reading of referenceCpuMs (calibrations move it on by their own time). */
let rawSeen: number | undefined;
let referenceTotal = 0;

function calibrate(afterMs = 0): Calibration {
  const start = cpuTimeMs();
  if (!calibration) {
    // The first runs compile the task (V8's tiers): not the machine's speed.
    for (let i = 0; i < 200; i++) taskFigure = REFERENCE_TASK();
  }
  const scale = REFERENCE_TASK_MS / measureReferenceTask(calibrationRuns(afterMs));
  const end = cpuTimeMs();
  if (rawSeen !== undefined) rawSeen += end - start;
  calibration = { scale, cpuAt: end, wallAt: performance.now() };
  return calibration;
}

/**
 * `rawMs` of CPU time just spent, in reference ms: scaled by the mean of the speed measured before
 * it and the speed now, calibrating now when the last calibration is due (CALIBRATE_EVERY_CPU_MS,
 * CALIBRATE_EVERY_WALL_MS). The calibration's own CPU time is never charged: referenceCpuMs leaves
 * it out, and a caller that measures raw CPU time itself reads it before calling this.
 */
export function referenceMs(rawMs: number): number {
  const last = calibration ?? calibrate();
  const due =
    cpuTimeMs() - last.cpuAt >= CALIBRATE_EVERY_CPU_MS || performance.now() - last.wallAt >= CALIBRATE_EVERY_WALL_MS;
  if (!due) return rawMs * last.scale;
  const now = calibrate(rawMs);
  return (rawMs * (last.scale + now.scale)) / 2;
}

/**
 * This thread's CPU time in reference ms (a clock: only differences mean anything): each stretch of
 * raw CPU time since the last reading scaled by referenceMs, the calibrations' own CPU time left
 * out. What the modelled clock charges an execution's own work (Execution.useModelledClock).
 */
export function referenceCpuMs(): number {
  const raw = cpuTimeMs();
  if (rawSeen === undefined) {
    rawSeen = raw;
    return referenceTotal;
  }
  const stretch = raw - rawSeen;
  rawSeen = raw;
  referenceTotal += referenceMs(stretch);
  return referenceTotal;
}

/** The scale of the last calibration (reference ms a CPU ms is worth), for reports and tests. */
export function currentScale(): number {
  return (calibration ?? calibrate()).scale;
}
