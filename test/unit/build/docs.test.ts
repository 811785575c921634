/**
 * Generated documentation cannot drift: docs/benchmarks.md equals what `npm run docs` makes from
 * bench/results.json, and a change in a source shows in its page. (docs/functions.md, whose
 * samples need the reference service, is checked in test/integration/addin/docs.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  customFunctions,
  readResults,
  renderBenchmarks,
  renderFunctionReference,
  replaceFenced,
} from '../../../scripts/docs-lib';
import { benchmarksPage } from '../../../scripts/docs';

const ROOT = join(__dirname, '../../..');

test('docs/benchmarks.md is what npm run docs generates from bench/results.json (run it after changing them)', () => {
  const { path, text } = benchmarksPage(ROOT);
  expect(readFileSync(join(ROOT, path), 'utf8')).toBe(text);
});

test('a changed benchmark figure changes docs/benchmarks.md', () => {
  const results = readResults(ROOT) as { imports: Array<{ wallMs: number }> };
  const before = renderBenchmarks(results);
  results.imports[0].wallMs += 1234;
  expect(renderBenchmarks(results)).not.toBe(before);
});

test('the function reference carries every custom function with the help text Sheets shows', () => {
  const fns = customFunctions(ROOT);
  const built = readFileSync(join(ROOT, 'src/entry/custom-functions.ts'), 'utf8');
  const reference = renderFunctionReference(fns);
  expect(fns.map((f) => f.name)).toEqual(
    expect.arrayContaining(['LP_GET', 'LP_FIND', 'FUND_LASTSIZE', 'FUND_INDUSTRIES']),
  );
  for (const f of fns) expect(reference).toContain(`### ${f.name}(`);
  expect(built).toContain('text such as $80M');
  expect(reference).toContain('text such as $80M');
});

test('a page without its markers is refused, not overwritten', () => {
  expect(() => replaceFenced('# hand-written\n', 'reference', 'x')).toThrow(/no "<!-- generated: reference/);
});
