// Mutation testing (`npm run mutate`): StrykerJS plants small bugs (mutants) in the pure core,
// src/api, src/table and src/import, and runs the unit tests that cover each one; a mutant no test
// notices is a rule no test guards. The HTML and JSON reports go to reports/mutation/ (git-ignored);
// scripts/mutation-summary.ts turns the JSON report into docs/mutation.md.
//
// Incremental: reports/mutation/incremental.json keeps every mutant's verdict with the source and
// the tests it was judged on, so a rerun only tests mutants in code that changed, or covered by
// tests that changed. It stays on the machine (git-ignored), not in the repository: it holds the
// full text of every mutated file and test file (megabytes), would change in every commit that
// touches either and conflict in every merge, and a verdict is only worth reusing against the exact
// source it was judged on, which the file itself checks. A clean clone therefore starts with a
// full run.
//
// Cost, measured on this project's two cores while other work shared them (load 3 to 9): src/api
// alone (2,508 mutants run, 340 static left out) took 58 minutes from scratch, about 2.4 s a
// mutant a runner plus the timeout for each of the 141 that hung. The three folders hold about
// 6,900 mutants. About 580 of them are static (in code that runs when a module loads, such as a
// table of fields): Stryker cannot tell which test reaches one, so each reruns every unit test that
// loads its module, about as long as all the others together. `npm run mutate` therefore runs
// with `--ignoreStatic` (the summary counts those as "static, not run"): 2 to 3 hours from
// scratch; a rerun tests only the mutants whose code, or whose tests, changed. `npm run mutate:all` runs the static ones too. Neither is
// part of `npm test` or CI.
//
// What a rerun costs is set by Stryker's rule for reuse: a killed mutant is tested again only when
// the test that killed it changed; any other (survived, equivalent, timed out) whenever a test that
// reaches it is added or renamed. A new test that drives the import state machine reaches most of
// src/import and much of src/api: adding a dozen such tests made 783 mutants to test again, 435 of
// them in src/api and src/table (measured on these two cores beside a test run: those 435 took 82
// minutes, 4 to 5 mutants a minute, so the 783 about 3 hours). Timeouts are the most costly: a timed-out mutant is reached by a median
// of 79 tests, and Stryker waits for 1.5 times their run before it gives up.
//
// A run longer than one sitting is split by files: `npm run mutate:part -- 'src/api/**/*.ts,src/table/**/*.ts'`
// tests those files' mutants and keeps every other verdict in the incremental file; parts run one
// after another on the same commit, then the plain `npm run mutate` reuses all they judged and tests
// what is left (nothing, when the parts covered every folder). A part limited to line ranges
// (`file.ts:10-40`) on code that has changed since can leave verdicts at places the code no longer
// has (47 once), which the next run judges again. The run a score is quoted from is one plain
// `npm run mutate`; docs/mutation.md says whether every file and test it judged is as checked out.
//
// No TypeScript checker: @stryker-mutator/typescript-checker drives the compiler through its JS API,
// and typescript@7 (the native compiler) has none. A mutant that does not type-check still runs; the
// tests (compiled by @swc/jest, which strips types) judge it like any other, so the score can only
// count a few such mutants as killed that a checker would have discarded as invalid.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const unit = require('./jest.config.js').projects.find((project) => project.displayName === 'unit');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['src/api/**/*.ts', 'src/table/**/*.ts', 'src/import/**/*.ts'],
  testRunner: 'jest-by-file',
  plugins: ['@stryker-mutator/jest-runner', './scripts/stryker-jest-by-file.mjs'],
  jest: {
    projectType: 'custom',
    // package.json holds no jest key: pointing at it keeps jest.config.js (three projects, a browser
    // global set-up) out, so the unit project below is the whole configuration.
    configFile: 'package.json',
    config: {
      ...unit,
      displayName: undefined,
      testMatch: ['<rootDir>/test/unit/{api,table,import}/**/*.test.ts'],
      // The seed sweeps (*-sweeps.test.ts) rerun one scenario some thirty times, about 7 s a test:
      // every mutant they reach would cost that. The single-seed tests beside them judge mutants;
      // `npm test` runs both.
      testPathIgnorePatterns: [...(unit.testPathIgnorePatterns ?? []), '-sweeps\\.test\\.ts$'],
    },
    enableFindRelatedTests: true,
  },
  coverageAnalysis: 'perTest',
  // A mutant's tests get this much more than they took unmutated before it counts as a timeout
  // (an endless loop, e.g. a retry limit mutated away under a fake clock). Each timeout costs this
  // much, and a run meets hundreds; 8 s is above Stryker's default 5 s so that a busy machine does
  // not turn slow tests into timeouts (counted as killed, unearned): the summary lists timeouts
  // apart.
  timeoutMS: 8000,
  // Two cores, shared: more runners only queue.
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  // The sandbox needs no tsconfig (@swc/jest compiles with its inline options), and leaving it out
  // skips Stryker's tsconfig rewriting, which also needs the compiler's JS API.
  ignorePatterns: ['dist', '.workbench', 'test-artifacts', 'coverage', 'reports', 'bench', 'sidebar', 'tsconfig*.json'],
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  thresholds: { high: 90, low: 85, break: null },
};
