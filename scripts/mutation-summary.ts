/**
 * Writes docs/mutation.md from the JSON report of the last `npm run mutate` (StrykerJS, written to
 * reports/mutation/mutation.json): the mutation score per folder and per file, every surviving or
 * uncovered mutant by place (each is a rule no unit test guards), and every surviving mutant
 * test/mutation/equivalent.json lists as equivalent (no caller can tell it from the code), with
 * the reason given there (an entry with `killedBy` is a mutant a test kills out of Stryker's sight,
 * counted as killed and named apart); an entry that matches no surviving mutant is named too, so the list
 * cannot go stale unseen. Generated, so the page says what the last run found and nothing else.
 * `tsx scripts/mutation-summary.ts [report] [out]`; exits non-zero when the report is missing.
 */
import { transformSync } from '@swc/core';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Equivalent, readEquivalents } from '../test/mutation/equivalents';

type Status =
  | 'Killed'
  | 'Survived'
  | 'NoCoverage'
  | 'Timeout'
  | 'CompileError'
  | 'RuntimeError'
  | 'Ignored'
  | 'Pending';

interface Mutant {
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  status: Status;
  statusReason?: string;
  static?: boolean;
}

interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
  /** The test files of the run, with the source each test was run from. */
  testFiles?: Record<string, { source?: string }>;
  performance?: { setup: number; initialRun: number; mutation: number };
}

/** Counts of one file or folder; the score is Stryker's: detected (killed or timed out) over valid mutants. */
interface Tally {
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  /** Static mutants left out of a run with --ignoreStatic: not judged yet. */
  notRun: number;
  errors: number;
}

const emptyTally = (): Tally => ({
  killed: 0,
  timeout: 0,
  survived: 0,
  noCoverage: 0,
  ignored: 0,
  notRun: 0,
  errors: 0,
});
/** Stryker's reason for a static mutant it skipped because of --ignoreStatic. */
const notRun = (m: Mutant) => m.status === 'Ignored' && /ignoreStatic/.test(m.statusReason ?? '');

function add(t: Tally, m: Mutant): void {
  const { status } = m;
  if (notRun(m)) t.notRun++;
  else if (status === 'Killed') t.killed++;
  else if (status === 'Timeout') t.timeout++;
  else if (status === 'Survived') t.survived++;
  else if (status === 'NoCoverage') t.noCoverage++;
  else if (status === 'Ignored') t.ignored++;
  else t.errors++;
}

function score(t: Tally): number | undefined {
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  return valid === 0 ? undefined : ((t.killed + t.timeout) / valid) * 100;
}

const pct = (t: Tally) => {
  const s = score(t);
  return s === undefined ? 'n/a' : `${s.toFixed(1)} %`;
};
const row = (name: string, t: Tally) =>
  `| ${name} | ${pct(t)} | ${t.killed} | ${t.timeout} | ${t.survived} | ${t.noCoverage} | ${t.ignored} | ${t.notRun} | ${t.errors} |`;
const HEAD =
  '| | score | killed | timed out | survived | no coverage | equivalent | static, not run | run error |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';

/** One line of source, shortened, for naming what a mutant changed. */
function sourceLine(source: string, line: number): string {
  const text = (source.split('\n')[line - 1] ?? '').trim();
  return text.length > 90 ? `${text.slice(0, 87)}…` : text;
}

const code = (text: string) => `\`${text.replace(/`/g, "'").replace(/\s+/g, ' ').replace(/\|/g, '\\|')}\``;

/** The folders `npm run mutate` covers (stryker.config.mjs). */
const FOLDERS = ['src/api', 'src/table', 'src/import'];

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

function summary(report: Report, root: string, equivalents: readonly Equivalent[]): string {
  const used = new Set<Equivalent>();
  const equivalentOf = (file: string, m: Mutant, line: string) =>
    equivalents.find(
      (e) =>
        e.file === file &&
        e.mutator === m.mutatorName &&
        squash(e.replacement) === squash(m.replacement ?? '') &&
        line.includes(e.line),
    );
  const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b));
  const byFolder = new Map<string, Tally>();
  const total = emptyTally();
  const fileRows: string[] = [];
  const open: string[] = [];
  const equivalent: string[] = [];
  const killedApart: string[] = [];
  for (const [name, file] of files) {
    const t = emptyTally();
    const folder = dirname(name);
    const f = byFolder.get(folder) ?? emptyTally();
    byFolder.set(folder, f);
    const mutants = [...file.mutants].sort(
      (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
    );
    for (const m of mutants) {
      const where = `${name}:${m.location.start.line}`;
      const what = `${m.mutatorName}${m.replacement === undefined ? '' : ` → ${code(m.replacement)}`}`;
      const line = file.source.split('\n')[m.location.start.line - 1] ?? '';
      const same = m.status === 'Survived' || m.status === 'NoCoverage' ? equivalentOf(name, m, line) : undefined;
      if (same) {
        used.add(same);
        const text = `- ${where} ${what} in ${code(sourceLine(file.source, m.location.start.line))}: ${same.why}`;
        for (const tally of [t, f, total]) {
          if (same.killedBy) tally.killed++;
          else tally.ignored++;
        }
        if (same.killedBy) killedApart.push(`${text} (\`${same.killedBy}\`)`);
        else equivalent.push(text);
        continue;
      }
      add(t, m);
      add(f, m);
      add(total, m);
      if (m.status === 'Survived' || m.status === 'NoCoverage') {
        open.push(
          `- ${where} ${m.status === 'NoCoverage' ? '(no test reaches it) ' : ''}${what} in ${code(sourceLine(file.source, m.location.start.line))}`,
        );
      } else if (m.status === 'Ignored' && !notRun(m)) {
        equivalent.push(`- ${where} ${what}: ${m.statusReason ?? 'no reason given'}`);
      }
    }
    fileRows.push(row(name, t));
  }
  const stale = equivalents.filter((e) => !used.has(e) && e.file in report.files);
  const unreported = FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `${folder}/${f}`),
  ).filter((f) => !(f in report.files));
  // A file of types alone compiles to nothing: Stryker has no mutant to plant in it, so no run reports it.
  const typesOnly = unreported.filter((f) => compiledCode(join(root, f)) === 'export{};');
  const unmeasured = unreported.filter((f) => !typesOnly.includes(f));
  // The report holds the source it judged: a file that differs now has figures from before its change.
  const changed = Object.keys(report.files)
    .filter((f) => !existsSync(join(root, f)) || readFileSync(join(root, f), 'utf8') !== report.files[f].source)
    .sort();
  // And the tests it ran: a test added or changed since may kill what the page calls a survivor, or time out.
  // The unit tests stryker.config.mjs runs: test/unit/{api,table,import}, the seed sweeps left out.
  const testsNow = listFiles(
    root,
    'test/unit',
    (f) => /^test\/unit\/(api|table|import)\/.*\.test\.ts$/.test(f) && !f.endsWith('-sweeps.test.ts'),
  );
  const testsThen = report.testFiles ?? {};
  const testsChanged = [
    ...testsNow.filter((f) => f in testsThen && testsThen[f].source !== readFileSync(join(root, f), 'utf8')),
    ...Object.keys(testsThen).filter((f) => !testsNow.includes(f)),
  ].sort();
  // A run lists only the test files that import a file it judged: one it does not list was added
  // since, or reaches none of those files (a part run judges some files only).
  const testsUnlisted = testsNow.filter((f) => !(f in testsThen)).sort();
  const folders = [...byFolder].sort(([a], [b]) => a.localeCompare(b)).map(([name, t]) => row(name, t));
  const perf = report.performance;
  const took = perf
    ? `The run that wrote this page took ${Math.round((perf.setup + perf.initialRun + perf.mutation) / 1000)} s (incremental: only what changed since the run before was tested again).`
    : '';
  return [
    '# Mutation testing',
    '',
    "<!-- Generated by `npm run mutate` (scripts/mutation-summary.ts) from StrykerJS's JSON report. Do not edit by hand. -->",
    '',
    'StrykerJS plants small bugs (mutants) in the pure core (`src/api`, `src/table`, `src/import`) and runs the unit tests',
    'that reach each one. A mutant the tests notice is killed; one they do not is a rule no unit test guards. The score is',
    'killed (or timed out) over all mutants that ran; equivalent mutants (a change no caller can observe, listed with',
    'the reason in test/mutation/equivalent.json) are left out of it, and so are static mutants (in code that runs when a module',
    'loads, such as a table of fields: each one reruns every unit test that loads its module), which `npm run mutate` skips',
    '(`--ignoreStatic`) and counts as "static, not run"; `npm run mutate:all` runs them too. A "run error" is a mutant that',
    'made a test file fail outside any test (while its tests were being collected, for instance): Stryker counts it',
    'as neither killed nor survived, and the score leaves it out.',
    ...(took ? [took] : []),
    ...(changed.length
      ? [
          '',
          `**Changed since this run:** ${changed.length} of the ${Object.keys(report.files).length} files it judged (${changed.map((f) => `\`${f}\``).join(', ')}). Their rows, survivors and equivalents below are the code before that change, until \`npm run mutate\` runs again.`,
        ]
      : []),
    ...(report.testFiles && testsChanged.length
      ? [
          '',
          `**Tests changed since this run:** ${testsChanged.length} test files changed or removed (${testsChanged.map((f) => `\`${f}\``).join(', ')}). Survivors and timeouts below may be judged otherwise by the next \`npm run mutate\`.`,
        ]
      : []),
    ...(report.testFiles && testsUnlisted.length
      ? [
          '',
          `**Tests not in this run:** ${testsUnlisted.length} unit test files, added since or reaching none of the files it judged (${testsUnlisted.map((f) => `\`${f}\``).join(', ')}). One added since may kill what the page calls a survivor.`,
        ]
      : []),
    ...(!changed.length && report.testFiles && !testsChanged.length && !testsUnlisted.length
      ? [
          '',
          "Every source and test file in the report was as in the checkout this page was written from: when the report comes from a plain `npm run mutate` (a part run, `mutate:part`, keeps the other files' earlier verdicts untested), the figures below were that code's.",
        ]
      : []),
    '',
    'Not measured: `src/gas` (the code that calls Apps Script services) and `src/entry` (custom functions, sidebar',
    'endpoints, menu, triggers). Their tests, but for one unit test of the diagnostics, run the deployed bundle,',
    'dist/Code.js, in the emulator against the reference service (test/integration), and a mutant planted in the source',
    'never reaches that bundle: the run covers the three folders above and their unit tests (stryker.config.mjs).',
    '',
    'Its settings, and what a run costs, are in stryker.config.mjs. The HTML report (every mutant in',
    'its source) is written to reports/mutation/index.html, which git ignores.',
    '',
    '## Score per folder',
    '',
    HEAD,
    ...folders,
    row('**all**', total),
    '',
    '## Score per file',
    '',
    HEAD,
    ...fileRows,
    '',
    ...(unmeasured.length
      ? [
          `Not in the report (not yet mutated; a run over all of \`${FOLDERS.join('`, `')}\` covers them): ${unmeasured.map((f) => `\`${f}\``).join(', ')}.`,
          '',
        ]
      : []),
    ...(typesOnly.length ? [`Types only, nothing to mutate: ${typesOnly.map((f) => `\`${f}\``).join(', ')}.`, ''] : []),
    `## Survivors (${open.length})`,
    '',
    'Each is a change to the code that no unit test notices: a test to write, or a mutant to mark equivalent with its reason.',
    '',
    ...(open.length ? open : ['None.']),
    '',
    `## Killed by a test Stryker cannot attribute (${killedApart.length})`,
    '',
    'Listed in test/mutation/equivalent.json with `killedBy`: the test runs the code where per-test coverage cannot',
    'follow it (in a child process, a step that must end in bounded time; or as the built bundle in the emulator), so',
    'Stryker never runs it for the mutant; counted as killed.',
    '',
    ...(killedApart.length ? killedApart : ['None.']),
    '',
    `## Equivalent mutants (${equivalent.length})`,
    '',
    'Listed in test/mutation/equivalent.json, each with why no caller can tell it from the code; they are left out of the score.',
    '',
    ...(equivalent.length ? equivalent : ['None.']),
    '',
    ...(stale.length
      ? [
          'Entries of test/mutation/equivalent.json that match no surviving mutant (fix or remove them):',
          '',
          ...stale.map((e) => `- ${e.file} ${e.mutator} → ${code(e.replacement)} in ${code(e.line)}`),
          '',
        ]
      : []),
  ].join('\n');
}

/** Files under `dir` (relative to root, posix separators) that `keep` accepts. */
function listFiles(root: string, dir: string, keep: (file: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const file = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (keep(file)) out.push(file);
    }
  };
  walk(dir);
  return out;
}

function main(): void {
  const root = resolve(__dirname, '..');
  const input = resolve(process.argv[2] ?? join(root, 'reports/mutation/mutation.json'));
  const output = resolve(process.argv[3] ?? join(root, 'docs/mutation.md'));
  if (!existsSync(input)) {
    console.error(`No mutation report at ${input}: run \`npm run mutate\` first.`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(input, 'utf8')) as Report;
  const equivalents = readEquivalents(root);
  writeFileSync(output, summary(report, root, equivalents));
  console.log(`Wrote ${output}`);
}

main();

/** A TypeScript file's code once its types are stripped, minified (`export{};` when it holds types alone). */
function compiledCode(file: string): string {
  const minify = { compress: false, mangle: false };
  const options = {
    filename: file,
    jsc: { parser: { syntax: 'typescript' as const }, target: 'es2022' as const, minify },
  };
  return transformSync(readFileSync(file, 'utf8'), { ...options, minify: true, isModule: true }).code.trim();
}
