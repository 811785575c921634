/**
 * The deployed bundle against a service that answers badly on purpose: `{"data":[]}` for known
 * ids, a `Retry-After` that is no wait, records answered under another id, and listed partners
 * without a usable id. Each costs what it should: a remembered "unknown id" in one request, the
 * backoff, an error for that row, a skipped and counted record; never a request storm, a wrong
 * value cached, a row an import later refuses, or a list read ten times.
 */
import { addin } from '../../helpers/addin';
import { runImport, saveImport, sheet } from '../../helpers/imports';
import { activeIds, servicesForThisFile } from '../../helpers/service';
import { RUN_LOG_HEADER } from '../../../src/import/end';

/** The reference service of this file, with the hostile quirks each test switches on. */
const services = servicesForThisFile(1, ['--partners', '60', '--max-page-size', '100']);
const svc = () => services[0];
let ids: string[];
beforeAll(async () => {
  ids = await activeIds(svc());
});
afterEach(() =>
  svc().config({ quirks: { emptyFor: [], idOverrides: null }, faults: { rateLimit: 0, retryAfterSeconds: 1 } }),
);

const column = (value: unknown, c = 0) => (value as unknown[][]).map((r) => r[c]);

test('an empty answer for 20 ids: "unknown id" in 20 requests, and none on the next recalculation', async () => {
  const twenty = ids.slice(0, 20);
  await svc().config({ quirks: { emptyFor: twenty } });
  const a = addin(svc().url);
  const first = a.cell(
    'LP_GET',
    twenty.map((id) => [id]),
    'id',
  );
  expect(first.error).toBe(`Unknown limited partner id: ${twenty[0]}`);
  expect(first.run.ledger.fetches).toBe(20);
  const again = a.cell('LP_GET', [[twenty[3]], [ids[30]]], 'id');
  expect(column(again.value)).toEqual([`Error: Unknown limited partner id: ${twenty[3]}`, ids[30]]);
  expect(again.run.ledger.fetches).toBe(1);
});

test.each(['-1', '0'])('a 429 with Retry-After %s backs off: no request storm within a formula', async (retryAfter) => {
  await svc().config({ faults: { rateLimit: 1, retryAfterSeconds: Number(retryAfter) } });
  const a = addin(svc().url);
  const cell = a.cell('LP_GET', ids[0], 'id');
  expect(cell.error).toMatch(/^Rate limited by the data service/);
  const { fetches, startedAt, endedAt } = cell.run.ledger;
  // Backoff 0.4 s doubling to 4 s, each randomised down to half at most: on average more than 1 s
  // between requests (at least 14.25 s for 12 retries), where the header alone made 13 in 0.2 s.
  expect(fetches).toBeGreaterThan(1);
  expect((endedAt - startedAt) / (fetches - 1)).toBeGreaterThan(1000);
});

test('a record answered under another id is an error for that row, and is not cached', async () => {
  await svc().config({ quirks: { idOverrides: { [ids[0]]: 'lp_OTHER', [ids[1]]: 'lp_OTHER' } } });
  const a = addin(svc().url);
  const both = a.cell('LP_GET', [[ids[0]], [ids[1]], [ids[2]]], 'id');
  expect(column(both.value)).toEqual([
    `Error: The data service answered with limited partner id lp_OTHER when asked for ${ids[0]}.`,
    `Error: The data service answered with limited partner id lp_OTHER when asked for ${ids[1]}.`,
    ids[2],
  ]);
  await svc().config({ quirks: { idOverrides: null } });
  const fixed = a.cell('LP_GET', [[ids[0]], [ids[1]], [ids[2]]], 'id');
  expect(column(fixed.value)).toEqual(ids.slice(0, 3));
  expect(fixed.run.ledger.fetches).toBe(2);
});

test('listed partners without a usable id are skipped and counted, in one read; the next replace takes its own table back', async () => {
  await svc().config({
    quirks: { idOverrides: { [ids[3]]: '', [ids[4]]: null, [ids[5]]: 1, [ids[6]]: '1', [ids[7]]: '  ' } },
  });
  const usable = ids
    .map((id) => (id === ids[6] ? '1' : id))
    .filter((id) => ![ids[3], ids[4], ids[5], ids[7]].includes(id));
  const a = addin(svc().url);
  const active = a.cell('LP_ACTIVE', '', '', 'id', false);
  expect(column(active.value)).toEqual(usable);
  const imp = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'fullName'] });
  for (let run = 0; run < 2; run++) {
    await svc().resetStats();
    const last = runImport(a.emu, imp).pop();
    expect(last).toMatchObject({ status: 'done', rows: usable.length });
    expect(last?.message).toBe(
      `Imported ${usable.length} active limited partners into "Partners". Skipped 4 listed records: 3 without an id, 1 whose id is not text.`,
    );
    expect((await svc().stats()).requests).toBeLessThanOrEqual(2);
    expect(
      sheet(a.emu, 'Partners')
        .slice(1)
        .map((r) => String(r[0])),
    ).toEqual(usable);
  }
  // LP_FIND reads the list itself (its one page: the import started no snapshot, none being kept), and
  // keeps the same partners, none without an id.
  const found = a.cell('LP_FIND', 'a', 'fullName', 5000, false);
  expect(found.run.ledger.fetches).toBe(1);
  expect(column(found.value).every((id) => usable.includes(id as string))).toBe(true);
  const log = sheet(a.emu, 'Investor Data log');
  expect(log.slice(1).map((r) => r[RUN_LOG_HEADER.indexOf('Message')])).toEqual([
    expect.stringContaining('Skipped 4 listed records'),
    expect.stringContaining('Skipped 4 listed records'),
  ]);
});
