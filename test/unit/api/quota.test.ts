/**
 * The quota guard (src/api/quota.ts) through its public surface: the budget's counts at the
 * margin (just under, exactly at, just over), the 24-hour window, concurrent executions summing
 * through their slots, and the guarded transport under the real client (a refused batch is not
 * sent, a cached copy stands in, small requests below the margin still go).
 */
import { Client } from '../../../src/api/client';
import { Memo } from '../../../src/api/memo';
import { allowedFetches, FetchBudget, QUOTA_WINDOW_MS } from '../../../src/api/quota';
import { type HttpResponse, perRequest } from '../../../src/api/transport';
import { FakeClock, FakeTransport, type Handler, json, LimitedStore, nodeCodec } from '../../helpers/fakes';

const POLICY = { dailyLimit: 100, reserve: 0.1 };
const BASE = 'https://data.example.com';
const KEY = 'sk_live_QUOTA_5e4d3c';

function world(seed = 0.5) {
  const clock = new FakeClock(Date.UTC(2026, 10, 23, 9, 30));
  const store = new LimitedStore(clock);
  /** One execution's budget (each execution picks its own slot). */
  const budget = (random = () => seed) => new FetchBudget({ store, now: () => clock.now(), policy: POLICY, random });
  return { clock, store, budget };
}

const byId: Handler = (url) =>
  json(200, { data: [{ id: url.searchParams.get('limitedPartnerId'), fullName: 'N', activeStatus: 'ACTIVE' }] });

function client(w: ReturnType<typeof world>, transport: FakeTransport) {
  const memo = new Memo({
    store: w.store,
    codec: nodeCodec,
    apiKey: KEY,
    baseUrl: BASE,
    ttlMs: 3_600_000,
    invalidatedBefore: 0,
    now: () => w.clock.now(),
  });
  return new Client({
    baseUrl: BASE,
    apiKey: KEY,
    transport: perRequest(
      (r) => transport.fetchAll(r) as HttpResponse[],
      () => w.clock.now(),
      w.budget().admit,
    ),
    clock: w.clock,
    memo,
    random: () => 0.5,
    parallelism: 100,
  });
}

describe('quota guard: the budget', () => {
  test('the margin is the limit minus the reserve: 90 of 100, 18,000 of 20,000, 90,000 of 100,000', () => {
    expect(allowedFetches(POLICY)).toBe(90);
    expect(allowedFetches({ dailyLimit: 20000, reserve: 0.1 })).toBe(18000);
    expect(allowedFetches({ dailyLimit: 100000, reserve: 0.1 })).toBe(90000);
  });

  test('just under and exactly at the margin go; one past it is refused and not counted', () => {
    const w = world();
    const b = w.budget();
    expect(b.admit(89).refusal).toBeUndefined();
    expect(b.usage().used).toBe(89);
    expect(b.admit(1).refusal).toBeUndefined(); // exactly at: 90
    expect(b.usage()).toMatchObject({ used: 90, allowed: 90, dailyLimit: 100 });
    const refused = b.admit(1).refusal;
    expect(refused?.code).toBe('QUOTA');
    expect(refused?.fallsBack).toBe(true);
    expect(refused?.transient).toBe(false);
    expect(b.usage().used).toBe(90);
  });

  test('a batch that would cross the margin goes as far as it fits; the rest is refused and not counted', () => {
    const w = world();
    const b = w.budget();
    expect(b.admit(80).refusal).toBeUndefined();
    const { admitted, refusal } = b.admit(11);
    expect(admitted).toBe(10);
    expect(refusal?.message).toBe(
      'Daily fetch limit nearly reached: 90 of 100 URL fetches used since Nov 23, 09:30 UTC, and this needs 1 more; the add-in keeps the last 10 in reserve. Cached values are shown where available; the count resets by Nov 24, 09:30 UTC.',
    );
    expect(b.usage().used).toBe(90);
    expect(b.admit(1)).toMatchObject({ admitted: 0 });
    expect(b.usage().used).toBe(90);
  });

  test('at the margin the count holds for the whole 24 hours (refusals keep it in the 6-hour cache), then resets', () => {
    const w = world();
    const start = w.clock.now();
    expect(w.budget().admit(90).refusal).toBeUndefined();
    for (const hours of [5, 10, 15, 20, 23.9]) {
      w.clock.t = start + hours * 3600_000;
      expect(w.budget().admit(1).refusal?.code).toBe('QUOTA');
    }
    expect(w.budget().usage().resetsAt).toBe(start + QUOTA_WINDOW_MS);
    w.clock.t = start + QUOTA_WINDOW_MS;
    expect(w.budget().usage().used).toBe(0);
    expect(w.budget().admit(1).refusal).toBeUndefined();
  });

  test('a window that is over counts nothing: the next fetch opens a new one', () => {
    const w = world();
    const b = w.budget();
    expect(b.admit(50).refusal).toBeUndefined();
    w.clock.t += 3600_000;
    expect(b.admit(40).refusal).toBeUndefined(); // refreshes the slot
    w.clock.t += QUOTA_WINDOW_MS - 3600_000; // the window of the first fetch is over
    expect(w.budget().usage()).toMatchObject({ used: 0 });
    expect(b.admit(90).refusal).toBeUndefined();
    expect(b.usage()).toMatchObject({ used: 90, windowStart: w.clock.now() });
  });

  test('executions in different slots add up exactly; readers sum every slot (seeds swept)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      let x = seed;
      const random = () => (x = (x * 16807) % 2147483647) / 2147483647;
      const w = world();
      let total = 0;
      for (let e = 0; e < 12; e++) {
        const n = 1 + (e % 4);
        expect(w.budget(random).admit(n).refusal).toBeUndefined();
        total += n;
      }
      expect(w.budget(random).usage().used).toBe(total);
    }
  });

  test('two interleaved executions: each keeps its own slot, so neither count is lost', () => {
    const w = world();
    const a = w.budget(() => 0.01);
    const b = w.budget(() => 0.99);
    for (let i = 0; i < 10; i++) {
      expect(a.admit(3).refusal).toBeUndefined();
      expect(b.admit(4).refusal).toBeUndefined();
    }
    expect(w.budget().usage().used).toBe(70);
  });
});

describe('quota guard: under the client', () => {
  test('a cold request that would cross the margin is not sent and says why; a cached copy is served stale', () => {
    const w = world();
    const transport = new FakeTransport(byId);
    const warm = client(w, transport).limitedPartners(['lp_1']);
    expect(warm[0].ok).toBe(true);
    w.budget().admit(89); // now 90: at the margin
    w.clock.t += 2 * 3600_000; // the cached answer is past its lifetime
    const sent = transport.requests.length;
    const [stale, cold] = client(w, transport).limitedPartners(['lp_1', 'lp_2']);
    expect(transport.requests.length).toBe(sent);
    expect(stale.ok && stale.staleSince).toBeGreaterThan(0);
    expect(!cold.ok && cold.error.code).toBe('QUOTA');
    expect(!cold.ok && cold.error.message).toContain('Daily fetch limit nearly reached: 90 of 100');
    expect(!cold.ok && cold.error.message).not.toContain(KEY);
  });

  test('below the margin a request still goes and is counted', () => {
    const w = world();
    w.budget().admit(88);
    const transport = new FakeTransport(byId);
    const [o] = client(w, transport).limitedPartners(['lp_9']);
    expect(o.ok).toBe(true);
    expect(transport.requests).toHaveLength(1);
    expect(w.budget().usage().used).toBe(89);
  });
});
