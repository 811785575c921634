/**
 * The emulator's fetch thread starts with the process's first fetch. Its start-up is the
 * emulator's cost, not the script's: the first fetching execution must be charged what the
 * request took, like every later one. (This file's first fetch is the module's first: Jest loads
 * modules afresh for each test file.)
 */
import { probe } from '../../helpers/probe';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '50', '--latency', '200']);
});
afterAll(() => svc.stop());

test('the first fetch of the process is charged the request, not the start of the emulator\'s fetch thread', () => {
  const emu = probe('function get(u) { return UrlFetchApp.fetch(u).getResponseCode(); }');
  const url = `${svc.url}/api/limited-partners-data/getAllActiveLimitedPartners?apiKey=${DEMO_KEY}&limit=10&page=1`;
  const charged = () => {
    const run = emu.run('get', [url]);
    expect(run.error ?? run.value).toBe(200);
    return run.ledger.endedAt - run.ledger.startedAt;
  };
  const first = charged();
  const later = [charged(), charged(), charged(), charged(), charged()].sort((a, b) => a - b);
  // Every request waits the service's 200 ms; the thread's start (0.3-1.5 s here) must not be added to the first.
  expect(first).toBeGreaterThanOrEqual(200);
  expect(first).toBeLessThan(later[2] + 150);
});
