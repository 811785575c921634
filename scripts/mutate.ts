/**
 * `npm run mutate`: mutation testing of the pure core with StrykerJS (settings and costs in
 * stryker.config.mjs), then docs/mutation.md from its report (scripts/mutation-summary.ts).
 *
 * Every mutant's verdict, with the source and tests it was judged on, is kept in the repository
 * (test/mutation/incremental.json.gz, Stryker's incremental file, gzipped): a clean clone starts
 * from the last run's verdicts instead of hours of testing from scratch, and Stryker tests again
 * only the mutants in code that changed, or reached by tests that changed (it diffs each file
 * against the text the verdict was judged on). A run on this machine keeps its own file in
 * reports/mutation/ and writes the kept one back when it ends.
 *
 *   tsx scripts/mutate.ts                     every mutant except static ones
 *   tsx scripts/mutate.ts --mutate '<files>'  those files only, keeping every other verdict
 *   tsx scripts/mutate.ts --all               static mutants too
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

const LOCAL = 'reports/mutation/incremental.json';
const KEPT = 'test/mutation/incremental.json.gz';

const args = process.argv.slice(2);
const all = args[0] === '--all';
const strykerArgs = all ? args.slice(1) : ['--ignoreStatic', ...args];

if (!existsSync(LOCAL) && existsSync(KEPT)) {
  mkdirSync(dirname(LOCAL), { recursive: true });
  writeFileSync(LOCAL, gunzipSync(readFileSync(KEPT)));
  console.log(`Starting from the verdicts kept in ${KEPT}.`);
}

const run = (command: string[]): void => {
  const result = spawnSync('npx', command, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run(['stryker', 'run', ...strykerArgs]);
const verdicts = JSON.parse(readFileSync(LOCAL, 'utf8')) as Record<string, unknown>;
// The run's folder is no verdict: leave this machine's path out of the repository.
verdicts.projectRoot = '.';
writeFileSync(KEPT, gzipSync(JSON.stringify(verdicts), { level: 9 }));
console.log(`Verdicts kept in ${KEPT}: commit it with docs/mutation.md.`);
run(['tsx', 'scripts/mutation-summary.ts']);
