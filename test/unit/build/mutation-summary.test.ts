/**
 * docs/mutation.md says whether its figures are the current code's: the summary compares the source
 * files and the unit test files the mutation report judged with the checkout, and names what changed
 * since (a changed test may kill what the page calls a survivor), and the test files the run did not
 * list (added since, or reaching none of the files it judged), and the files of the core the report holds
 * no mutant of (types alone, or not yet mutated). Run on made-up reports, through the
 * script as `npm run mutate` runs it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const FILE = 'src/table/cells.ts';

function unitTests(): string[] {
  return ['api', 'table', 'import'].flatMap((folder) =>
    readdirSync(join(ROOT, 'test/unit', folder), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts') && !f.endsWith('-sweeps.test.ts'))
      .map((f) => `test/unit/${folder}/${f.split('\\').join('/')}`),
  );
}

/** The page the script writes for a report of one killed mutant in FILE, with these test files. */
function page(tests: Record<string, { source?: string }>, source = readFileSync(join(ROOT, FILE), 'utf8')): string {
  const dir = mkdtempSync(join(tmpdir(), 'mutation-summary-'));
  try {
    const mutant = {
      mutatorName: 'BooleanLiteral',
      replacement: 'true',
      location: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } },
      status: 'Killed',
    };
    const report = { files: { [FILE]: { source, mutants: [mutant] } }, testFiles: tests };
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    execFileSync(
      process.execPath,
      [
        require.resolve('tsx/cli'),
        join(ROOT, 'scripts/mutation-summary.ts'),
        join(dir, 'report.json'),
        join(dir, 'out.md'),
      ],
      {
        cwd: ROOT,
        stdio: 'pipe',
      },
    );
    return readFileSync(join(dir, 'out.md'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const asRun = () => Object.fromEntries(unitTests().map((f) => [f, { source: readFileSync(join(ROOT, f), 'utf8') }]));

test('a report of the checkout as it is says its figures are the current code', () => {
  const out = page(asRun());
  expect(out).toContain('Every source and test file in the report was as in the checkout this page was written from');
  expect(out).not.toContain('changed since this run');
});

test('a test file changed or removed since the run is named, and one the run does not list is named apart', () => {
  const tests = asRun();
  const [changed, unlisted] = Object.keys(tests);
  tests[changed] = { source: `${tests[changed].source}\n// before` };
  delete tests[unlisted];
  tests['test/unit/api/gone.test.ts'] = { source: '' };
  const out = page(tests);
  const lines = out.split('\n');
  const changedLine = lines.find((l) => l.startsWith('**Tests changed since this run:**')) ?? '';
  expect(changedLine).toContain('2 test files changed or removed');
  for (const f of [changed, 'test/unit/api/gone.test.ts']) expect(changedLine).toContain(`\`${f}\``);
  expect(changedLine).not.toContain(unlisted);
  const unlistedLine = lines.find((l) => l.startsWith('**Tests not in this run:**')) ?? '';
  expect(unlistedLine).toContain(
    `1 unit test files, added since or reaching none of the files it judged (\`${unlisted}\`)`,
  );
  expect(out).not.toContain(
    'Every source and test file in the report was as in the checkout this page was written from',
  );
});

test('a run that lists every test file but one is not called current', () => {
  const tests = asRun();
  delete tests[Object.keys(tests)[0]];
  expect(page(tests)).not.toContain(
    'Every source and test file in the report was as in the checkout this page was written from',
  );
});

test('a source file changed since the run is named, and the figures are not called current', () => {
  const out = page(asRun(), '// another source\n');
  expect(out).toContain(`**Changed since this run:** 1 of the 1 files it judged (\`${FILE}\`)`);
  expect(out).not.toContain(
    'Every source and test file in the report was as in the checkout this page was written from',
  );
});

test('a file of types alone is named as nothing to mutate, and a file with code the run left out as not in the report', () => {
  const lines = page(asRun()).split('\n');
  const typesLine = lines.find((l) => l.startsWith('Types only, nothing to mutate:')) ?? '';
  const missingLine = lines.find((l) => l.startsWith('Not in the report')) ?? '';
  expect(typesLine).toContain('`src/import/ports.ts`');
  expect(typesLine).not.toContain('`src/api/hash.ts`');
  expect(missingLine).toContain('`src/api/hash.ts`');
  expect(missingLine).not.toContain('`src/import/ports.ts`');
});
