/**
 * A partner asked for by id whose request fails (src/api/partners.ts): when the failure lets a
 * last good copy stand in, the snapshot's copy is shown, marked stale since the snapshot was
 * read; an id that was answered keeps its fresh answer, and without a snapshot the failure shows.
 */
import { json } from '../../helpers/fakes';
import { partnerWorld } from '../../helpers/partner-world';

test("a failed request falls back to the old snapshot's copy; an answered id keeps its fresh answer", () => {
  const world = partnerWorld();
  const readAt = world.clock.now();
  expect(
    world
      .execution('reader')
      .lookup.lookup(world.ids(0, 50))
      .every((o) => o.ok),
  ).toBe(true);
  world.clock.t += 3_600_000; // the snapshot is no longer fresh
  const [failing, answered] = world.ids(5, 2);
  world.hooks.onId = (id) => (id === failing ? json(500, { error: 'down' }) : undefined);
  const out = world.execution('mine').lookup.lookup([failing, answered]);
  expect(out[0]).toEqual({ ok: true, value: expect.objectContaining({ id: failing }), staleSince: readAt });
  expect(out[1].ok && out[1].value.id).toBe(answered);
  expect(out[1].ok && out[1].staleSince).toBeUndefined();
});

test('without a snapshot, the failure of the request is the answer', () => {
  const world = partnerWorld();
  world.hooks.onId = () => json(500, { error: 'down' });
  const [out] = world.execution('mine').lookup.lookup(world.ids(5, 1));
  expect(out.ok ? 'ok' : out.error.code).toBe('SERVER');
});
