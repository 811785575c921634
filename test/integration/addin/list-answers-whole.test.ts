/**
 * A list formula's answer is one moment's list, kept whole: in the emulator against the reference
 * service, LP_ACTIVE over every page and FUND_INDUSTRIES recalculated while fresh cost no request
 * and give the same list; and when the service fails later, LP_ACTIVE over every page shows the
 * whole last good list, marked stale, even when a page of it was shown again by another formula
 * after the list moved (never that page's partners next to the older pages').
 */
import { addin } from '../../helpers/addin';
import { activeIds, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '250', '--max-page-size', '100']);
});
afterAll(() => svc.stop());

const firstColumn = (value: unknown) => (value as unknown[][]).map((r) => r[0]);

test('LP_ACTIVE over every page and FUND_INDUSTRIES, recalculated while fresh, give the same list without a request', () => {
  const a = addin(svc.url);
  for (const args of [
    ['LP_ACTIVE', '', 100, 'id', false],
    ['FUND_INDUSTRIES', 'vf_0003', '', 1],
  ] as const) {
    const [name, ...rest] = args;
    const cold = a.cell(name, ...rest);
    expect(cold.error).toBeUndefined();
    expect(cold.run.ledger.fetches).toBeGreaterThan(0);
    const warm = a.cell(name, ...rest);
    expect(warm.value).toEqual(cold.value);
    expect(warm.run.ledger.fetches).toBe(0);
  }
});

test('LP_ACTIVE over every page, when the service fails, is the whole last good list, not a page shown later mixed in', async () => {
  const a = addin(svc.url);
  a.emu.store(`user:${a.emu.owner}`).set('INVESTOR_DATA_CACHE_TTL_SECONDS', '60');
  const before = await activeIds(svc);
  const whole = a.cell('LP_ACTIVE', '', 100, 'id', false);
  expect(firstColumn(whole.value)).toEqual(before);
  // Partner 10 leaves the list; page 1 is shown again as it is now, then the service goes down.
  await svc.mutate({ deactivate: [before[10]] });
  a.emu.advance(120_000);
  expect(firstColumn(a.cell('LP_ACTIVE', 1, 100, 'id', false).value)).not.toContain(before[10]);
  a.emu.advance(120_000);
  await svc.config({ faults: { error503: 1 } });
  try {
    const stale = a.cell('LP_ACTIVE', '', 100, 'id', false).value as unknown[][];
    expect(stale.map((r) => r[0])).toEqual(before);
    expect(stale.every((r) => r[1] instanceof Date)).toBe(true);
  } finally {
    await svc.config({ faults: { error503: 0 } });
  }
});
