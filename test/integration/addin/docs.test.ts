/**
 * The documents a clone relies on: docs/openapi.json is exactly what the reference service
 * generates (so it cannot go stale), and every relative link in README.md and docs/api.md points
 * at a file inside the repository (a clone has no ../shared).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { type RunningService, startService } from '../../helpers/service';

const ROOT = join(__dirname, '../../..');

let svc: RunningService;
beforeAll(async () => {
  svc = await startService([]);
});
afterAll(() => svc.stop());

test('docs/openapi.json equals GET /openapi.json of `npm run service` (regenerate: npx tsx scripts/openapi.ts)', async () => {
  const live = (await (await fetch(`${svc.url}/openapi.json`)).json()) as { servers: Array<{ url: string }> };
  const committed = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as { servers: Array<{ url: string }> };
  expect(committed.servers).toEqual([{ url: 'http://127.0.0.1:8787' }]);
  expect({ ...committed, servers: live.servers }).toEqual(live);
});

test.each(['README.md', 'docs/api.md'])('every relative link in %s resolves inside the repository', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const targets = [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/i.test(t));
  expect(targets.length).toBeGreaterThan(0);
  for (const target of targets) {
    const path = join(ROOT, dirname(file), target);
    expect(relative(ROOT, path).startsWith('..') ? `${target} leaves the repository` : existsSync(path) ? 'ok' : `${target} is missing`).toBe('ok');
  }
  expect(text).not.toContain('../shared');
});
