/**
 * A cell that finds another execution reading the active list (its claim in the cache) waits for
 * that read instead of reading the list a second time (src/api/partners.ts): it polls until the
 * snapshot is published or its own answers are left in the run's buckets, and gives up when the
 * claim is let go, when the claim is abandoned (older than CLAIM_MS), after CLAIM_MS of waiting,
 * or when it has only the time it keeps for its own requests. Then it asks for its ids one by one.
 */
import { CLAIM_MS, POLL_MS } from '../../../src/api/lookup-cache';
import { answers, partnerWorld } from '../../helpers/partner-world';

/** Another execution holds the claim on reading the list, and publishes the snapshot at this cell's third poll (its claim not let go yet). */
function publishedAtThirdPoll() {
  const world = partnerWorld();
  world.claim('theirs', 'snapshot');
  const mine = world.execution('mine', 120_000);
  world.hooks.onSleep = (polls) => {
    if (polls !== 3) return;
    expect(answers(world.execution('theirs').lookup(world.ids.slice(100, 150)))).toEqual(world.ids.slice(100, 150));
    world.claim('theirs', 'snapshot');
  };
  return { world, mine };
}

test('the reader publishes the snapshot while this cell waits: it answers from the snapshot, asking nothing', () => {
  const { world, mine } = publishedAtThirdPoll();
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(world.clock.sleeps).toEqual([POLL_MS, POLL_MS, POLL_MS]);
  expect(mine.listRequests()).toBe(0);
  expect(mine.idRequests()).toEqual([]);
});

test('the reader lets its claim go without publishing: the cell stops waiting at once and asks for its ids', () => {
  const world = partnerWorld();
  world.claim('theirs', 'snapshot');
  const mine = world.execution('mine', 120_000);
  world.hooks.onSleep = (polls) => {
    if (polls === 2) world.release('snapshot');
  };
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(world.clock.sleeps.length).toBe(2);
  expect(mine.listRequests()).toBe(0);
  expect(mine.idRequests()).toEqual(world.ids.slice(0, 50));
});

test('a claim left by an execution that died is abandoned once it is CLAIM_MS old, not waited on longer', () => {
  const world = partnerWorld();
  world.claim('theirs', 'snapshot');
  world.clock.t += 10_000;
  const mine = world.execution('mine', 120_000);
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  // The claim turns CLAIM_MS old after 15 s of waiting: 50 polls.
  expect(world.clock.sleeps.length).toBe((CLAIM_MS - 10_000) / POLL_MS);
  expect(mine.idRequests()).toEqual(world.ids.slice(0, 50));
});

test('a reader that keeps renewing its claim is waited for CLAIM_MS at most', () => {
  const world = partnerWorld();
  world.claim('theirs', 'snapshot');
  const mine = world.execution('mine', 120_000);
  world.hooks.onSleep = (polls) => {
    if (polls === 1) world.clock.t += 100; // one slow poll: the wait ends exactly CLAIM_MS after it began
    if (polls < 1000) world.claim('theirs', 'snapshot');
  };
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(world.clock.sleeps.length).toBe((CLAIM_MS - 100) / POLL_MS);
  expect(mine.idRequests()).toEqual(world.ids.slice(0, 50));
});

test('the cell stops waiting when only the time it keeps for its own requests is left', () => {
  const world = partnerWorld();
  world.claim('theirs', 'snapshot');
  // 1.5 s margin at the deadline, 8 s kept for its own requests, and ten polls' worth of waiting.
  const mine = world.execution('mine', 1_500 + 8_000 + 10 * POLL_MS);
  world.hooks.onSleep = (polls) => {
    if (polls < 1000) world.claim('theirs', 'snapshot');
  };
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(world.clock.sleeps.length).toBe(10);
  expect(mine.idRequests()).toEqual(world.ids.slice(0, 50));
});

test('LP_FIND waits for the reader too, and gets the whole list once it is published', () => {
  const { world, mine } = publishedAtThirdPoll();
  const all = mine.activeRecords();
  expect(all.records.map((r) => r.id)).toEqual(world.ids);
  expect(all.staleSince).toBeUndefined();
  expect(world.clock.sleeps.length).toBe(3);
  expect(mine.listRequests()).toBe(0);
});

test("the reader leaves the column's answers before the snapshot: a waiting cell of the column stops at them", () => {
  const world = partnerWorld();
  world.claim('theirs', 'snapshot');
  const mine = world.execution('mine', 120_000);
  const column = world.ids.slice(0, 150);
  world.hooks.onSleep = (polls) => {
    if (polls !== 2) return;
    // The reader's pages after the first take 22.5 s: 6 s are left, enough for the copies, not the snapshot.
    world.hooks.onList = (page) => {
      if (page === 2) world.clock.t += 22_500;
      return undefined;
    };
    const theirs = world.execution('theirs');
    const out = theirs.lookup([column[100]], () => ({ ids: column.slice(100, 110), column, group: 'S:2:100' }));
    expect(answers(out)).toEqual([column[100]]);
    world.hooks.onList = undefined;
  };
  expect(answers(mine.lookup(column.slice(0, 50)))).toEqual(column.slice(0, 50));
  expect(world.clock.sleeps.length).toBe(2);
  expect(mine.listRequests()).toBe(0);
  expect(mine.idRequests()).toEqual([]);
  // No snapshot was written: a partner outside the column is asked for.
  const later = world.execution('later');
  expect(answers(later.lookup([world.ids[250]]))).toEqual(world.ids.slice(250, 251));
  expect(later.idRequests()).toEqual(world.ids.slice(250, 251));
});
