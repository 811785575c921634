/**
 * What the quota guard (src/api/quota.ts) writes to the cache: nothing for a batch it refuses
 * whole while every count was saved within the hour (a refusal costs no write), and a count saved
 * exactly an hour ago is saved again (so that it outlives the cache's lifetime).
 */
import { FetchBudget, type QuotaStore } from '../../../src/api/quota';
import { FakeClock, LimitedStore } from '../../helpers/fakes';

const POLICY = { dailyLimit: 100, reserve: 0.1 };
const HOUR = 3600_000;

function world() {
  const clock = new FakeClock(Date.UTC(2026, 0, 5, 7, 3));
  const store = new LimitedStore(clock);
  const writes: Array<Record<string, string>> = [];
  const watched: QuotaStore = {
    getAll: (keys) => store.getAll([...keys]),
    putAll: (values, ttl) => {
      writes.push({ ...values });
      store.putAll(values, ttl);
    },
  };
  // Slot 8 of 16 for every execution.
  const budget = () =>
    new FetchBudget({ store: watched, now: () => clock.now(), policy: POLICY, random: () => 8.5 / 16 });
  return { clock, writes, budget };
}

test('a batch refused whole, every count saved within the hour, writes nothing', () => {
  const w = world();
  expect(w.budget().admit(90).admitted).toBe(90);
  w.clock.t += 10 * 60_000;
  const before = w.writes.length;
  expect(w.budget().admit(5).admitted).toBe(0);
  expect(w.writes.length).toBe(before);
});

test('a count saved exactly an hour ago is saved again with the next batch, though nothing is admitted', () => {
  const w = world();
  w.budget().admit(90);
  w.clock.t += HOUR;
  const before = w.writes.length;
  expect(w.budget().admit(5).admitted).toBe(0);
  expect(w.writes.slice(before)).toHaveLength(1);
  expect(Object.values(w.writes[before])[0]).toMatch(new RegExp(`:90:${w.clock.t}$`));
});
