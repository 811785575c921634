/**
 * `npm run bench`: every benchmark against the reference service in a child process with
 * injected latency, each figure beside its naive baseline from the same run, each group in a
 * process of its own (groups.ts). Writes bench/results.json and prints tables. `--quick` is the
 * smoke version `npm test` runs (small sizes, no timing claims). `--latency MS` changes the
 * injected latency (default 100). `--only GROUPS` (of groups.ts GROUPS, comma-separated) runs only
 * those groups (the others are left out of the output, and bench/results.json keeps their previous figures). `--seeds 1-8` (or
 * `1,5,9`) picks the service's fault seeds of the rate-limited import (default 1-8).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readOptions, runMain, UsageError } from '../dev/cli-args';
import { builtParts } from '../scripts/build-lib';
import { compileMs, evaluateMs, LOAD_SAMPLES, measureLoad } from '../dev/emulator/compile';
import { referenceCpuMs } from '../dev/emulator/cpu-speed';
import { rerunSingleThreaded, singleThreaded } from './clock';
import { GROUPS, type Group, type GroupOptions, groupInChild } from './groups';

export interface BenchOptions extends GroupOptions {
  /** Groups to run (all when absent). */
  only?: readonly Group[];
}

/** The bundle's figures, measured here, then each group's, each group in a process of its own (groups.ts). */
export async function runBench(o: BenchOptions): Promise<Record<string, unknown>> {
  const bundle = join(__dirname, '../dist/Code.js');
  const bundleKb = Math.round((statSync(bundle).size / 1024) * 10) / 10;
  // The deferred parts, HTML files beside it (scripts/build-lib.ts, packedPart): read and compiled only where an execution first needs one.
  const partBytes = Object.values(builtParts(dirname(bundle))).reduce((n, p) => n + Buffer.byteLength(p), 0);
  // Measured (CPU time at the reference speed, cpu-speed.ts; medians of LOAD_SAMPLES): what the modelled clock charges instead is compile.ts's (compileMs, evaluateMs).
  const source = readFileSync(bundle, 'utf8');
  const load = measureLoad(source, LOAD_SAMPLES, referenceCpuMs);
  const out: Record<string, unknown> = {
    date: new Date().toISOString(),
    quick: o.quick,
    latencyMs: o.latencyMs,
    bundleKb,
    partsKb: Math.round((partBytes / 1024) * 10) / 10,
    bundleCompileMs: Math.round(load.compileMs * 100) / 100,
    bundleEvaluateMs: Math.round(load.evaluateMs * 100) / 100,
    bundleChargedMs: Math.round(compileMs(source) * 100) / 100,
    bundleEvaluateChargedMs: Math.round(evaluateMs(source) * 100) / 100,
  };
  const { quick, latencyMs, scale, seeds } = o;
  for (const group of GROUPS)
    if (!o.only || o.only.includes(group))
      out[group] = groupInChild(group, { quick, latencyMs, scale, ...(seeds ? { seeds } : {}) });
  return out;
}

/** What each group measures, for `--help` (docs/benchmarks.md has the figures). */
const GROUP_HELP: Record<Group, string> = {
  formulas: 'custom functions over a range, cold and warm',
  sheetScale: 'fill-down and thousands of ids',
  refresh: 'Refresh all formulas',
  imports: 'imports of every active partner',
  filtered: 'imports with filters and sort',
  match: 'LP_MATCH',
  scaling: 'import scaling (--scale sizes)',
  service: 'the reference service alone',
  rateLimited: 'imports against a rate-limited service (--seeds)',
  floors: 'each formula and import case beside its floor (the same requests, no add-in code)',
  bigImport: 'the largest list: about 160,000 active partners, two fields',
};

export const USAGE = `npm run bench -- [options]
  --only GROUPS       run only these groups, comma-separated; bench/results.json keeps the others' figures
  --quick             the smoke version npm test runs: small sizes, nothing written, no timing claims
  --latency MS        latency injected into the reference service (default 100)
  --scale N,N,...     partner counts of the scaling group (default 1000,10000,50000,100000; 300 with --quick)
  --seeds 1-8         fault seeds of the rate-limited import (a range, or a list such as 1,5,9; default 1-8)
  --help              this list
Groups:
${GROUPS.map((g) => `  ${g.padEnd(18)}  ${GROUP_HELP[g]}`).join('\n')}`;

if (require.main === module && !singleThreaded()) process.exit(rerunSingleThreaded());
if (require.main === module) {
  runMain(async () => {
    const values = readOptions(
      process.argv.slice(2),
      ['latency', 'scale', 'only', 'seeds'],
      ['quick'],
      USAGE,
      'npm run bench',
    ) as {
      quick?: boolean;
      latency?: string;
      scale?: string;
      only?: string;
      seeds?: string;
    };
    const quick = !!values.quick;
    const scale = (values.scale ?? (quick ? '300' : '1000,10000,50000,100000')).split(',').map(Number);
    const only = values.only?.split(',').map((g) => g.trim());
    const unknown = only?.filter((g) => !(GROUPS as readonly string[]).includes(g));
    if (unknown?.length)
      throw new UsageError(`--only: unknown group ${unknown.join(', ')} (groups: ${GROUPS.join(', ')})`);
    const seeds = values.seeds?.split(',').flatMap((part) => {
      const [from, to = from] = part.split('-').map(Number);
      if (!Number.isInteger(from) || !Number.isInteger(to) || to < from)
        throw new UsageError(`--seeds: ${part} is not a seed or a range like 1-8`);
      return Array.from({ length: to - from + 1 }, (_, k) => from + k);
    });
    await runBench({
      quick,
      latencyMs: Number(values.latency ?? 100),
      scale,
      only: only as Group[] | undefined,
      seeds,
    }).then((r) => {
      console.log(
        `bundle dist/Code.js: ${r.bundleKb} KB (loaded on every custom-function call; ${r.partsKb} KB more in the parts it compiles on first use), compiled in ${r.bundleCompileMs} ms (charged ${r.bundleChargedMs} ms) and evaluated in ${r.bundleEvaluateMs} ms (charged ${r.bundleEvaluateChargedMs} ms); injected latency ${r.latencyMs} ms`,
      );
      for (const key of GROUPS) if (Array.isArray(r[key]) && (r[key] as unknown[]).length) console.table(r[key]);
      if (quick) return;
      // A subset run keeps the figures of the groups it did not run.
      const path = join(__dirname, 'results.json');
      const previous =
        only && existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {};
      writeFileSync(path, `${JSON.stringify({ ...previous, ...r }, null, 2)}\n`);
    });
  });
}
