/**
 * A cell that finds another execution reading the active list (its claim in the cache) but has
 * only the time it keeps for its own requests (src/api/partners.ts) does not wait for that read;
 * it still looks once at what the read has already left, as a waiting cell does at each poll: the
 * snapshot, when published, or its own answers in the run's buckets. Only what neither holds is
 * asked for one by one.
 */
import { POLL_MS } from '../../../src/api/lookup-cache';
import { answers, partnerWorld } from '../../helpers/partner-world';

/** The time a cell keeps for its own requests, less than a poll: too little to wait at all (the client keeps 1.5 s at its deadline). */
const NO_TIME_TO_WAIT = 1_500 + 8_000 - POLL_MS;

test.each([
  ['less than the time it keeps', NO_TIME_TO_WAIT],
  ['just the time it keeps', NO_TIME_TO_WAIT + POLL_MS],
])(
  'the snapshot another execution has just published (its claim still held) answers the cell with %s, with no request',
  (_, budget) => {
    const world = partnerWorld();
    const mine = world.execution('mine', budget);
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
  },
);

test("the reader's copies of the column answer the cell before the snapshot is written, with no request", () => {
  const world = partnerWorld();
  const column = world.ids.slice(0, 150);
  const mine = world.execution('mine', 30_000);
  const out = mine.lookup(column.slice(0, 50), () => {
    // The other execution's pages after the first take 22.5 s: it leaves the column's copies, not
    // the snapshot, and this cell is left with too little time to wait.
    world.hooks.onList = (page) => {
      if (page === 2) world.clock.t += 22_500;
      return undefined;
    };
    const theirs = world.execution('theirs', 30_000);
    const first = theirs.lookup([column[100]], () => ({ ids: column.slice(100, 110), column, group: 'S:2:100' }));
    expect(answers(first)).toEqual([column[100]]);
    world.hooks.onList = undefined;
    world.claim('theirs', 'snapshot');
    expect(mine.client.timeLeft()).toBeLessThan(8_000);
    return undefined;
  });
  expect(answers(out)).toEqual(column.slice(0, 50));
  expect(world.clock.sleeps).toEqual([]);
  expect(mine.listRequests()).toBe(0);
  expect(mine.idRequests()).toEqual([]);
  // No snapshot was written: a partner outside the column is asked for.
  const later = world.execution('later');
  expect(answers(later.lookup([world.ids[250]]))).toEqual(world.ids.slice(250, 251));
  expect(later.idRequests()).toEqual(world.ids.slice(250, 251));
});
