// A Stryker test runner, `jest-by-file`: StrykerJS's own jest runner, with one change to what a
// mutant costs. For each mutant, Stryker's jest runner runs jest with `--findRelatedTests <mutated
// file>` and a test-name pattern of the tests that cover the mutant: jest then loads every test file
// that imports the mutated file, however indirectly (84 unit test files for src/api/answer.ts,
// about 8 s on a busy core), to run the handful of tests the pattern keeps. This runner keeps,
// from the first full run (the dry run), the file each test lives in, and runs a mutant's covering
// tests in their own files only (0.4 s to load the 4 files of answer.ts's own tests). Which tests
// run, and so every verdict, is unchanged; mutants without per-test coverage (static ones) run as
// before.
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
  runner.mutantRun = async (options) => {
    if (!fileOf && fs.existsSync(mapPath)) fileOf = JSON.parse(fs.readFileSync(mapPath, 'utf8'));
    const wanted = options.testFilter?.map((id) => fileOf?.[id]);
    files = wanted?.length && wanted.every(Boolean) ? [...new Set(wanted)].map((f) => `^${asPattern(f)}$`) : undefined;
    try {
      return await mutantRun(options);
    } finally {
      files = undefined;
    }
  };

  // mutantRun hands its settings to run(): with the files known, jest runs those files (by path)
  // instead of finding every test related to the mutated file.
  const run = runner.run.bind(runner);
  runner.run = (settings) => run(files ? { ...settings, fileNamesUnderTest: undefined, testFiles: files } : settings);
  return runner;
}
byFile.inject = jestFactory.inject;

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'jest-by-file', byFile)];
