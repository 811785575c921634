/**
 * PartnerLookup's claim on reading the active list (src/api/partners.ts), over the fake transport,
 * clock and cache: one execution reads the list for many ids; when two executions claimed at the
 * same instant and the other one's claim stayed, this one stops after the first page and waits
 * instead of reading the whole list a second time. A snapshot the cache has since lost a bucket of
 * is read again rather than asked for id by id, and an id such as "__proto__" finds nothing in
 * the small buckets of answers.
 */
import { fnv1a } from '../../../src/api/hash';
import { COPY_BUCKETS } from '../../../src/api/lookup-cache';
import { answers, partnerWorld } from '../../helpers/partner-world';

test('many uncached ids: the execution that holds the claim reads the whole list and answers from it', () => {
  const world = partnerWorld();
  const out = world.execution('mine').lookup(world.ids.slice(0, 50));
  expect(out.every((o) => o.ok)).toBe(true);
  // Its 3 pages and one past the announced end (the reader confirms the list ends where it says), nothing per id.
  expect(world.pages()).toEqual([1, 2, 3, 4]);
  expect(world.count()).toBe(4);
});

test('two executions claimed at once and the other claim stayed: this one reads one page, not the whole list again', () => {
  // The other execution's claim lands while this one reads the first page (both saw no claim before).
  const world = partnerWorld();
  world.hooks.onList = (page) => {
    if (page === 1) world.claim('theirs');
    return undefined;
  };
  const out = world.execution('mine').lookup(world.ids.slice(0, 50));
  expect(out.every((o) => o.ok)).toBe(true);
  expect(world.listRequests()).toBe(1);
});

test('a fresh snapshot that lost a bucket to eviction is read again for many of its ids, not asked for id by id', () => {
  const world = partnerWorld();
  world.readRange();
  expect(world.listRequests()).toBe(4);
  const lost = world.evictBucketOf(world.ids[100]);
  const after = world.log();
  // Another execution, 50 other ids of the lost bucket.
  const range = lost.filter((id) => !world.ids.slice(0, 50).includes(id)).slice(0, 50);
  expect(range).toHaveLength(50);
  const out = world.execution('another').lookup(range);
  expect(out.map((o) => (o.ok ? o.value.id : o.error.message))).toEqual(range);
  expect(after.count()).toBe(4);
  expect(world.listRequests()).toBe(8);
});

test('an id such as "__proto__" finds nothing in the buckets a read of the list left: it is asked for', () => {
  const world = partnerWorld();
  // The range holds a partner whose answer lands in the bucket "__proto__" would be looked for in.
  const bucket = (id: string) => fnv1a(id) % COPY_BUCKETS;
  const sharer = world.ids.find((id) => bucket(id) === bucket('__proto__')) as string;
  world.readRange([...world.ids.slice(0, 49).filter((id) => id !== sharer), sharer]);
  const after = world.log();
  const [out] = world.execution('another').lookup(['__proto__']);
  expect(after.count()).toBe(1);
  expect(out.ok && out.value.id).toBe('__proto__');
});

test('a cell that looked for the snapshot before another execution published it, and claims after, does not read the list again', () => {
  const world = partnerWorld();
  const run = [...world.ids.slice(0, 60), 'lp_inactive'];
  const out = world.execution('mine').lookup(['lp_inactive'], () => {
    // While this cell reads its neighbours, another execution reads the list, publishes it and lets its claim go.
    const theirs = world
      .execution('another')
      .lookup([run[0]], () => ({ ids: run.slice(0, 60), column: run, group: 'S:2:0' }));
    expect(theirs[0].ok).toBe(true);
    return { ids: run, column: run, group: 'S:2:0' };
  });
  expect(out[0].ok && out[0].value.id).toBe('lp_inactive');
  expect(world.listRequests()).toBe(4);
  // Its claim, taken to read the list, is let go: no other cell waits on it.
  const claim = world.store.items.get(world.memo.key('claim', 'snapshot'));
  expect(claim === undefined || claim.expiresAt <= world.clock.now()).toBe(true);
});

test("a cell whose claim another execution's overwrote just after it was taken asks for no page: it waits for that reader", () => {
  const world = partnerWorld();
  const claimKey = world.memo.key('claim', 'snapshot');
  let claimed = false;
  world.hooks.onPut = (keys) => {
    claimed ||= keys.includes(claimKey);
  };
  // The cell's claim taken (and confirmed by its next cache read), the other execution's lands just after.
  const getAll = world.store.getAll.bind(world.store);
  world.store.getAll = (keys) => {
    const out = getAll(keys);
    if (claimed) {
      claimed = false;
      world.hooks.onPut = undefined;
      world.claim('theirs');
      // The other reader then publishes the list and lets its claim go while this cell waits.
      world.hooks.onSleep = () => {
        world.hooks.onSleep = undefined;
        world.release();
        world.readRange(world.ids.slice(0, 50), 'theirs');
      };
    }
    return out;
  };
  const mine = world.execution('mine');
  const range = world.ids.slice(100, 150);
  expect(answers(mine.lookup(range))).toEqual(range);
  expect(mine.listRequests()).toBe(0);
});
