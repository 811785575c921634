/**
 * The quota guard in the deployed bundle against the reference service, with the emulator's
 * daily fetch quota and the add-in's limit set small (100; the guard stops at 90): formulas just
 * under, exactly at and just over the margin, a cold formula that would cross it, an import that
 * crosses it mid-run (fails with the message, sheet intact), and the sidebar's count, which must
 * agree with the fetches the emulator (Google) counted; near the margin, a formula filled down
 * still answers its own cell when the batch with its neighbours would cross it.
 */
import { fundId, partnerId } from '../../../dev/service/generate';
import { addin, fillDownAndRecalculate } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, startService } from '../../helpers/service';

const LIMIT = 100;
let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '1000', '--max-page-size', '100']);
});
afterAll(() => svc.stop());

function small() {
  const a = addin(svc.url, undefined, { fetchQuota: LIMIT });
  a.emu.store('script').set('INVESTOR_DATA_DAILY_FETCH_LIMIT', String(LIMIT));
  return a;
}
// Venture funds: always one request per id (limited partners in numbers go through the partner snapshot).
const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => [fundId(from + i)]);
const counted = (a: ReturnType<typeof small>) => {
  const s = call(a.emu, 'getSidebarState', []);
  if (!s.ok) throw new Error(s.message);
  return s.fetches;
};

describe('quota guard in the bundle', () => {
  test('just under and exactly at the margin the formulas go; one past it says so and sends nothing; a cached copy is served stale', () => {
    const a = small();
    expect(a.cell('FUND_GET', ids(100, 89), 'id').run.ledger.fetches).toBe(89);
    expect(counted(a)).toMatchObject({ used: 89, dailyLimit: LIMIT, allowed: 90 });
    const at = a.cell('FUND_GET', ids(200, 1), 'id');
    expect(at.run.ledger.fetches).toBe(1);
    expect(at.value).toEqual(ids(200, 1));
    const over = a.cell('FUND_GET', ids(300, 2), 'id');
    expect(over.run.ledger.fetches).toBe(0);
    expect(over.error ?? over.value).toEqual(
      expect.stringContaining('Daily fetch limit nearly reached: 90 of 100 URL fetches used since'),
    );
    expect(over.error ?? over.value).toEqual(expect.stringContaining('the count resets by'));
    expect(a.emu.quota.used).toBe(90);
    expect(counted(a).used).toBe(90);
    // A warm answer needs no fetch; one past its lifetime is served stale instead of spending the reserve.
    expect(a.cell('FUND_GET', fundId(200), 'id').value).toBe(fundId(200));
    a.emu.advance(2 * 3600_000);
    const stale = a.cell('FUND_GET', fundId(200), 'id');
    expect(stale.run.ledger.fetches).toBe(0);
    expect((stale.value as unknown[][])[0][0]).toBe(fundId(200));
    expect((stale.value as unknown[][])[0]).toHaveLength(2);
  });

  test('a cold formula that would cross the margin sends the ids that fit; the rest say why', () => {
    const a = small();
    expect(a.cell('FUND_GET', ids(100, 80), 'id').run.ledger.fetches).toBe(80);
    const cold = a.cell('FUND_GET', ids(200, 11), 'id');
    expect(cold.run.ledger.fetches).toBe(10);
    const rows = cold.value as unknown[][];
    expect(rows.slice(0, 10)).toEqual(ids(200, 10));
    expect(String(rows[10][0])).toContain('and this needs 1 more');
    expect(a.cell('FUND_GET', ids(300, 1), 'id').run.ledger.fetches).toBe(0);
    expect(a.emu.quota.used).toBe(counted(a).used);
  });

  test('an import that crosses the margin mid-run fails with the message and leaves the sheet intact', () => {
    const a = small();
    const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'fullName'] });
    const first = runImport(a.emu, id);
    expect(first[first.length - 1].status).toBe('done');
    const before = sheet(a.emu, 'Partners');
    expect(before.length).toBeGreaterThan(800);
    const spent = counted(a).used;
    expect(spent).toBe(a.emu.quota.used);
    // Leave room for the first page only: the batch of the other pages would cross the margin.
    a.cell('FUND_GET', ids(100, 89 - spent), 'id');
    const second = runImport(a.emu, id);
    const last = second[second.length - 1];
    expect(last.status).toBe('failed');
    expect(last.message).toMatch(
      /^Daily fetch limit nearly reached: 90 of 100 URL fetches used since .*The sheet "Partners" keeps its previous data\.$/,
    );
    expect(sheet(a.emu, 'Partners')).toEqual(before);
    expect(a.emu.quota.used).toBe(90);
    expect(counted(a)).toMatchObject({ used: 90, resetsAt: expect.any(Number) });
  });

  test('near the margin a filled-down LP_GET still answers its own cell when its neighbours would cross it', async () => {
    const a = small();
    a.cell('FUND_GET', ids(100, 80), 'id');
    // 20 partners (too few to read the list): each cold cell asks for its neighbours along with its own id.
    const partners = Array.from({ length: 20 }, (_, i) => partnerId(i + 1));
    const cells = await fillDownAndRecalculate(
      a.emu,
      { sheet: 'Fill', ids: partners, name: 'LP_GET', rest: ['id'] },
      { concurrency: 1 },
    );
    const loaded = cells.filter(
      (c) => c.error === undefined && JSON.stringify(c.value) === JSON.stringify(partners[c.row - 2]),
    );
    // The 10 fetches left before the margin answer 10 cells, one each; the rest say the limit is near, and nothing crossed it.
    expect(loaded.map((c) => c.row)).toEqual(Array.from({ length: 10 }, (_, i) => i + 2));
    for (const c of cells.slice(10))
      expect(c.error ?? c.value).toEqual(expect.stringContaining('Daily fetch limit nearly reached'));
    expect(a.emu.quota.used).toBe(90);
    expect(counted(a).used).toBe(90);
  });
});
