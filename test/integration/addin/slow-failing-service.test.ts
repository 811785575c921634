/**
 * A service that answers slowly and fails (HTTP 503 after 7 s, an overloaded gateway): far from
 * hung (no fetch goes 20 s without an answer), yet every attempt costs 7 s. A formula whose id has
 * a last good copy must show that copy, marked stale, within its 30 s; the client must not start
 * an attempt that cannot end before the custom function is killed. The emulator charges each
 * request a modelled 7 s (its modelled clock), so the test takes no real time for it.
 */
import { addin } from '../../helpers/addin';
import { type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '50']);
});
afterAll(() => svc.stop());

test('LP_GET with a last good copy, the service failing after 7 s an attempt: the copy, marked stale, not a killed cell', async () => {
  const a = addin(svc.url, undefined, { modelledClock: { latencyMs: 7000 } });
  expect(a.cell('LP_GET', 'lp_0000a', 'id').value).toBe('lp_0000a');
  // Two hours later (past the cache lifetime) the service fails every request.
  a.emu.advance(2 * 3600_000);
  await svc.config({ faults: { error503: 1 } });
  const cell = a.cell('LP_GET', 'lp_0000a', 'id');
  expect({ error: cell.error, id: [cell.value].flat(2)[0] }).toEqual({
    error: undefined,
    id: 'lp_0000a',
  });
});
