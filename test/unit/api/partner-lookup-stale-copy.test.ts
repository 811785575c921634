/**
 * A partner asked for by id whose request fails (src/api/partners.ts): when the failure lets a
 * last good copy stand in, the snapshot's copy is answers, marked stale since the snapshot was
 * read; an id that was answered keeps its fresh answer, and without a snapshot the failure shows.
 */
import { json } from '../../helpers/fakes';
import { partnerWorld, TTL_MS } from '../../helpers/partner-world';

test("a failed request falls back to the old snapshot's copy; an answered id keeps its fresh answer", () => {
  const world = partnerWorld();
  const readAt = world.clock.now();
  world.readRange();
  world.clock.t += TTL_MS; // the snapshot is no longer fresh
  const [failing, answered] = world.ids.slice(5, 7);
  world.hooks.onId = (id) => (id === failing ? json(500, { error: 'down' }) : undefined);
  const out = world.execution('mine').lookup([failing, answered]);
  expect(out[0]).toEqual({ ok: true, value: expect.objectContaining({ id: failing }), staleSince: readAt });
  expect(out[1].ok && out[1].value.id).toBe(answered);
  expect(out[1].ok && out[1].staleSince).toBeUndefined();
});

test('without a snapshot, the failure of the request is the answer', () => {
  const world = partnerWorld();
  world.hooks.onId = () => json(500, { error: 'down' });
  const [out] = world.execution('mine').lookup(world.ids.slice(5, 6));
  expect(out.ok ? 'ok' : out.error.code).toBe('SERVER');
});
