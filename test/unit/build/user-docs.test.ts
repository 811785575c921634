/**
 * The user's pages (docs/functions.md, docs/sidebar.md) say what a user does and sees; how the
 * add-in does it (chunks, journals, locks, staging, the page reader) is in docs/architecture.md,
 * and the pages link each other both ways, so "how do I turn on history" is not buried in internals.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const page = (p: string) => readFileSync(join(ROOT, p), 'utf8');
/** The page without its generated reference (the functions' help text, which Sheets shows). */
const prose = (text: string) => text.replace(/<!-- generated: reference[\s\S]*?<!-- end generated: reference -->/, '');

/** Words of the add-in's insides, which a user never needs. */
const INTERNALS = [
  /\bchunks?\b/i,
  /\bjournal(?:led|s)?\b(?!\]\(architecture)/i,
  /LockService|document lock/i,
  /staging sheet/i,
  /document properties/i,
  /state machine/i,
  /\bsrc\//,
  /fetchAll/,
  /cache buckets?/i,
  /developer metadata:/i,
];

test.each(['docs/functions.md', 'docs/sidebar.md'])(
  '%s speaks of what a user does, and links to how it works',
  (path) => {
    const text = prose(page(path)).replace(/\[[^\]]*\]\(architecture\.md[^)]*\)/g, '');
    const found = INTERNALS.filter((word) => word.test(text)).map(String);
    expect(found).toEqual([]);
    expect(page(path)).toMatch(/\]\(architecture\.md#[a-z0-9-]+\)/);
  },
);

test('docs/architecture.md holds what the user pages left out, and links back to them', () => {
  const text = page('docs/architecture.md');
  for (const heading of [
    '### The shared partner snapshot (thousands of ids)',
    '### Fill-down',
    '### The daily fetch count',
    '### Refresh all formulas: blocks and the journal',
    '### An import, step by step',
  ])
    expect(text).toContain(heading);
  expect(text).toContain('](functions.md)');
  expect(text).toContain('](sidebar.md)');
});
