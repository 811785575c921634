/**
 * One formula per row for the per-id functions besides LP_GET (issue 13 item 2): `LP_FIRMS`,
 * `LP_LABELS`, `FUND_GET` and `FUND_LASTSIZE` filled down a column. A cold cell fetches its
 * block of neighbours (200 rows) along with its own id, so the next cells read the cache (cells
 * running at the same time wait for it); every id is asked once, each cell shows what the function shows for that id over a range, and
 * a neighbour's failure is its own cell's business (it asks again), not the batching cell's.
 */
import { fundId, partnerId } from '../../../dev/service/generate';
import type { Ledger } from '../../../dev/emulator/execution';
import { addin, fillDownAndRecalculate } from '../../helpers/addin';
import { type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '400', '--funds', '400']);
});
afterAll(() => svc.stop());
afterEach(() => svc.config({ faults: { error500: 0, error502: 0, error503: 0, rateLimit: 0, truncated: 0, slow: 0 } }));

const ROWS = 250;
const FUNCTIONS = [
  { name: 'LP_FIRMS', ids: Array.from({ length: ROWS }, (_, i) => partnerId(i + 20)) },
  { name: 'LP_LABELS', ids: Array.from({ length: ROWS }, (_, i) => partnerId(i + 20)) },
  { name: 'FUND_GET', ids: Array.from({ length: ROWS }, (_, i) => fundId(i + 20)), rest: ['id,name'] },
  { name: 'FUND_LASTSIZE', ids: Array.from({ length: ROWS }, (_, i) => fundId(i + 20)) },
];
const fetches = (ls: Ledger[]) => ls.reduce((n, l) => n + l.fetches, 0);

/** What the function shows for each id when asked over a range (one execution, no neighbours): the row of each id. */
function overRange(name: string, ids: string[], rest: unknown[] = []): unknown[] {
  const table = addin(svc.url).cell(name, ids.map((id) => [id]), ...rest).value as unknown[][];
  return table.map((row) => (row.length === 1 ? row[0] : [row]));
}

describe.each(FUNCTIONS)('$name filled down 250 rows', ({ name, ids, rest = [] }) => {
  test('one at a time: two cells fetch (one a block of 200 rows), each id once; the rest read the cache; warm, nothing', async () => {
    const expected = overRange(name, ids, rest);
    const a = addin(svc.url);
    const cold = await fillDownAndRecalculate(a.emu, { sheet: 'Fill', ids, name, rest }, { concurrency: 1 });
    expect(cold.map((c) => c.error ?? c.value)).toEqual(expected);
    const fetching = cold.filter((c) => c.run.ledger.fetches > 0).map((c) => [c.row, c.run.ledger.fetches]);
    // Rows 2-200 are the first block, 201-251 the second.
    expect(fetching).toEqual([[2, 199], [201, 51]]);
    const warm = await fillDownAndRecalculate(a.emu, { sheet: 'Fill', ids, name, rest }, { concurrency: 1 });
    expect(fetches(warm.map((c) => c.run.ledger))).toBe(0);
    expect(warm.map((c) => c.error ?? c.value)).toEqual(expected);
  });

  test('10 at once: the cells that find the block claimed wait for its cell and read the cache; each id is asked once', async () => {
    const expected = overRange(name, ids, rest);
    const a = addin(svc.url);
    const cells = await fillDownAndRecalculate(a.emu, { sheet: 'Fill', ids, name, rest }, { concurrency: 10 });
    expect(cells.map((c) => c.error ?? c.value)).toEqual(expected);
    expect(fetches(cells.map((c) => c.run.ledger))).toBe(ROWS);
    expect(cells.filter((c) => (c.run.ledger.calls['Utilities.sleep'] ?? 0) > 0).length).toBeGreaterThan(0);
    expect(cells.every((c) => !c.run.ledger.timedOut)).toBe(true);
  });
});

test('an unknown id among the neighbours is remembered for its own cell; the cells around it load', async () => {
  const ids = Array.from({ length: 30 }, (_, i) => (i === 7 ? 'vf_nope' : fundId(i + 20)));
  const a = addin(svc.url);
  const cells = await fillDownAndRecalculate(a.emu, { sheet: 'Fill', ids, name: 'FUND_LASTSIZE' }, { concurrency: 1 });
  expect(cells[0].run.ledger.fetches).toBe(30);
  expect(cells[7].error).toMatch(/vf_nope/);
  expect(cells[7].run.ledger.fetches).toBe(0);
  expect(cells.filter((c, i) => i !== 7 && c.error !== undefined)).toEqual([]);
});

test.each([1, 2, 3])('with 30 %% of requests failing (seed %i), the batching cell does not retry its neighbours; every cell still loads', async (seed) => {
  const ids = Array.from({ length: 60 }, (_, i) => fundId(i + 100));
  const expected = overRange('FUND_LASTSIZE', ids);
  svc.config({ seed, faults: { error500: 0.1, error503: 0.2 } });
  const a = addin(svc.url);
  const cells = await fillDownAndRecalculate(a.emu, { sheet: 'Fill', ids, name: 'FUND_LASTSIZE' }, { concurrency: 1 });
  expect(cells.map((c) => c.error ?? c.value)).toEqual(expected);
  // The first cell sends each neighbour once; only its own id may be asked again.
  const first = cells[0].run.ledger.fetches;
  expect(first).toBeGreaterThanOrEqual(60);
  expect(first).toBeLessThan(60 + 13);
});
