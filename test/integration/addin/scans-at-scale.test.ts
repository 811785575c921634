/**
 * Formulas over the whole active list at scale, through the deployed bundle: 10,000 active
 * partners ranked for a demo fund, warm (the snapshot filled by an earlier formula), cost no
 * partner request and one request for the fund, within the 30 s custom-function limit with most of
 * it to spare; LP_MATCH and LP_FIND read the column copies of the fields they use, not every
 * field of every partner.
 */
import { addin, ownCalls } from '../../helpers/addin';
import { activeIds, DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '11820', '--preload']);
}, 60_000);
afterAll(() => svc.stop());

test('10,000 partners ranked warm: 0 partner requests, 1 fund request, under a third of the 30 s limit', async () => {
  expect((await activeIds(svc)).length).toBeGreaterThanOrEqual(10_000);
  // On the modelled clock: CPU time, not the wall time a loaded machine stretches.
  const a = addin(svc.url, DEMO_KEY, { modelledClock: { latencyMs: 0 } });
  const cold = a.cell('LP_FILTER', '', 'id', '', 1);
  expect(cold.error).toBeUndefined();
  await svc.resetStats();
  const warm = a.cell('LP_MATCH', 'vf_0005', 20000, 'fullName', '', false);
  const stats = await svc.stats();
  expect(warm.error).toBeUndefined();
  expect(stats.byOperation).toEqual({ getVentureFundById: 1 });
  const rows = warm.value as unknown[][];
  expect(rows.length).toBeGreaterThan(9000);
  expect(rows[0][0]).toBe(1);
  const scores = rows.map((r) => r[3] as number);
  expect(scores.every((s, i) => i === 0 || s <= scores[i - 1])).toBe(true);
  const emulatedMs = warm.run.ledger.endedAt - warm.run.ledger.startedAt;
  expect(warm.run.ledger.timedOut).toBe(false);
  expect(emulatedMs).toBeLessThan(10_000);
  // The first copied the columns it reads; the next reads those copies (nine fields), not the snapshot's 50-odd buckets.
  const again = a.cell('LP_MATCH', 'vf_0005', 20000, 'fullName', '', false);
  expect(again.value).toEqual(warm.value);
  expect(ownCalls(again.run.ledger)['Utilities.ungzip'] ?? 0).toBeLessThanOrEqual(12);
}, 120_000);

test('LP_FIND over 10,000 partners reads the copies of the fields it searches and shows, not the buckets', () => {
  const a = addin(svc.url, DEMO_KEY, { modelledClock: { latencyMs: 0 } });
  expect(a.cell('LP_FILTER', '', 'id', '', 1).error).toBeUndefined();
  const first = a.cell('LP_FIND', 'group', 'firm', 50, false);
  expect(first.error).toBeUndefined();
  expect((first.value as unknown[][]).length).toBeGreaterThan(10);
  // The first copied the columns it reads (seven fields and the id): the next reads those copies, not the 50-odd buckets.
  const again = a.cell('LP_FIND', 'group', 'firm', 50, false);
  expect(again.value).toEqual(first.value);
  expect(again.run.ledger.fetches).toBe(0);
  expect(ownCalls(again.run.ledger)['Utilities.ungzip'] ?? 0).toBeLessThanOrEqual(8);
}, 120_000);
