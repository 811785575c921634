/**
 * A cell's own read of the active list (src/api/partners.ts): page by page, ending early enough
 * to write and answer; a read that is not complete or that the service refuses is never used
 * (LP_FIND shows why, a lookup asks for its ids instead); the column's answers are copied when
 * time allows and the snapshot written only with WRITE_RESERVE_MS left; the claim on the read is
 * kept (renewed while writing, never let go for the execution that won it) and a claim the cache
 * lost is not taken for one this execution holds.
 */
import { MAX_FILL_PAGES } from '../../../src/api/lookup-cache';
import { json } from '../../helpers/fakes';
import { answers, partnerWorld } from '../../helpers/partner-world';

test('a list of two pages is read page by page', () => {
  const world = partnerWorld({ total: 150 });
  const mine = world.execution('mine');
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(mine.listRequests()).toBe(2);
  expect(mine.idRequests()).toEqual([]);
});

test('LP_FIND reads the list itself when there is no snapshot', () => {
  const world = partnerWorld();
  const mine = world.execution('mine');
  expect(mine.activeRecords().records.map((r) => r.id)).toEqual(world.ids);
  expect(mine.listRequests()).toBe(4);
});

test('slow pages: no page is asked for once only the time to write and answer is left; the ids are asked for instead', () => {
  // 30 pages of 10, one second each, 20 sent at once: the second batch would start 20 s in, past the 19 s the read may use.
  const world = partnerWorld({ total: 300, pageCap: 10 });
  world.hooks.onList = (page) => {
    if (page > 1) world.clock.t += 1_000;
    return undefined;
  };
  const mine = world.execution('mine');
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(mine.listRequests()).toBe(21);
  expect(mine.idRequests()).toEqual(world.ids.slice(0, 50));
});

test('an inconsistent list is never used: LP_FIND says so, a lookup asks for its ids', () => {
  const world = partnerWorld();
  // Page 2 holds 50 partners where 100 were expected.
  world.hooks.onList = (page) =>
    page === 2
      ? json(200, {
          data: world.ids.slice(100, 150).map((id) => ({ id })),
          pagination: { totalItems: 300, totalPages: 3, currentPage: 2, pageSize: 100 },
        })
      : undefined;
  expect(() => world.execution('finder').activeRecords()).toThrow(
    expect.objectContaining({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('inconsistent list of active partners'),
    }),
  );
  const mine = world.execution('mine');
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(mine.idRequests()).toEqual(world.ids.slice(0, 50));
});

test('a page the service refuses ends the read: LP_FIND shows the refusal, a lookup asks for its ids', () => {
  const world = partnerWorld();
  world.hooks.onList = (page) => (page === 2 ? json(401, { error: 'Invalid API key' }) : undefined);
  expect(() => world.execution('finder').activeRecords()).toThrow(expect.objectContaining({ code: 'AUTH' }));
  const mine = world.execution('mine');
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(mine.idRequests()).toEqual(world.ids.slice(0, 50));
});

test("a failure that is not the service's (the cache refusing the snapshot) is not taken for one: it surfaces", () => {
  const world = partnerWorld();
  world.hooks.onPut = (keys) => {
    if (keys.some((k) => /:snap:.+:0\.0$/.test(k))) throw new Error('Argument too large: value');
  };
  expect(() => world.execution('mine').lookup(world.ids.slice(0, 50))).toThrow('Argument too large');
});

/** Reads the list for a column of 150 (one cell of it), page 2 taking `pageMs`; then what a later cell asks for. */
function readThenAsk(pageMs: number) {
  const world = partnerWorld();
  const column = world.ids.slice(0, 150);
  world.hooks.onList = (page) => {
    if (page === 2) world.clock.t += pageMs;
    return undefined;
  };
  const reader = world.execution('reader');
  expect(answers(reader.lookup([column[0]], () => ({ ids: column.slice(0, 10), column, group: 'S:2:0' })))).toEqual([
    column[0],
  ]);
  world.hooks.onList = undefined;
  return (id: string) => {
    const later = world.execution(`later ${id}`);
    expect(answers(later.lookup([id]))).toEqual([id]);
    return later.idRequests().length;
  };
}

test("with 6 s left after the read, the column's answers are copied but the snapshot is not written", () => {
  const ask = readThenAsk(28_500 - 6_000);
  expect(ask('lp_0120')).toBe(0);
  expect(ask('lp_0250')).toBe(1);
});

test("with WRITE_RESERVE_MS / 2 (4 s) left or less, not even the column's answers are copied", () => {
  const ask = readThenAsk(28_500 - 4_000);
  expect(ask('lp_0120')).toBe(1);
});

test('with WRITE_RESERVE_MS (8 s) left, the snapshot is written', () => {
  const ask = readThenAsk(28_500 - 8_000);
  expect(ask('lp_0250')).toBe(0);
});

test('the claim is renewed after a long read: a cell asking while the snapshot is written does not read the list too', () => {
  const world = partnerWorld();
  world.hooks.onList = (page) => {
    if (page === 2) world.clock.t += 20_000;
    return undefined;
  };
  let other: ReturnType<typeof world.execution> | undefined;
  world.hooks.onPut = (keys) => {
    if (other || !keys.some((k) => /:snap:.+:0\.0$/.test(k))) return;
    // Writing the snapshot takes 6 s: the claim taken before the read is now 26 s old.
    world.clock.t += 6_000;
    other = world.execution('other');
    expect(answers(other.lookup(world.ids.slice(100, 150)))).toEqual(world.ids.slice(100, 150));
  };
  expect(answers(world.execution('reader').lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(other?.listRequests()).toBe(0);
});

test('the execution that lost the claim to another does not let that claim go', () => {
  const world = partnerWorld();
  world.hooks.onList = (page) => {
    if (page === 1) world.claim('theirs', 'snapshot');
    return undefined;
  };
  // With 8 s left this execution does not wait for the other read: it asks for its ids.
  const mine = world.execution('mine', 9_500);
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(mine.listRequests()).toBe(1);
  world.hooks.onList = undefined;
  const third = world.execution('third');
  expect(answers(third.lookup(world.ids.slice(100, 150)))).toEqual(world.ids.slice(100, 150));
  expect(third.listRequests()).toBe(0);
});

test('a claim another execution wrote over at once is not taken: this one asks for no page', () => {
  const world = partnerWorld();
  const claimKey = world.memo.key('claim', 'snapshot');
  world.hooks.onPut = (keys) => {
    if (!keys.includes(claimKey)) return;
    world.hooks.onPut = undefined;
    world.claim('theirs', 'snapshot');
  };
  const mine = world.execution('mine', 9_500);
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(mine.listRequests()).toBe(0);
});

test('a claim the cache did not keep, or lost while page 1 was read, is not one this execution holds', () => {
  const world = partnerWorld();
  const claimKey = world.memo.key('claim', 'snapshot');
  world.hooks.onPut = (keys) => {
    if (keys.includes(claimKey)) world.release('snapshot');
  };
  const mine = world.execution('mine', 9_500);
  expect(answers(mine.lookup(world.ids.slice(0, 50)))).toEqual(world.ids.slice(0, 50));
  expect(mine.listRequests()).toBe(0);
  world.hooks.onPut = undefined;
  world.hooks.onList = (page) => {
    if (page === 1) world.release('snapshot');
    return undefined;
  };
  const next = world.execution('next', 9_500);
  expect(answers(next.lookup(world.ids.slice(100, 150)))).toEqual(world.ids.slice(100, 150));
  expect(next.listRequests()).toBe(1);
});

test("a filled-down column's cell that reads the list asks the cache four times before page 1, each read at most a page's worth of the column's keys", () => {
  const world = partnerWorld({ total: 1000 });
  const column = world.ids;
  const reads: number[] = [];
  let beforePage1: number | undefined;
  const getAll = world.store.getAll.bind(world.store);
  world.store.getAll = (keys) => {
    reads.push(keys.length);
    return getAll(keys);
  };
  world.hooks.onList = (page) => {
    if (page === 1) beforePage1 ??= reads.length;
    return undefined;
  };
  const mine = world.execution('mine');
  const own = column.slice(500, 501);
  expect(answers(mine.lookup(own, () => ({ ids: column.slice(500, 600), column, group: 'S:2:5' })))).toEqual(own);
  // Its own entries; the column's (counted only as far as deciding needs); the list's size with the claim;
  // the claim confirmed with the snapshot's head; the claim again; the path the list is asked on.
  expect({ beforePage1, widest: Math.max(...reads) }).toEqual({ beforePage1: 6, widest: MAX_FILL_PAGES + 1 });
  expect(mine.idRequests()).toEqual([]);
});

test('a column whose first ids are answered but whose later ones are not still reads the list: the rest is counted too', () => {
  const world = partnerWorld({ total: 1000 });
  const column = world.ids;
  // Earlier cells asked for the first 300 one by one: their answers are in the cache, the other 700 are not.
  // The read: its 10 pages and the look past the last.
  world.execution('earlier').client.limitedPartners(column.slice(0, 300));
  const log = world.log();
  const mine = world.execution('mine');
  const own = column.slice(500, 501);
  expect(answers(mine.lookup(own, () => ({ ids: column.slice(500, 600), column, group: 'S:2:5' })))).toEqual(own);
  expect({ listRequests: log.listRequests(), idRequests: log.idRequests() }).toEqual({
    listRequests: 11,
    idRequests: [],
  });
});

test('page 1 refused for longer than the read may last (the list’s size already known) is not waited for: the range is asked id by id at once', () => {
  const w = partnerWorld({ total: 1000 });
  w.readRange(w.ids.slice(0, 50), 'first');
  w.evictSnapshot();
  w.refuseOnce(1, 2);
  // 12 s: the read may last 1 s (the rest is the client's margin and the time kept to write and to answer).
  const cell = w.execution('cell', 12_000);
  const range = w.ids.slice(100, 140);
  expect(answers(cell.lookup(range))).toEqual(range);
  expect(w.clock.sleeps).toEqual([]);
  expect(cell.pages()).toEqual([1]);
  expect(cell.idRequests()).toEqual(range);
});
