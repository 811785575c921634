/**
 * `Client.whole`, an answer made of requests and kept as one cache entry (a list formula's
 * answer): each operation's answers are kept apart even for the same query, a client without a
 * cache makes the answer each time, and an error that is no service error (a bug in the code that
 * makes the answer) is thrown, never shown as the service's.
 */
import { Client } from '../../../src/api/client';
import { ServiceError } from '../../../src/api/errors';
import { setupClient, TEST_BASE } from '../../helpers/client-setup';
import { FakeClock, FakeTransport, json, LimitedStore } from '../../helpers/fakes';

const KEY = 'sk_live_SECRET_whole_7';
const setup = () =>
  setupClient(
    () => json(500, {}),
    KEY,
    (clock) => new LimitedStore(clock),
  );

test('two operations asked the same query keep separate answers', () => {
  const { client } = setup();
  expect(client.whole('getAllActiveLimitedPartners', { page: 1 }, () => 'partners')).toEqual({
    ok: true,
    value: 'partners',
  });
  expect(client.whole('getIndustriesByVentureFundId', { page: 1 }, () => 'industries')).toEqual({
    ok: true,
    value: 'industries',
  });
  expect(client.whole('getAllActiveLimitedPartners', { page: 1 }, () => 'again')).toEqual({
    ok: true,
    value: 'partners',
  });
});

test('without a cache, the answer is made each time', () => {
  const clock = new FakeClock();
  const client = new Client({
    baseUrl: TEST_BASE,
    apiKey: KEY,
    transport: new FakeTransport(() => json(500, {})),
    clock,
  });
  let made = 0;
  const make = () => ++made;
  expect(client.whole('getAllActiveLimitedPartners', { page: 'all' }, make)).toEqual({ ok: true, value: 1 });
  expect(client.whole('getAllActiveLimitedPartners', { page: 'all' }, make)).toEqual({ ok: true, value: 2 });
});

test('an error that is no service error is thrown, even with a last good answer kept', () => {
  const { client, clock } = setup();
  client.whole('getAllActiveLimitedPartners', { page: 'all' }, () => 'good');
  clock.t += 10 * 60_000;
  expect(() =>
    client.whole('getAllActiveLimitedPartners', { page: 'all' }, () => {
      throw new TypeError('a bug');
    }),
  ).toThrow(TypeError);
  const down = client.whole('getAllActiveLimitedPartners', { page: 'all' }, () => {
    throw new ServiceError('SERVER', 'The data service failed (HTTP 503).');
  });
  expect(down).toMatchObject({ ok: true, value: 'good' });
});
