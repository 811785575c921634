/**
 * A cell that finds another execution reading the active list (its claim in the cache) but has
 * only the time it keeps for its own requests (src/api/partners.ts) does not wait for that read;
 * it still looks once at what the read has already left, as a waiting cell does at each poll: the
 * snapshot, when published. Only what it does not hold is asked for one by one.
 */
import { POLL_MS } from '../../../src/api/partners';
import { answers, partnerWorld } from '../../helpers/partner-world';

/** The time a cell keeps for its own requests, less than a poll: too little to wait at all (the client keeps 1.5 s at its deadline). */
const NO_TIME_TO_WAIT = 1_500 + 8_000 - POLL_MS;

test('the snapshot another execution has just published (its claim still held) answers the cell, with no request', () => {
  const world = partnerWorld();
  const mine = world.execution('mine', NO_TIME_TO_WAIT);
  const range = world.ids.slice(0, 50);
  // While this cell reads its neighbours, the other execution reads the list, publishes it, and keeps its claim.
  const out = mine.lookup(range, () => {
    world.readRange(world.ids.slice(100, 150), 'theirs');
    world.claim('theirs', 'snapshot');
    return undefined;
  });
  expect(answers(out)).toEqual(range);
  expect(world.clock.sleeps).toEqual([]);
  expect(mine.listRequests()).toBe(0);
  expect(mine.idRequests()).toEqual([]);
});
