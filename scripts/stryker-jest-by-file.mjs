// A Stryker test runner, `jest-by-file`: StrykerJS's own jest runner, with one change to what a
// mutant costs. For each mutant, Stryker's jest runner runs jest with `--findRelatedTests <mutated
// file>` and a test-name pattern of the tests that cover the mutant: jest then loads every test file
// that imports the mutated file, however indirectly (84 unit test files for src/api/answer.ts,
// about 8 s on a busy core), to run the handful of tests the pattern keeps. This runner keeps,
// from the first full run (the dry run), the file each test lives in, and runs a mutant's covering
// tests in their own files only (0.4 s to load the 4 files of answer.ts's own tests), and first
// those of the file holding most of them: a mutant they kill (most are) costs no more. Which tests
// decide, and so every verdict, is unchanged (a mutant is killed when any covering test fails, as
// Stryker's bail does); mutants without per-test coverage (static ones) run as before.
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
      fileOf = Object.fromEntries(result.tests.filter((t) => t.fileName).map((t) => [t.id, t.fileName]));
      fs.writeFileSync(mapPath, JSON.stringify(fileOf));
    }
    return result;
  };

  const mutantRun = runner.mutantRun.bind(runner);
  const runIn = async (testFiles, options) => {
    files = testFiles.map((f) => `^${asPattern(f)}$`);
    try {
      return await mutantRun(options);
    } finally {
      files = undefined;
    }
  };
  runner.mutantRun = async (options) => {
    if (!fileOf && fs.existsSync(mapPath)) fileOf = JSON.parse(fs.readFileSync(mapPath, 'utf8'));
    const ids = options.testFilter;
    if (!ids?.length || !fileOf || ids.some((id) => !fileOf[id])) return mutantRun(options);
    const byTestFile = new Map();
    for (const id of ids) byTestFile.set(fileOf[id], [...(byTestFile.get(fileOf[id]) ?? []), id]);
    // The file holding most of the covering tests first (most mutants die there), then the others
    // together: a mutant that survives costs one jest start more, not one per file.
    const [first, ...others] = [...byTestFile].sort((a, b) => b[1].length - a[1].length);
    const result = await runIn([first[0]], { ...options, testFilter: first[1] });
    if (result.status !== 'survived' || !others.length) return result;
    const rest = await runIn(
      others.map(([file]) => file),
      { ...options, testFilter: others.flatMap(([, tests]) => tests) },
    );
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
