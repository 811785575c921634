/**
 * A formula filled down a column (src/api/partners.ts): too few ids to read the list, so the
 * first cell of a block that misses asks for its own id and its neighbours' (own first, at most
 * MAX_NEIGHBOURS requests) under a claim on the block; the neighbours then answer from the
 * cache. A cell whose block another execution is fetching waits for that execution's answers
 * and asks only for what is still missing; other blocks are not held up.
 */
import { MAX_NEIGHBOURS } from '../../../src/api/lookup-cache';
import { answers, partnerWorld } from '../../helpers/partner-world';

const blockOf =
  (ids: string[], group = 'S:2:0') =>
  () => ({ ids, column: ids, group });

test("the first cell of a block asks for its own id first, then its neighbours'; they then answer from the cache", () => {
  const world = partnerWorld();
  const block = world.ids.slice(0, 10);
  const mine = world.execution('mine');
  expect(answers(mine.lookup([block[3]], blockOf(block)))).toEqual([block[3]]);
  expect(mine.idRequests()).toEqual([block[3], ...block.filter((id) => id !== block[3])]);
  const next = world.execution('next');
  for (const id of block) expect(answers(next.lookup([id], blockOf(block)))).toEqual([id]);
  expect(next.idRequests()).toEqual([]);
  expect(world.clock.sleeps).toEqual([]);
});

test('a long block is fetched MAX_NEIGHBOURS ids at a time; the next cell left out claims the block again at once', () => {
  // 300 pages: more than the column's ids, so its cells ask for them one by one (after page 1 told the size).
  const world = partnerWorld({ total: 30_000 });
  const block = world.ids.slice(0, 150);
  const mine = world.execution('mine');
  expect(answers(mine.lookup([block[0]], blockOf(block)))).toEqual([block[0]]);
  expect(mine.listRequests()).toBe(1);
  expect(mine.idRequests()).toEqual(block.slice(0, MAX_NEIGHBOURS));
  const next = world.execution('next');
  expect(answers(next.lookup([block[120]], blockOf(block)))).toEqual([block[120]]);
  expect(next.listRequests()).toBe(0);
  expect(next.idRequests()).toEqual([block[120], ...block.slice(MAX_NEIGHBOURS).filter((id) => id !== block[120])]);
  expect(world.clock.sleeps).toEqual([]);
});

test("a cell whose block another execution is fetching waits for that execution's answers and asks nothing", () => {
  const world = partnerWorld();
  const block = world.ids.slice(0, 10);
  world.claim('theirs', 'ids:S:2:0');
  world.hooks.onSleep = (polls) => {
    if (polls === 2) world.execution('theirs').client.limitedPartners(block);
  };
  const mine = world.execution('mine');
  expect(answers(mine.lookup([block[4], block[5]], blockOf(block)))).toEqual([block[4], block[5]]);
  expect(world.clock.sleeps.length).toBe(2);
  expect(mine.idRequests()).toEqual([]);
});

test("a cell waiting for its block's answers looks only at its ids' own entries, never at the run's buckets", () => {
  const world = partnerWorld();
  const block = world.ids.slice(0, 10);
  world.claim('theirs', 'ids:S:2:0');
  const read = jest.spyOn(world.store, 'getAll');
  let waitFrom = Number.POSITIVE_INFINITY;
  world.hooks.onSleep = (polls) => {
    waitFrom = Math.min(waitFrom, read.mock.calls.length);
    if (polls === 2) world.execution('theirs').client.limitedPartners(block);
  };
  const mine = world.execution('mine');
  expect(answers(mine.lookup([block[4]], blockOf(block)))).toEqual([block[4]]);
  const looks = read.mock.calls.slice(waitFrom).map(([keys]) => keys);
  expect(looks.length).toBeGreaterThanOrEqual(2);
  expect(looks.flat().filter((k) => k.includes(':copy:'))).toEqual([]);
});

test("the other execution let the block go having answered only some of this cell's ids: it asks for the rest", () => {
  const world = partnerWorld();
  const block = world.ids.slice(0, 10);
  world.claim('theirs', 'ids:S:2:0');
  world.hooks.onSleep = (polls) => {
    if (polls !== 2) return;
    world.execution('theirs').client.limitedPartners([block[4]]);
    world.release('ids:S:2:0');
  };
  const mine = world.execution('mine');
  expect(answers(mine.lookup([block[4], block[5]], blockOf(block)))).toEqual([block[4], block[5]]);
  expect(world.clock.sleeps.length).toBe(2);
  expect(mine.idRequests()).toEqual([block[5]]);
  // The answer found while waiting is not asked of the client again, not even from its cache.
  expect(mine.client.stats).toMatchObject({ fetches: 1, cacheHits: 0 });
});

test('another block being fetched does not hold up this one', () => {
  const world = partnerWorld();
  const a = world.ids.slice(0, 10);
  const b = world.ids.slice(10, 20);
  const mine = world.execution('mine');
  let nested: string[] = [];
  world.hooks.onId = (id) => {
    if (id !== a[0] || nested.length) return undefined;
    // While the other execution fetches block A under its claim, a cell of block B misses.
    nested = answers(mine.lookup([b[0]], blockOf(b, 'S:2:10')));
    return undefined;
  };
  expect(answers(world.execution('theirs').lookup([a[0]], blockOf(a)))).toEqual([a[0]]);
  expect(nested).toEqual([b[0]]);
  expect(mine.idRequests()).toEqual(b);
  expect(world.clock.sleeps).toEqual([]);
});

test('a cell whose neighbours are all answered asks for its own id at once, without waiting on the block', () => {
  const world = partnerWorld();
  const block = world.ids.slice(0, 10);
  world.execution('earlier').client.limitedPartners(block.slice(1));
  world.claim('theirs', 'ids:S:2:0');
  const mine = world.execution('mine');
  expect(answers(mine.lookup([block[0]], blockOf(block)))).toEqual([block[0]]);
  expect(mine.idRequests()).toEqual([block[0]]);
  expect(world.clock.sleeps).toEqual([]);
});
