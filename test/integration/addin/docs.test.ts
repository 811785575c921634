/**
 * The documents a clone relies on: docs/openapi.json is exactly what the reference service
 * generates (so it cannot go stale); every relative link in README.md and the docs/ pages points
 * at a file inside the repository (a clone has no ../shared), and every #anchor at a heading of
 * the page it names; README stays a front door: at most 150 lines, and its first 40 link the
 * deploy guide and the function reference.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { functionsPage, SAMPLE_SERVICE_ARGS } from '../../../scripts/docs';
import { type RunningService, startService } from '../../helpers/service';

const ROOT = join(__dirname, '../../..');

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(SAMPLE_SERVICE_ARGS);
});
afterAll(() => svc.stop());

test('docs/functions.md is what npm run docs generates: the JSDoc Sheets shows, each example run by the bundle (run it after changing them)', () => {
  const { path, text } = functionsPage(svc.url, ROOT);
  expect(readFileSync(join(ROOT, path), 'utf8')).toBe(text);
});

test('each sample is headed by the column letters, so an answer without a header row (LP_FIELDS) shows its first row as a row of cells', () => {
  const { text } = functionsPage(svc.url, ROOT);
  for (const formula of ['=LP_FIELDS(TRUE)', '=FUND_FIELDS(TRUE)'])
    expect(text.split(`\`${formula}\``)[1]).toMatch(/^\s*\| A \| B \|\n\|---\|---\|\n\| id \| string \|\n/);
});

test('docs/openapi.json equals GET /openapi.json of `npm run service` (regenerate: npx tsx scripts/openapi.ts)', async () => {
  const live = (await (await fetch(`${svc.url}/openapi.json`)).json()) as { servers: Array<{ url: string }> };
  const committed = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as {
    servers: Array<{ url: string }>;
  };
  expect(committed.servers).toEqual([{ url: 'http://127.0.0.1:8787' }]);
  expect({ ...committed, servers: live.servers }).toEqual(live);
});

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorsOf = (text: string) =>
  new Set(
    [...text.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );

test.each(PAGES)('every relative link in %s resolves inside the repository', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const links = [...text.matchAll(/\]\(([^)\s#]*)(?:#([^)\s]*))?\)/g)].filter((m) => !/^[a-z]+:/i.test(m[1]));
  for (const [, target, anchor] of links) {
    const path = join(ROOT, dirname(file), target || file.replace(/^.*\//, ''));
    const where = relative(ROOT, path);
    const verdict = where.startsWith('..')
      ? `${target} leaves the repository`
      : !existsSync(path)
        ? `${target} is missing`
        : anchor && path.endsWith('.md') && !anchorsOf(readFileSync(path, 'utf8')).has(anchor)
          ? `${target}#${anchor} names no heading`
          : 'ok';
    expect(verdict).toBe('ok');
  }
  expect(text).not.toContain('../shared');
});

test('README is a front door: at most 150 lines, and its first 40 link the deploy guide and the function reference', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  expect(lines.length).toBeLessThanOrEqual(151);
  const top = lines.slice(0, 40).join('\n');
  expect(top).toContain('](docs/deploy.md)');
  expect(top).toContain('](docs/functions.md)');
});
