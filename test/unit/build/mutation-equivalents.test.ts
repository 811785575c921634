/**
 * The list of equivalent mutants (test/mutation/equivalent.json: changes StrykerJS makes that no
 * caller can tell from the code) cannot go stale unseen between mutation runs: every entry names a
 * mutated file, its mutator and replacement, a piece of a line that is still in that file, and a
 * reason; no entry is listed twice. A source change that removes or rewrites a listed line fails
 * here, in `npm test`, instead of only in the next `npm run mutate`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEquivalents } from '../../mutation/equivalents';

const ROOT = join(__dirname, '../../..');
const entries = readEquivalents(ROOT);

test('the list of equivalent mutants is a non-empty array', () => {
  expect(Array.isArray(entries)).toBe(true);
  expect(entries.length).toBeGreaterThan(0);
});

test.each(entries.map((e, i) => [i, e] as const))(
  'entry %i names a mutated file, a line still in it, and why',
  (_, e) => {
    expect(e.file).toMatch(/^src\/(api|table|import)\/[\w-]+\.ts$/);
    expect(existsSync(join(ROOT, e.file))).toBe(true);
    expect(e.mutator).toMatch(/^[A-Z]\w+$/);
    expect(typeof e.replacement).toBe('string');
    expect(e.line.trim().length).toBeGreaterThan(0);
    expect(readFileSync(join(ROOT, e.file), 'utf8')).toContain(e.line.trim());
    expect(e.why.trim().length).toBeGreaterThanOrEqual(20);
    if (e.killedBy !== undefined) {
      expect(e.killedBy).toMatch(/^test\/.+\.test\.ts$/);
      expect(existsSync(join(ROOT, e.killedBy))).toBe(true);
    }
  },
);

test('no entry is listed twice', () => {
  const keys = entries.map((e) => JSON.stringify([e.file, e.mutator, e.replacement, e.line]));
  expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
});
