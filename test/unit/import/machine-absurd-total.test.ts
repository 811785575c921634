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
import type { PageFetcher } from '../../../src/api/pages';
import { beginRun } from '../../../src/import/machine';
import { world } from '../../helpers/fake-ports';

const root = resolve(__dirname, '../../..');

/**
 * One sidebar step of an import over a service claiming 10^12 partners, 100 a page, whose page 1
 * must wait (Retry-After 30 s): the pages after it are read ahead while it waits, and they report
 * the absurd total before page 1 can be judged. Prints the step's status.
 */
const script = `
const { beginRun } = await import(${JSON.stringify(`${root}/src/import/machine.ts`)});
const { world } = await import(${JSON.stringify(`${root}/test/helpers/fake-ports.ts`)});
const { ServiceError } = await import(${JSON.stringify(`${root}/src/api/errors.ts`)});
const total = 1e12;
let firstAsked = false;
const fetch = (pages) => pages.map((page) => {
  if (page === 1 && !firstAsked) {
    firstAsked = true;
    return { ok: false, error: new ServiceError('RATE_LIMITED', 'Rate limited.', { retryAfterMs: 30000 }) };
  }
  return {
    ok: true,
    value: {
      items: Array.from({ length: 100 }, (_, i) => ({ id: 'p' + ((page - 1) * 100 + i), fullName: 'Partner' })),
      pagination: { totalItems: total, totalPages: total / 100, currentPage: page, pageSize: 100 },
    },
  };
});
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

test('a list whose table could not fit in a spreadsheet fails the run at page 1, saying why; the sheet is untouched', () => {
  // 4,000,000 partners in 3 columns: 12,000,003 cells with the header, past the 10,000,000 a spreadsheet holds.
  let requests = 0;
  const fetch: PageFetcher = (pages) =>
    pages.map((page) => {
      requests++;
      const items = Array.from({ length: 100 }, (_, i) => ({
        id: `p${(page - 1) * 100 + i}`,
        fullName: 'x',
        firm: 'y',
      }));
      return {
        ok: true,
        value: { items, pagination: { totalItems: 4_000_000, totalPages: 40_000, currentPage: page, pageSize: 100 } },
      };
    });
  const w = world(fetch, [{ id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName', 'firm'], mode: 'replace' }]);
  const step = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 20_000);
  expect(step).toMatchObject({
    status: 'failed',
    message:
      'The service reports 4,000,000 active partners: a table of that many rows and 3 columns would not fit in a spreadsheet (10,000,000 cells at most). The sheet "Partners" keeps its previous data.',
  });
  expect({ requests, written: w.tables.has('Partners') }).toEqual({ requests: 1, written: false });
});
