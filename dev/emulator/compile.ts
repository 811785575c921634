import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import vm from 'node:vm';
import { tokenizer, tokTypes } from 'acorn';
import { cpuTimeMs } from './cpu-speed';
import type { Execution } from './execution';

/**
 * Bytes of code V8 compiles in a millisecond of CPU, bytes of string literal (or template text) it
 * scans in one, and bytes of comment it skips in one: V8 parses code into functions (pre-parsing
 * the bodies it leaves for later), builds a string for a literal, and only looks for the end of a
 * comment. The rates at which every execution is charged its script's compilation (compileMs), and
 * a text the script compiles later (`eval`) its own, in the execution that compiles it.
 *
 * Measured with measureLoad (the median of 25 fresh compilations, each text in a process of its
 * own, three processes a text) on the two-core machine the benchmarks run on, quiet (load about 5
 * from other work) and beside two CPU burners, on texts cut from the bundle (scannedBytes tells
 * the kinds of bytes apart):
 * - its plain code with the deferred parts left out (49.5 KB of code, 10.8 KB of literals, 7.9 KB
 *   of comments): 2.5 to 4.0 ms, median 3.45 (about 15,000 bytes of code a ms);
 * - the deferred parts as string literals (86.3 KB): 0.85 to 1.10 ms, median 0.92 (78,000 to
 *   101,000 a ms);
 * - the same as comments (84.3 KB): 0.32 to 0.56 ms, median 0.40 (150,000 to 263,000 a ms);
 * - the bundle before it was split (113.8 KB of code, 28.8 KB of literals): 5.2 to 8.0 ms, which
 *   these rates put at 8.0 ms.
 * Each rate is the median's or slower, so that the model is not kinder than this machine (Apps
 * Script's own machines cannot be measured).
 */
export const CODE_BYTES_PER_MS = 15_000;
export const LITERAL_BYTES_PER_MS = 80_000;
export const COMMENT_BYTES_PER_MS = 150_000;

/** Recent answers of compileMs by source: tokenizing a bundle takes tens of ms, and every emulator of a test charges the same one. */
const charges = new Map<string, number>();

/** The bytes of a script inside string literals (and template text) and inside comments (acorn's tokenizer tells them from code). */
export function scannedBytes(source: string): { literal: number; comment: number } {
  const out = { literal: 0, comment: 0 };
  const bytes = (start: number, end: number) => Buffer.byteLength(source.slice(start, end));
  const tokens = tokenizer(source, {
    ecmaVersion: 'latest',
    onComment: (_block, _text, start, end) => {
      out.comment += bytes(start, end);
    },
  });
  for (const token of tokens) {
    if (token.type === tokTypes.string || token.type === tokTypes.template)
      out.literal += bytes(token.start, token.end);
  }
  return out;
}

/**
 * What compiling this script costs each execution that compiles it (ms): its code at
 * CODE_BYTES_PER_MS, its literals at LITERAL_BYTES_PER_MS and its comments at
 * COMMENT_BYTES_PER_MS. Apps Script compiles the project's files in every execution before it
 * runs them, so every execution is charged this (Execution.compiled); a text the script compiles
 * itself (the bundle's deferred parts, by an indirect `eval`) is charged it in the execution that
 * compiles it (ScriptCompiler). A model rather than a measurement, as a request's latency is: one
 * compilation of the same text takes from one to two times as long here depending on what else
 * the machine runs, and a benchmark figure must repeat on a busy machine. The running of the
 * script's code stays charged at the CPU time it takes. measureLoad gives the measured figures.
 */
export function compileMs(source: string): number {
  let ms = charges.get(source);
  if (ms === undefined) {
    const { literal, comment } = scannedBytes(source);
    const code = Buffer.byteLength(source) - literal - comment;
    ms = code / CODE_BYTES_PER_MS + literal / LITERAL_BYTES_PER_MS + comment / COMMENT_BYTES_PER_MS;
    if (charges.size >= 16) charges.delete(charges.keys().next().value as string);
    charges.set(source, ms);
  }
  return ms;
}

/** The name a text compiled by `eval` gives its frames (its `//# sourceURL`), else "eval". */
export function scriptName(text: string): string {
  return /\/\/# sourceURL=(\S+)\s*$/.exec(text)?.[1] ?? 'eval';
}

/**
 * Charges an execution the compilation of a text its script compiled (an indirect `eval`, realm.ts):
 * compileMs of the text, the time the host spent compiling it being left out by the host. A
 * concurrent execution's worker thread reaches it as a service (concurrent.ts, job-worker.mjs).
 */
export class ScriptCompiler {
  constructor(private readonly exec: Execution) {}

  charge(text: string): void {
    const ms = this.exec.uncharged(() => compileMs(text));
    this.exec.compiled(ms, scriptName(text));
  }
}

let compiles = 0;

/**
 * Fresh loads the measured figures of a script are the medians of (measureLoad). One load of the
 * bundle's top level is about a third of a ms, and the median of 25 moves by up to a quarter
 * between processes (measured on the two-core machine the benchmarks run on: 0.30 to 0.39 ms,
 * three in each of five processes). The median of 201 moved less (0.341 to 0.354 ms in five quiet
 * processes, 0.355 to 0.375 ms in four beside two CPU burners), but V8 keeps every text it
 * compiled for the life of the process: 201 loads of the bundle left 66 MB more resident than 25
 * did.
 */
export const LOAD_SAMPLES = 25;

/**
 * The CPU time (ms) V8 takes to compile this script afresh and to run its top-level code in a
 * fresh context (an ordinary global object, as realm.ts makes): the medians of `samples` tries,
 * each try compiles a text new to V8 (V8 keeps a
 * compiled script for its text for the life of the process, so the same text would cost nothing
 * the second time). What the benchmarks report beside the bundle's size, on `clock` (raw CPU
 * time, cpu-speed.ts cpuTimeMs, unless told).
 */
export function measureLoad(
  source: string,
  samples = LOAD_SAMPLES,
  clock: () => number = cpuTimeMs,
): { compileMs: number; evaluateMs: number } {
  const compile: number[] = [];
  const evaluate: number[] = [];
  for (let i = 0; i < samples; i++) {
    const context = vm.createContext(vm.constants.DONT_CONTEXTIFY);
    const start = clock();
    compiles++;
    const script = new vm.Script(`${source}\n//# compilation ${compiles}`, { filename: 'Code.js' });
    const compiled = clock();
    try {
      script.runInContext(context);
    } catch {
      // A top level that calls a service stops there in a bare context: what it ran until then is its own code.
    }
    evaluate.push(clock() - compiled);
    compile.push(compiled - start);
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return { compileMs: median(compile), evaluateMs: median(evaluate) };
}

/**
 * The rates of evaluateMs: characters of code a script's top level runs for the first time a ms,
 * and runs of a character after its first a ms. A first run costs what V8 does the first time
 * code runs (feedback vectors, closures, the first call of each function, the shapes of the
 * objects it builds), a repeat only the interpreter's step. Measured (measureLoad, medians of 25
 * fresh loads at the reference speed, several processes, quiet and beside two CPU burners) on the
 * two-core machine the benchmarks run on:
 * - a top level that builds a table of 200,000 squares in a loop (56 characters of code run, and
 *   3.6 million runs again): 7.7 to 8.2 ms, median about 7.8, so about 460,000 repeats a ms;
 * - the bundle's top level, mostly its modules' own statements (declarations, tables, classes;
 *   2,684 characters run, 1,891 runs again): 0.34 to 0.39 ms, median about 0.355, so about 7,650
 *   first runs a ms.
 * Each rate is the median's or slower, so that the model is not kinder than this machine: 0.36 ms
 * for the bundle, 8.0 ms for the loop.
 */
export const FIRST_RUN_CHARS_PER_MS = 7_500;
export const REPEAT_CHARS_PER_MS = 450_000;

/** What topLevelRun counts in a script's one load (V8's coverage of it). */
export interface TopLevelRun {
  /** Characters of code that ran at least once. */
  first: number;
  /** The runs after the first of each character of code, summed. */
  repeated: number;
  /** Whether the top level threw (one that calls a service does in a bare context). */
  threw: boolean;
}

/** A range of V8's block coverage: `count` runs of the characters from `startOffset` to `endOffset`, but where a range inside it says otherwise. */
interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}

/** topLevelRun by source: counted once a process. */
const runs = new Map<string, TopLevelRun>();

/**
 * How much code the top level of this script runs, as V8 counts it: one load in a fresh context,
 * in a process of its own (top-level-coverage.mjs) with V8's precise block coverage on. Each
 * character takes the count of the innermost range around it (a block, a function, the script).
 * Only the characters of tokens are code: not whitespace, comments or the insides of string
 * literals (acorn's tokenizer tells them apart), and a function the top level only declares runs
 * none of its body. A count, not a time: the same for the same script however busy the machine is.
 * A top level that throws is counted as though the block it threw in ran to its end (V8 counts a
 * block, not each statement): more than it ran, never less.
 */
export function topLevelRun(source: string): TopLevelRun {
  const known = runs.get(source);
  if (known) return known;
  const child = spawnSync(process.execPath, [join(__dirname, 'top-level-coverage.mjs')], {
    input: source,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (child.status !== 0)
    throw new Error(`Counting the code a top level runs failed: ${child.error?.message ?? child.stderr.trim()}`);
  const { ranges, threw } = JSON.parse(child.stdout) as { ranges: CoverageRange[]; threw: boolean };
  const counts = new Float64Array(source.length);
  // Outer ranges first, so that each inner one writes over them.
  ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  for (const r of ranges) counts.fill(r.count, r.startOffset, Math.min(r.endOffset, source.length));
  const run: TopLevelRun = { first: 0, repeated: 0, threw };
  for (const token of tokenizer(source, { ecmaVersion: 'latest' })) {
    if (token.type === tokTypes.string || token.type === tokTypes.template) continue;
    for (let i = token.start; i < token.end; i++) {
      if (counts[i] === 0) continue;
      run.first++;
      run.repeated += counts[i] - 1;
    }
  }
  if (runs.size >= 16) runs.delete(runs.keys().next().value as string);
  runs.set(source, run);
  return run;
}

/**
 * What running this script's top-level code costs each execution under a clock model (ms): the
 * code it runs (topLevelRun) at FIRST_RUN_CHARS_PER_MS for its first run and REPEAT_CHARS_PER_MS
 * for the rest. Apps Script compiles and runs the file afresh in every execution; the emulator
 * compiles it once and runs the same compiled script in each execution's context, where V8 has
 * already compiled and run the functions the top level calls, so the time one execution's run
 * takes here is less than a fresh load's (kinder than Google). A model rather than a measurement,
 * as compileMs is: a fresh load of the bundle's top level is a third of a ms, and its median of 25
 * moved by a quarter between processes and by 4 % more beside two CPU burners, where a benchmark
 * figure must repeat. measureLoad gives the measured figure, which the benchmarks report beside it.
 */
export function evaluateMs(source: string): number {
  const { first, repeated } = topLevelRun(source);
  return first / FIRST_RUN_CHARS_PER_MS + repeated / REPEAT_CHARS_PER_MS;
}
