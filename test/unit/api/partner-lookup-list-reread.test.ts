/**
 * A cell's read of the active list that the list moved under is done again (src/api/partners.ts,
 * src/api/pages.ts): the second read starts from a page 1 asked for again, never from the page 1
 * the first read began with (asked for to learn the list's size), whose total the moved list no
 * longer has; a page past the end that holds partners who joined is the list moving, not a broken
 * list. A list that then holds still is read whole, and the cell asks for none of its ids.
 */
import { json } from '../../helpers/fakes';
import { answers, partnerWorld } from '../../helpers/partner-world';

/** `total` partners (250 when absent), 100 a page; one more joins the end of the list when page `joinAt` is first asked for. */
function growingList(joinAt: number, total = 250) {
  const world = partnerWorld({ total, pageCap: 100 });
  const ids = [...world.ids];
  let joined = false;
  world.hooks.onList = (page) => {
    if (page === joinAt && !joined) {
      joined = true;
      ids.push('lp_new');
    }
    return json(200, {
      data: ids.slice((page - 1) * 100, page * 100).map((id) => ({ id, fullName: `Name ${id}` })),
      pagination: { totalItems: ids.length, totalPages: Math.ceil(ids.length / 100), currentPage: page, pageSize: 100 },
    });
  };
  return { world, ids };
}

test('a partner joins while the list is read: the list is read again from page 1, and no id is asked for', () => {
  const { world, ids } = growingList(2);
  const mine = world.execution('mine');
  const range = [...ids.slice(0, 49), 'lp_new'];
  expect(answers(mine.lookup(range))).toEqual(range);
  expect(mine.pages()).toEqual([1, 2, 3, 1, 2, 3]);
  expect(mine.idRequests()).toEqual([]);
});

test('LP_FIND gets the moved list whole, read again from page 1', () => {
  const { world, ids } = growingList(3);
  const mine = world.execution('mine');
  expect(mine.activeRecords().records.map((r) => r.id)).toEqual(ids);
  expect(mine.pages()).toEqual([1, 2, 3, 1, 2, 3]);
});

test('a partner joins a list of whole pages while it is read: the page past the end that holds them means the list moved, and it is read again', () => {
  // 300 partners: page 4, asked for to confirm the end, holds the one who joined.
  const { world, ids } = growingList(2, 300);
  const mine = world.execution('mine');
  const range = [...ids.slice(0, 49), 'lp_new'];
  expect(answers(mine.lookup(range))).toEqual(range);
  expect(mine.pages()).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
  expect(mine.idRequests()).toEqual([]);
});
