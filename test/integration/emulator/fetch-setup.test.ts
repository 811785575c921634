/**
 * The emulator's fetch thread starts with the process's first fetch. Its start-up is the
 * emulator's cost, not the script's: the first fetching execution must be charged what the
 * request took, like every later one. (This file's first fetch is the module's first: Jest loads
 * modules afresh for each test file.)
 */
import { oneShot } from '../../../dev/service/spawn';
import { probe } from '../../helpers/probe';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
const url = () => `${svc.url}/api/limited-partners-data/getAllActiveLimitedPartners?apiKey=${DEMO_KEY}&limit=10&page=1`;
beforeAll(async () => {
  svc = await startService(['--partners', '50', '--latency', '200']);
  // The service's own first answer on a route is slower (its code warms up): asked here, outside the emulator, so only the emulator's start is measured.
  await oneShot(url());
});
afterAll(() => svc.stop());

test("the first fetch of the process is charged the request, not the start of the emulator's fetch thread", () => {
  const emu = probe('function get(u) { return UrlFetchApp.fetch(u).getResponseCode(); }');
  const charged = () => {
    const run = emu.run('get', [url()]);
    expect(run.error ?? run.value).toBe(200);
    return run.ledger.endedAt - run.ledger.startedAt;
  };
  const first = charged();
  const later = [charged(), charged(), charged(), charged(), charged()].sort((a, b) => a - b);
  // Every request waits the service's 200 ms. Measured on this 2-core machine, 42 fresh processes at
  // load average 7: the first is charged 1 to 39 ms more than the median of the next five (most under
  // 15); with the thread's start charged too, 190-700 ms more. The bound lies between the two, nearer
  // the first: 2.5 times its worst.
  expect(first).toBeGreaterThanOrEqual(200);
  expect(first).toBeLessThan(later[2] + 100);
});
