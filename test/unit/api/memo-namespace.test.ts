/**
 * The cache namespace is (API key, service address): two addresses with the same key never share
 * answers, whether fresh or kept as the last good copy, and the key is in no cache key.
 */
import { Client } from '../../../src/api/client';
import { Memo } from '../../../src/api/memo';
import { FakeClock, FakeTransport, type Handler, json, LimitedStore, nodeCodec } from '../../helpers/fakes';

const KEY = 'shared-key-0123456789';

function clientAt(baseUrl: string, store: LimitedStore, clock: FakeClock, handler: Handler) {
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: KEY,
    baseUrl,
    ttlMs: 3_600_000,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  const transport = new FakeTransport(handler);
  return { client: new Client({ baseUrl, apiKey: KEY, transport, clock, memo, random: () => 0.5 }), transport };
}

const answering =
  (firm: string): Handler =>
  (url) =>
    json(200, { data: [{ id: url.searchParams.get('limitedPartnerId'), firm }] });

test('two service addresses, one key: no answer of one is served for the other', () => {
  const clock = new FakeClock();
  const store = new LimitedStore(clock);
  const first = clientAt('https://one.example.com', store, clock, answering('from one'));
  const [a] = first.client.limitedPartners(['lp_1']);
  expect(a.ok && a.value.firm).toBe('from one');
  const second = clientAt('https://two.example.com', store, clock, answering('from two'));
  const [b] = second.client.limitedPartners(['lp_1']);
  expect(second.transport.requests).toHaveLength(1);
  expect(b.ok && b.value.firm).toBe('from two');
  expect(b.ok && b.staleSince).toBeUndefined();
  const third = clientAt('https://three.example.com', store, clock, () => json(503, { message: 'down' }));
  const [c] = third.client.limitedPartners(['lp_1']);
  expect(c.ok).toBe(false);
  expect([...store.items.keys()].some((k) => k.includes(KEY))).toBe(false);
  const again = clientAt('https://one.example.com', store, clock, answering('changed'));
  expect(again.client.limitedPartners(['lp_1'])[0]).toEqual({ ok: true, value: { id: 'lp_1', firm: 'from one' } });
  expect(again.transport.requests).toHaveLength(0);
});
