/**
 * The quota guard's count (src/api/quota.ts) where quota.test.ts does not look: the count in
 * words for Diagnostics, the window's start when executions' counts began at different times,
 * counts that are damaged or dated in the future, executions writing between another's read
 * and write, the slot of a random draw at its bound, an empty batch, a slot not of the current
 * form, and writes and refusals that keep the counts of other executions alive in the cache.
 */
import { FetchBudget, QUOTA_WINDOW_MS, type QuotaStore } from '../../../src/api/quota';
import { FakeClock, LimitedStore } from '../../helpers/fakes';

const POLICY = { dailyLimit: 100, reserve: 0.1 };
const HOUR = 3600_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The draw that puts an execution in slot `k` of 16. */
const inSlot = (k: number) => () => (k + 0.5) / 16;

function world(start = Date.UTC(2026, 0, 5, 7, 3)) {
  const clock = new FakeClock(start);
  const store = new LimitedStore(clock);
  const budget = (random: () => number = inSlot(8), on: QuotaStore = store) =>
    new FetchBudget({ store: on, now: () => clock.now(), policy: POLICY, random });
  return { clock, store, budget };
}

/** A store over `store` that runs another execution's work once, between the next read and its caller's write. */
function interleaving(store: LimitedStore) {
  let during: (() => void) | undefined;
  const racing: QuotaStore = {
    getAll: (keys) => {
      const read = store.getAll([...keys]);
      const other = during;
      during = undefined;
      other?.();
      return read;
    },
    putAll: (values, ttl) => store.putAll(values, ttl),
  };
  return {
    store: racing,
    duringNextRead: (work: () => void) => {
      during = work;
    },
  };
}

describe('quota guard: the count in words', () => {
  test('before the first fetch it gives the count alone; after, when the window began and when it resets, in UTC', () => {
    const w = world();
    const tail = "; it stops asking at 90. Google's own count also holds your other scripts' fetches";
    expect(w.budget().describeUsage()).toBe(`0 of 100 counted by the add-in for you${tail}`);
    w.budget().admit(12);
    w.clock.t += 5 * HOUR;
    expect(w.budget().describeUsage()).toBe(
      `12 of 100 counted by the add-in for you since Jan 5, 07:03 UTC (the count resets by Jan 6, 07:03 UTC)${tail}`,
    );
  });

  test('every month is named', () => {
    MONTHS.forEach((name, month) => {
      const w = world(Date.UTC(2026, month, 9, 17, 45));
      w.budget().admit(1);
      expect(w.budget().describeUsage()).toContain(
        `since ${name} 9, 17:45 UTC (the count resets by ${name} 10, 17:45 UTC)`,
      );
    });
  });
});

describe('quota guard: the window', () => {
  test('counts begun at different times: the window starts at the earliest, whichever slot holds it', () => {
    for (const [early, late] of [
      [2, 13],
      [13, 2],
    ]) {
      const w = world();
      const t = w.clock.now();
      w.clock.t = t + HOUR; // one execution's clock runs an hour ahead
      expect(w.budget(inSlot(late)).admit(10).refusal).toBeUndefined();
      w.clock.t = t;
      expect(w.budget(inSlot(early)).admit(5).refusal).toBeUndefined();
      w.clock.t = t + 2 * HOUR;
      expect(w.budget().usage()).toEqual({
        used: 15,
        dailyLimit: 100,
        allowed: 90,
        windowStart: t,
        resetsAt: t + QUOTA_WINDOW_MS,
      });
    }
  });

  test('a count dated after now (a clock that ran ahead) counts nothing yet', () => {
    const w = world();
    const t = w.clock.now();
    w.clock.t = t + HOUR;
    expect(w.budget(inSlot(3)).admit(50).refusal).toBeUndefined();
    w.clock.t = t;
    expect(w.budget().usage()).toEqual({ used: 0, dailyLimit: 100, allowed: 90 });
  });

  test('damaged counts (negative, not a number, infinite) count nothing', () => {
    const clock = new FakeClock();
    for (const n of ['-5', 'abc', 'Infinity', '']) {
      const damaged: QuotaStore = {
        getAll: (keys) => Object.fromEntries(keys.map((k) => [k, `${clock.now()}:${n}`])),
        putAll: () => {},
      };
      const b = new FetchBudget({ store: damaged, now: () => clock.now(), policy: POLICY, random: inSlot(0) });
      expect(b.usage().used).toBe(0);
      expect(b.admit(90)).toEqual({ admitted: 90 });
    }
  });
});

describe('quota guard: slots', () => {
  test('an execution that writes between another one’s read and write loses nothing (slot pairs swept)', () => {
    for (let k = 0; k < 16; k++) {
      const w = world();
      const racing = interleaving(w.store);
      const a = w.budget(inSlot(k), racing.store);
      const b = w.budget(inSlot(15 - k), racing.store);
      racing.duringNextRead(() => expect(b.admit(4)).toEqual({ admitted: 4 }));
      expect(a.admit(3)).toEqual({ admitted: 3 });
      expect(w.budget().usage().used).toBe(7);
    }
  });

  test('a count saved within the hour is left to its execution: one adding to it meanwhile loses nothing', () => {
    const w = world();
    expect(w.budget(inSlot(1)).admit(5)).toEqual({ admitted: 5 });
    w.clock.t += HOUR - 1;
    const racing = interleaving(w.store);
    const owner = w.budget(inSlot(1), racing.store);
    racing.duringNextRead(() => expect(owner.admit(4)).toEqual({ admitted: 4 }));
    expect(w.budget(inSlot(0), racing.store).admit(3)).toEqual({ admitted: 3 });
    expect(w.budget().usage().used).toBe(12);
  });

  test('a slot not of the current form (no save time) counts nothing, and the window starts with the next count', () => {
    const w = world();
    const t = w.clock.now();
    w.store.putAll({ 'fetches:3': `${t}:40` }, 21600);
    expect(w.budget().usage()).toEqual({ used: 0, dailyLimit: 100, allowed: 90 });
    w.clock.t = t + 2 * HOUR;
    expect(w.budget(inSlot(8)).admit(10)).toEqual({ admitted: 10 });
    expect(w.budget().usage()).toMatchObject({ used: 10, windowStart: t + 2 * HOUR });
  });

  test('fetches asked for every 5 hours or less keep every count of the window alive in the 6-hour cache', () => {
    for (let k = 0; k < 16; k++) {
      const w = world();
      const t = w.clock.now();
      let total = 0;
      for (let e = 0; e * 4.9 < 24; e++) {
        w.clock.t = t + e * 4.9 * HOUR;
        expect(w.budget(inSlot((k + e) % 16)).admit(e + 1)).toEqual({ admitted: e + 1 });
        total += e + 1;
      }
      w.clock.t = t + 23.9 * HOUR;
      expect({ k, used: w.budget().usage().used }).toEqual({ k, used: total });
    }
  });

  test('a random draw at its very top still lands in a slot that is counted', () => {
    const w = world();
    expect(w.budget(() => 1).admit(5)).toEqual({ admitted: 5 });
    expect(w.budget(() => 1).admit(6)).toEqual({ admitted: 6 });
    expect(w.budget().usage().used).toBe(11);
  });
});

describe('quota guard: batches', () => {
  test('an empty batch is admitted whole without asking the store', () => {
    const w = world();
    w.budget().admit(90);
    const b = w.budget();
    const reads = w.store.getAllCalls;
    expect(b.admit(0)).toEqual({ admitted: 0 });
    expect(w.store.getAllCalls).toBe(reads);
  });

  test('a batch within the margin is admitted whole, with no refusal', () => {
    const w = world();
    expect(w.budget().admit(40)).toEqual({ admitted: 40 });
    expect(w.budget().admit(50)).toEqual({ admitted: 50 });
  });

  test('refusals by an execution in another slot keep the counts alive in the 6-hour cache for the whole window', () => {
    const w = world();
    const t = w.clock.now();
    expect(w.budget(inSlot(0)).admit(90).refusal).toBeUndefined();
    for (const hours of [5, 10, 15, 20, 23.9]) {
      w.clock.t = t + hours * HOUR;
      expect(w.budget(inSlot(15)).admit(1)).toMatchObject({ admitted: 0, refusal: { code: 'QUOTA' } });
    }
    expect(w.budget().usage().used).toBe(90);
  });
});
