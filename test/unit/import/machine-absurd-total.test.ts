/**
 * A service that reports an absurd `totalItems` on page 1 (10^12 partners; hostile, or a bug on
 * its side) while serving full pages. An import step must still end in bounded time and memory,
 * with a saved outcome: in Apps Script a step that cannot end is killed, saves nothing, and is
 * begun again by every trigger, each time for the whole 6 minutes. The step runs in a child
 * process with a small heap and a time limit, so that a step that never ends fails this test
 * instead of hanging it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');

/** One sidebar step of an import over a service claiming 10^12 partners, 100 a page; prints its status. */
const script = `
const { beginRun } = await import(${JSON.stringify(`${root}/src/import/machine.ts`)});
const { world } = await import(${JSON.stringify(`${root}/test/helpers/fake-ports.ts`)});
const total = 1e12;
const fetch = (pages) => pages.map((page) => ({
  ok: true,
  value: {
    items: Array.from({ length: 100 }, (_, i) => ({ id: 'p' + ((page - 1) * 100 + i), fullName: 'Partner' })),
    pagination: { totalItems: total, totalPages: total / 100, currentPage: page, pageSize: 100 },
  },
}));
const w = world(fetch, [{ id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' }], { msPerFetch: 500 });
const step = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 20000);
console.log(JSON.stringify({ status: step.status }));
`;

test('one step over a service claiming 10^12 partners ends, in bounded time and memory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'absurd-total-'));
  const file = join(dir, 'step.mjs');
  writeFileSync(file, script);
  const run = spawnSync(process.execPath, ['--max-old-space-size=256', '--import', 'tsx', file], {
    cwd: root,
    encoding: 'utf8',
    timeout: 20_000,
  });
  rmSync(dir, { recursive: true, force: true });
  const ended = run.status === 0 && run.signal === null;
  const why = ended ? '' : (/^.*(heap out of memory|Error).*$/m.exec(run.stderr)?.[0] ?? `killed (${run.signal})`);
  expect({ ended, why }).toEqual({ ended: true, why: '' });
  expect(['running', 'failed']).toContain(JSON.parse(run.stdout.trim()).status);
});
