/**
 * A service client over the fakes of `fakes.ts`: a scripted transport, a manual clock, and a memo
 * on a cache store with Apps Script's limits (or the store a test passes in, to share it between
 * two clients or to watch it). Jitter sits at its middle, so waits are exact.
 */
import { Client, type ClientOptions } from '../../src/api/client';
import { Memo } from '../../src/api/memo';
import { FakeClock, FakeTransport, type Handler, type LimitedStore, nodeCodec } from './fakes';

export const TEST_BASE = 'https://data.example.com';

/** A memo on `store` for `apiKey` at TEST_BASE, entries fresh for `ttlMs` (a minute unless given). */
export function memoFor(store: LimitedStore, clock: FakeClock, apiKey: string, ttlMs = 60_000): Memo {
  return new Memo({
    store,
    codec: nodeCodec,
    apiKey,
    baseUrl: TEST_BASE,
    ttlMs,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
}

export function setupClient<S extends LimitedStore>(
  handler: Handler,
  apiKey: string,
  store: (clock: FakeClock) => S,
  options: Partial<ClientOptions> & { clock?: FakeClock; store?: S } = {},
) {
  const clock = options.clock ?? new FakeClock();
  const shared = options.store ?? store(clock);
  const transport = new FakeTransport(handler);
  const memo = memoFor(shared, clock, apiKey);
  const client = new Client({ baseUrl: TEST_BASE, apiKey, transport, clock, memo, random: () => 0.5, ...options });
  return { client, transport, clock, store: shared, memo };
}
