/**
 * The quota guard over a whole day of ordinary use: an execution every hour (a scheduled import,
 * say) fetching a thousand pages, each execution counting in its own slot of the user cache (whose
 * items live 6 hours at most). Google counts every fetch of the 24-hour window, so the guard must
 * stop at its margin within that window, whenever the fetches came.
 */
import { allowedFetches, DEFAULT_QUOTA_POLICY, FetchBudget } from '../../../src/api/quota';
import { FakeClock, LimitedStore } from '../../helpers/fakes';

const HOUR = 3600_000;

describe('quota guard over a day of hourly executions', () => {
  test('never admits more than its margin within one 24-hour window', () => {
    // Every slot assignment an execution can draw, in turn (no lucky draw: each of the 16 is used).
    for (let offset = 0; offset < 16; offset++) {
      const clock = new FakeClock(Date.UTC(2026, 0, 5, 6, 0));
      const store = new LimitedStore(clock);
      let admitted = 0;
      for (let hour = 0; hour < 23; hour++) {
        const slot = (hour + offset) % 16;
        const budget = new FetchBudget({
          store,
          now: () => clock.now(),
          policy: DEFAULT_QUOTA_POLICY,
          random: () => (slot + 0.5) / 16,
        });
        // One execution: 50 batches of 20 fetches.
        for (let batch = 0; batch < 50; batch++) admitted += budget.admit(20).admitted;
        clock.t += HOUR;
      }
      expect({ offset, admitted }).toEqual({ offset, admitted: allowedFetches(DEFAULT_QUOTA_POLICY) });
    }
  });
});
