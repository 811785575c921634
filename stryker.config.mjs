// Mutation testing (`npm run mutate`): StrykerJS plants small bugs (mutants) in the pure core,
// src/api, src/table and src/import, and runs the unit tests that cover each one; a mutant no test
// notices is a rule no test guards. The HTML and JSON reports go to reports/mutation/ (git-ignored);
// scripts/mutation-summary.ts turns the JSON report into docs/mutation.md.
//
// Incremental: Stryker's incremental file keeps every mutant's verdict with the source and tests it
// was judged on, so a rerun only tests mutants in code that changed, or reached by tests that
// changed (Stryker diffs each file against the text it judged). scripts/mutate.ts, behind every
// `npm run mutate*`, keeps it in the repository (test/mutation/incremental.json.gz, about 0.9 MB): a
// clean clone starts from the last run's verdicts, not from hours of testing, and a run writes it
// back for the commit that changes docs/mutation.md. The working copy is
// reports/mutation/incremental.json (git-ignored).
//
// Cost: the three folders hold about 7,300 mutants; about 590 are static (in code that runs when a
// module loads, such as a table of fields), which Stryker cannot attribute to a test, so each
// reruns every unit test that loads its module: `npm run mutate` leaves them out (`--ignoreStatic`;
// the summary counts them as "static, not run") and `npm run mutate:all` runs them too. A mutant
// costs the run of the tests that cover it: the test runner, scripts/stryker-jest-by-file.mjs, runs
// them in their own test files, the quickest first and the rest only if the mutant survived them,
// instead of every test file that imports the mutated file (a mutant of a core module would load
// some 80 test files). From scratch on two cores: src/table's 1,907 mutants took 52 minutes and
// src/import's end, merge, replace, run-state and shape, 724 mutants, 48 minutes (both with every
// covering test in one round); src/import's machine, held, spec and watch, 1,474 mutants, 74 minutes
// in two rounds (their tests run whole imports, and 49 timeouts each cost the wait below). A
// rerun costs what Stryker's rule for reuse leaves: a killed mutant is tested again only when the
// test that killed it changed; any other (survived, equivalent, timed out) whenever a test that
// reaches it is added or changed. Timeouts cost most: Stryker waits for 1.5 times the covering tests' run plus timeoutMS.
// A plain `npm run mutate` on a clean clone after one test file changed: under 2 minutes of dry run, then 37
// mutants in 8 minutes (6,690 of 7,313 verdicts reused, 586 static ones skipped).
//
// A run longer than one sitting is split by files: `npm run mutate:part -- 'src/table/**/*.ts'`
// tests those files' mutants and keeps every other verdict; parts run one after another on the
// same commit, then the plain `npm run mutate` reuses all they judged and tests what is left. The
// run a score is quoted from is one plain `npm run mutate`; docs/mutation.md says whether every
// file and test it judged is as checked out. Neither is part of `npm test` or CI.
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
