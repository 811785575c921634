/**
 * LP_ACTIVE over every page, in the emulator against the reference service, while page 1 is still
 * fresh in the cache from an LP_ACTIVE(1, …) computed a minute before and the list has moved since
 * (one partner on page 1 left, one joined at the end). The formula shows the list as it is now, or
 * an error; never a list that holds the partner who left and lacks one listed at both moments.
 */
import { addin } from '../../helpers/addin';
import { activeIds, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '250', '--max-page-size', '100']);
});
afterAll(() => svc.stop());

test('LP_ACTIVE with no page, after LP_ACTIVE(1) and a move of the list, is the list as it is now or an error', async () => {
  const before = await activeIds(svc);
  const joining = before[before.length - 1];
  await svc.mutate({ deactivate: [joining] });
  const a = addin(svc.url);
  a.cell('LP_ACTIVE', 1, 100, 'id', false);
  // Partner 50 of the list leaves it; the partner left out above joins it again, at its end.
  await svc.mutate({ deactivate: [before[50]], reactivate: [joining] });
  a.emu.advance(60_000);
  const now = await activeIds(svc);
  const value = a.cell('LP_ACTIVE', '', 100, 'id', false).value;
  const shown = Array.isArray(value) ? (value as unknown[][]).map((r) => r[0]) : now;
  expect(shown).toEqual(now);
});
