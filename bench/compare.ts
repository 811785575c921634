/**
 * `npx tsx bench/compare.ts BEFORE.json AFTER.json [--tolerance 5]`: two runs of `npm run bench`
 * (bench/results.json) side by side, figure by figure, by group and case, and how far apart each
 * pair is. What the modelled clock promises is that a figure repeats however busy the machine is
 * (bench/clock.ts), so two runs, one of them beside CPU burners, should agree within the tolerance.
 * Left out: what the modelled clock does not charge and that no benchmark claims repeats: wall time,
 * memory, the machine's own measurements (MEASURED), and the reference service's own speed (its
 * group measures a real HTTP server). A
 * percentage beside a baseline (`addedPercent`) is compared as the ratio it stands for (1 + p/100).
 * `--only floors,bundle` compares those groups alone (a run of `--only floors` keeps the other
 * groups' earlier figures). Exits 1 when a figure is outside the tolerance, or a case is in one run only.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runMain, UsageError } from '../dev/cli-args';

/** A figure of a case that no run can be expected to repeat. */
const UNCHARGED = /wall|Mb$|memory|perSecond/i;
/**
 * Figures the benchmarks measure on this machine beside what the clock charges, never charged
 * themselves: the bundle's compilation and top-level run as V8 takes them here (the clock charges
 * compileMs's model and evaluateMs's figure instead: bundleChargedMs, bundleEvaluateChargedMs), and
 * the CPU time of the whole emulator process through a filtered import (its fetch worker's real
 * HTTP included; the import's charged time is emulatedMs, what filtering adds to it addedPercent).
 */
const MEASURED = new Set(['bundleCompileMs', 'bundleEvaluateMs', 'cpuMs', 'addedCpuPercent']);
/** Groups whose figures are real time by design. */
const REAL_TIME_GROUPS = new Set(['service']);
/** Top-level keys that are the run's settings, not figures. */
const SETTINGS = new Set(['date', 'quick', 'latencyMs']);

export interface Difference {
  group: string;
  case: string;
  figure: string;
  before: number;
  after: number;
  /** (after − before) / before, in per cent. */
  percent: number;
}

type Results = Record<string, unknown>;
type Case = Record<string, unknown>;

const comparable = (key: string, v: unknown): v is number =>
  typeof v === 'number' && !UNCHARGED.test(key) && !MEASURED.has(key);
const asRatio = (key: string, v: number) => (key.endsWith('Percent') ? 1 + v / 100 : v);

function percent(key: string, before: number, after: number): number {
  const a = asRatio(key, before);
  const b = asRatio(key, after);
  if (a === b) return 0;
  return a === 0 ? Number.POSITIVE_INFINITY : ((b - a) / Math.abs(a)) * 100;
}

/** The name a case is known by in its group: its `name`, else its partner count, else its place. */
function caseName(c: Case, i: number): string {
  if (typeof c.name === 'string') return c.name;
  if (typeof c.partners === 'number') return `${c.partners} partners`;
  return `#${i + 1}`;
}

/** Every figure the two runs share, and the cases only one of them has (as `missing`). */
export function compareResults(
  before: Results,
  after: Results,
  only?: ReadonlySet<string>,
): { differences: Difference[]; missing: string[] } {
  const differences: Difference[] = [];
  const missing: string[] = [];
  for (const [key, value] of Object.entries(before)) {
    if (SETTINGS.has(key) || !comparable(key, value) || (only && !only.has('bundle'))) continue;
    const other = after[key];
    if (typeof other === 'number')
      differences.push({
        group: 'bundle',
        case: 'dist/Code.js',
        figure: key,
        before: value,
        after: other,
        percent: percent(key, value, other),
      });
  }
  for (const [group, cases] of Object.entries(before)) {
    if (!Array.isArray(cases) || REAL_TIME_GROUPS.has(group) || (only && !only.has(group))) continue;
    const others = after[group];
    if (!Array.isArray(others)) continue;
    const byName = new Map((others as Case[]).map((c, i) => [caseName(c, i), c]));
    (cases as Case[]).forEach((c, i) => {
      const name = caseName(c, i);
      const o = byName.get(name);
      byName.delete(name);
      if (!o) {
        missing.push(`${group}: ${name} (before only)`);
        return;
      }
      for (const [figure, v] of Object.entries(c)) {
        const w = o[figure];
        if (comparable(figure, v) && typeof w === 'number')
          differences.push({ group, case: name, figure, before: v, after: w, percent: percent(figure, v, w) });
      }
    });
    for (const name of byName.keys()) missing.push(`${group}: ${name} (after only)`);
  }
  return { differences, missing };
}

const USAGE = `npx tsx bench/compare.ts BEFORE.json AFTER.json [--tolerance PERCENT]
  compares two bench/results.json figure by figure (wall time, memory and the service group left out)
  --tolerance PERCENT  how far apart two figures may be (default 5)
  --only GROUPS        compare only these groups, comma-separated ("bundle": the bundle's own figures)`;

if (require.main === module) {
  runMain(async () => {
    let parsed: { values: { tolerance?: string; only?: string }; positionals: string[] };
    try {
      parsed = parseArgs({
        options: { tolerance: { type: 'string' }, only: { type: 'string' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (e) {
      throw new UsageError(`${(e as Error).message}\n${USAGE}`);
    }
    const { values, positionals: files } = parsed;
    if (files.length !== 2) throw new UsageError(`two results files, not ${files.length}\n${USAGE}`);
    const tolerance = Number(values.tolerance ?? 5);
    if (!(tolerance >= 0)) throw new UsageError(`--tolerance: ${values.tolerance} is not a percentage`);
    const [before, after] = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Results);
    const only = values.only === undefined ? undefined : new Set(values.only.split(',').map((g) => g.trim()));
    const { differences, missing } = compareResults(before, after, only);
    const outside = differences.filter((d) => !(Math.abs(d.percent) <= tolerance));
    let group = '';
    for (const d of differences) {
      if (d.group !== group) console.log(`\n${(group = d.group)}`);
      const mark = outside.includes(d) ? '  OUTSIDE' : '';
      const pct = Number.isFinite(d.percent) ? `${d.percent >= 0 ? '+' : ''}${d.percent.toFixed(1)} %` : 'from 0';
      console.log(`  ${d.case} | ${d.figure}: ${d.before} → ${d.after} (${pct})${mark}`);
    }
    for (const m of missing) console.log(`missing: ${m}`);
    console.log(
      `\n${differences.length - outside.length} of ${differences.length} figures within ${tolerance} %` +
        (outside.length
          ? `; outside: ${outside.map((d) => `${d.group} / ${d.case} / ${d.figure} ${d.percent.toFixed(1)} %`).join('; ')}`
          : ''),
    );
    if (outside.length || missing.length) process.exitCode = 1;
  });
}
