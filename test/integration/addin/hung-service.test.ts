/**
 * A hung service. UrlFetchApp has no per-request timeout, so the first formula
 * that meets a hung service is killed at its 30 s limit (modelled here by killing it once the
 * slow answer comes back). What matters is every formula after it: they must not wait to be
 * killed too, but show their last good value (marked stale) or a short message at once, and
 * the service must be asked again a couple of minutes later.
 */
import { addin } from '../../helpers/addin';
import { type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '300', '--funds', '10']);
});
afterAll(() => svc.stop());

test('after one formula is killed by a hung service, the next ones serve last good values without fetching, and try again later', async () => {
  const a = addin(svc.url);
  a.emu.store(`user:${a.emu.owner}`).set('INVESTOR_DATA_CACHE_TTL_SECONDS', '60');
  const good = a.cell('LP_GET', 'lp_0000a', 'fullName');
  expect(good.error).toBeUndefined();
  a.emu.clock.advance(120_000); // the copy is now only a last good value
  await svc.config({ faults: { slow: 1, slowMs: 1500 } });
  try {
    // The 30 s kill, modelled: the slow answer arrives after the execution's limit.
    const killed = a.emu.run('LP_GET', ['lp_0000a', 'fullName'], { kind: 'custom-function', killAfterMs: 1000 });
    expect(killed.error).toBe('Exceeded maximum execution time');
    a.emu.clock.advance(25_000);
    const next = a.emu.run('LP_GET', ['lp_0000a', 'fullName', true], { kind: 'custom-function', killAfterMs: 1000 });
    expect(next.error).toBeUndefined();
    expect(next.value).toEqual([
      ['fullName', 'stale since'],
      [good.value, expect.any(Date)],
    ]);
    expect(next.ledger.fetches).toBe(0);
    const noCopy = a.emu.run('LP_GET', ['lp_0000b', 'fullName'], { kind: 'custom-function', killAfterMs: 1000 });
    expect(noCopy.error).toMatch(/^The data service has not answered for \d+ s/);
    expect(noCopy.ledger.fetches).toBe(0);
  } finally {
    await svc.config({ faults: { slow: 0 } });
  }
  a.emu.clock.advance(120_000);
  const later = a.cell('LP_GET', 'lp_0000b', 'fullName');
  expect(later.error).toBeUndefined();
  expect(later.run.ledger.fetches).toBe(1);
});
