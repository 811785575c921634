/**
 * A cell that finds the snapshot holed (the cache lost a bucket holding its ids) and another
 * execution already reading the list again (its claim) waits for that execution's new snapshot
 * (src/api/partners.ts): the holed one it found does not end the wait, as it does not stop the
 * execution that reads. LP_FIND waits the same way for a whole list.
 */
import { POLL_MS } from '../../../src/api/lookup-cache';
import { answers, partnerWorld } from '../../helpers/partner-world';

/** A published snapshot of which the cache lost a bucket; another execution, reading the list again, publishes anew at this cell's third poll. */
function holedWhileReread() {
  const world = partnerWorld();
  world.readRange();
  // Not the ids the first reader looked up: their copies are still in the run's buckets.
  const lost = world.evictBucketOf(world.ids[50]).filter((id) => !world.ids.slice(0, 50).includes(id));
  world.claim('theirs', 'snapshot');
  world.hooks.onSleep = (polls) => {
    if (polls !== 3) return;
    world.readRange(lost.slice(50, 100), 'theirs');
    world.claim('theirs', 'snapshot');
  };
  return { world, lost, mine: world.execution('mine', 120_000) };
}

test('a cell whose ids the holed snapshot lost waits for the new one, and asks for none of them', () => {
  const { world, lost, mine } = holedWhileReread();
  const range = lost.slice(0, 50);
  expect(answers(mine.lookup(range))).toEqual(range);
  expect(world.clock.sleeps).toEqual([POLL_MS, POLL_MS, POLL_MS]);
  expect(mine.listRequests()).toBe(0);
  expect(mine.idRequests()).toEqual([]);
});

test('LP_FIND on a holed snapshot waits for the new one and gets the whole list', () => {
  const { world, mine } = holedWhileReread();
  const all = mine.activeRecords();
  expect(all.records.map((r) => r.id)).toEqual(world.ids);
  expect(all.staleSince).toBeUndefined();
  expect(mine.listRequests()).toBe(0);
});
