/**
 * Whether a lookup reads the active list (src/api/partners.ts): only when the list has fewer
 * pages than ids are wanted, and at most MAX_FILL_PAGES pages. Page 1 tells the list's size,
 * which is remembered (fresh entries of two numbers only), so later cells decide without asking.
 * LP_FIND on a list too long for a formula says so; a refused page 1 is the error it shows.
 */
import { MAX_FILL_PAGES, MAX_SNAPSHOT_RECORDS } from '../../../src/api/lookup-cache';
import { fnv1a } from '../../../src/api/hash';
import { SLOTS } from '../../../src/api/shares';
import { Snapshot } from '../../../src/api/snapshot';
import { json } from '../../helpers/fakes';
import { answers, partnerWorld, TTL_MS } from '../../helpers/partner-world';

test('50 pages for 40 ids: page 1 only, then one request per id; the next cells know the size without asking', () => {
  const world = partnerWorld({ total: 5000 });
  const mine = world.execution('mine');
  expect(answers(mine.lookup(world.ids.slice(0, 40)))).toEqual(world.ids.slice(0, 40));
  expect(mine.listRequests()).toBe(1);
  expect(mine.idRequests()).toEqual(world.ids.slice(0, 40));
  const next = world.execution('next');
  expect(answers(next.lookup(world.ids.slice(1000, 1040)))).toEqual(world.ids.slice(1000, 1040));
  expect(next.listRequests()).toBe(0);
  expect(next.idRequests()).toEqual(world.ids.slice(1000, 1040));
  // The claim on reading the list was let go: a cell wanting more ids than pages reads it at once.
  const many = world.execution('many');
  expect(answers(many.lookup(world.ids.slice(2000, 2060)))).toEqual(world.ids.slice(2000, 2060));
  expect(many.idRequests()).toEqual([]);
  expect(world.clock.sleeps).toEqual([]);
});

test('as many ids as pages: reading the list would not save a request, so the ids are asked for', () => {
  const world = partnerWorld({ total: 5000 });
  const mine = world.execution('mine');
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(mine.listRequests()).toBe(1);
  expect(mine.idRequests()).toEqual(world.ids.slice(0, 50));
});

test('a remembered size no longer fresh is not trusted: page 1 is asked again', () => {
  const world = partnerWorld({ total: 5000 });
  world.execution('earlier').lookup(world.ids.slice(0, 40));
  world.clock.t += TTL_MS;
  const mine = world.execution('mine');
  mine.lookup(world.ids.slice(100, 140));
  expect(mine.listRequests()).toBe(1);
});

test('a remembered size that is not two numbers (another version of the add-in) is ignored', () => {
  for (const meta of [
    { total: '5000', size: 100 },
    { total: 5000, size: '100' },
  ]) {
    const world = partnerWorld({ total: 5000 });
    world.memo.putMany([[world.memo.key('snap', 'meta'), meta]]);
    const mine = world.execution('mine');
    expect(answers(mine.lookup(world.ids.slice(0, 40)))).toEqual(world.ids.slice(0, 40));
    expect(mine.listRequests()).toBe(1);
  }
});

test(`LP_FIND reads a list of ${MAX_FILL_PAGES} pages, and refuses a longer one, pointing to the import`, () => {
  const fits = partnerWorld({ total: MAX_FILL_PAGES * 10, pageCap: 10 });
  expect(fits.execution('mine').activeRecords().records.length).toBe(MAX_FILL_PAGES * 10);
  const long = partnerWorld({ total: MAX_FILL_PAGES * 10 + 1, pageCap: 10 });
  const mine = long.execution('mine');
  expect(() => mine.activeRecords()).toThrow(
    expect.objectContaining({ code: 'BAD_INPUT', message: expect.stringMatching(/^3,001 active partners .*Import/) }),
  );
  expect(mine.listRequests()).toBe(1);
});

test('LP_FIND shows the error that refused page 1', () => {
  const world = partnerWorld();
  world.hooks.onList = () => json(401, { error: 'Invalid API key' });
  expect(() => world.execution('mine').activeRecords()).toThrow(expect.objectContaining({ code: 'AUTH' }));
});

describe(`a list of more records than the cache keeps a copy of (MAX_SNAPSHOT_RECORDS), in pages of 1,000`, () => {
  test('at that many, a cell that wants more ids than the list has pages reads the list', () => {
    const world = partnerWorld({ total: MAX_SNAPSHOT_RECORDS, pageCap: 1000 });
    const mine = world.execution('mine');
    const wanted = world.ids.slice(-200);
    expect(answers(mine.lookup(wanted))).toEqual(wanted);
    // Every page, and the one after the last: a list that fills its last page shows its end so.
    expect(mine.listRequests()).toBe(MAX_SNAPSHOT_RECORDS / 1000 + 1);
    expect(mine.idRequests()).toEqual([]);
  });

  test('one more: LP_FIND says why after page 1, and the ids are asked for one by one', () => {
    const world = partnerWorld({ total: MAX_SNAPSHOT_RECORDS + 1, pageCap: 1000 });
    const find = world.execution('find');
    expect(() => find.activeRecords()).toThrow(
      expect.objectContaining({
        code: 'BAD_INPUT',
        message:
          "170,001 active partners are more than the spreadsheet's cache can keep a copy of (170,000 at most), so they can be searched only in an imported sheet.",
      }),
    );
    expect(find.listRequests()).toBe(1);
    const mine = world.execution('mine');
    const wanted = world.ids.slice(-200);
    expect(answers(mine.lookup(wanted))).toEqual(wanted);
    expect(mine.listRequests()).toBe(0);
    expect(mine.idRequests()).toEqual(wanted);
  });

  /** The service lists `ids` from now on, in pages of 1,000; `from` on, it says the list holds `total`. */
  const serving =
    (ids: readonly string[], total = (_page: number) => ids.length) =>
    (page: number) =>
      json(200, {
        data: ids
          .slice((page - 1) * 1000, page * 1000)
          .map((id) => ({ id, fullName: `Name ${id}`, activeStatus: 'ACTIVE' })),
        pagination: {
          totalItems: total(page),
          totalPages: Math.ceil(total(page) / 1000),
          currentPage: page,
          pageSize: 1000,
        },
      });
  const tooMany = expect.objectContaining({
    code: 'BAD_INPUT',
    message: expect.stringMatching(/^170,001 active partners are more than the spreadsheet's cache/),
  });

  test.each([
    ['alone', false],
    ['with a cell offering to read a share', true],
  ])(
    'a size remembered from before the list grew past it is not trusted: page 1 read now decides (%s)',
    (_, helped) => {
      const world = partnerWorld({ total: MAX_SNAPSHOT_RECORDS, pageCap: 1000 });
      world.execution('small').lookup(world.ids.slice(0, 30));
      world.hooks.onList = serving([...world.ids, 'lp_new']);
      if (helped) world.memo.putMany([[world.memo.key('snap', `offer:${fnv1a('helper') % SLOTS}`), 'helper']], true);
      const find = world.execution('find');
      expect(() => find.activeRecords()).toThrow(tooMany);
      expect(find.listRequests()).toBe(1);
      expect(new Snapshot(world.memo).view()).toBeUndefined();
    },
  );

  test('a list that grows past it while a formula reads it is not read again', () => {
    const world = partnerWorld({ total: MAX_SNAPSHOT_RECORDS, pageCap: 1000 });
    const grown = [...world.ids, 'lp_new'];
    // Page 1 and the first 50 pages tell the list before it grew; the pages after, and a read again, the list after.
    let asked = 0;
    world.hooks.onList = (page) => serving(grown, () => (++asked <= 50 ? MAX_SNAPSHOT_RECORDS : grown.length))(page);
    const find = world.execution('find');
    expect(() => find.activeRecords()).toThrow(tooMany);
    expect(new Snapshot(world.memo).view()).toBeUndefined();
  });
});
