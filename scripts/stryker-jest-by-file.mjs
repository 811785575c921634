// A Stryker test runner, `jest-by-file`: StrykerJS's own jest runner, with one change to what a
// mutant costs. For each mutant, Stryker's jest runner runs jest with `--findRelatedTests <mutated
// file>` and a test-name pattern of the tests that cover the mutant: jest then loads every test file
// that imports the mutated file, however indirectly (84 unit test files for src/api/answer.ts,
// about 8 s on a busy core), and runs every covering test even after one has failed. This runner
// keeps, from the first full run (the dry run), each test's file and time, and runs a mutant's
// covering tests in their own files only, in two rounds: first the quickest (as many as fit in
// FIRST_STAGE_MS of the dry run, at least one), then, only if the mutant survived them, all the
// others. Most mutants die in the first round, so they cost one quick jest run. Which tests decide,
// and so every verdict, is unchanged (a mutant is killed when any covering test fails, as Stryker's
// bail does); mutants without per-test coverage (static ones) run as before. Measured on the 27
// mutants of two lines of the import's replace rules (src/import/ownership.ts), one runner: 2 min 38 s of mutant runs with every
// covering test in one round by file, 46 s in two rounds by time, the same 24 killed and 3 survived.
//
// The dry run happens in one runner process and mutants are spread over several, so the map of
// test -> file is written to the sandbox (every runner's working directory) and read back there.
import fs from 'node:fs';
import path from 'node:path';
import { strykerPlugins as jestPlugins } from '@stryker-mutator/jest-runner';
import { declareFactoryPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const jestFactory = jestPlugins.find(
  (plugin) => plugin.kind === PluginKind.TestRunner && plugin.name === 'jest',
).factory;
const MAP_FILE = '.stryker-test-files.json';
/** The covering tests run first: the quickest, as many as fit in this many milliseconds of the dry run (at least one). */
const FIRST_STAGE_MS = 50;
const asPattern = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function byFile(injector) {
  const runner = jestFactory(injector);
  const mapPath = path.join(process.cwd(), MAP_FILE);
  let fileOf;
  let files;

  const dryRun = runner.dryRun.bind(runner);
  runner.dryRun = async (options) => {
    const result = await dryRun(options);
    if (result.status === 'complete') {
      fileOf = Object.fromEntries(
        result.tests.filter((t) => t.fileName).map((t) => [t.id, { file: t.fileName, ms: t.timeSpentMs ?? 0 }]),
      );
      fs.writeFileSync(mapPath, JSON.stringify(fileOf));
    }
    return result;
  };

  const mutantRun = runner.mutantRun.bind(runner);
  const runIn = async (tests, options) => {
    files = [...new Set(tests.map((id) => fileOf[id].file))].map((f) => `^${asPattern(f)}$`);
    try {
      return await mutantRun({ ...options, testFilter: tests });
    } finally {
      files = undefined;
    }
  };
  runner.mutantRun = async (options) => {
    if (!fileOf && fs.existsSync(mapPath)) fileOf = JSON.parse(fs.readFileSync(mapPath, 'utf8'));
    const ids = options.testFilter;
    if (!ids?.length || !fileOf || ids.some((id) => !fileOf[id])) return mutantRun(options);
    // The quickest covering tests first (most mutants die at the first test that reaches them), then
    // the others together: a mutant that survives costs one jest start more.
    const bySpeed = [...ids].sort((a, b) => fileOf[a].ms - fileOf[b].ms);
    let spent = 0;
    const first = bySpeed.filter((id, i) => i === 0 || (spent += fileOf[id].ms) <= FIRST_STAGE_MS);
    const others = bySpeed.slice(first.length);
    const result = await runIn(first, options);
    if (result.status !== 'survived' || !others.length) return result;
    const rest = await runIn(others, options);
    return rest.status === 'survived' ? { ...rest, nrOfTests: rest.nrOfTests + result.nrOfTests } : rest;
  };

  // mutantRun hands its settings to run(): with the files known, jest runs those files (by path)
  // instead of finding every test related to the mutated file.
  const run = runner.run.bind(runner);
  runner.run = (settings) => run(files ? { ...settings, fileNamesUnderTest: undefined, testFiles: files } : settings);
  return runner;
}
byFile.inject = jestFactory.inject;

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'jest-by-file', byFile)];
