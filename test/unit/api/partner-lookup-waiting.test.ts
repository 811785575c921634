/**
 * A cell that waits for another execution's read of the list (src/api/partners.ts): it takes
 * that execution's snapshot once published (asking one by one only for what the list lacks, its
 * own and its block's), or its copies of the column when the snapshot is gone; it stops waiting
 * as soon as the copies hold every id it wants, and not before.
 */
import { bucketKey, COPY_BUCKETS, POLL_MS } from '../../../src/api/lookup-cache';
import { answers, partnerWorld } from '../../helpers/partner-world';

const gone = ['lp_gone_1', 'lp_gone_2', 'lp_gone_3'];

/** Another execution ("theirs") holds the claim; at this cell's first wait it reads `column` (and the list). */
function readerAtWork(column: (ids: readonly string[]) => readonly string[], evict = false) {
  const w = partnerWorld();
  w.claim('theirs');
  w.hooks.onSleep = (polls) => {
    if (polls !== 1) return;
    w.readRange(column(w.ids), 'theirs');
    if (evict) w.evictSnapshot();
  };
  return w;
}

test('a waiting range is answered from the snapshot the reader published', () => {
  const w = readerAtWork((ids) => ids.slice(0, 50));
  const range = w.ids.slice(250, 290);
  expect(answers(w.execution('mine').lookup(range))).toEqual(range);
  expect(w.listRequests()).toBe(4);
  expect(w.idRequests()).toEqual([]);
});

test('a waiting inactive cell then asks for itself and the neighbours the published list lacks', () => {
  const w = readerAtWork((ids) => ids.slice(0, 50));
  const neighbours = [gone[0], ...w.ids.slice(250, 290), gone[1], gone[2]];
  const out = w.execution('mine').lookup([gone[0]], () => ({ ids: neighbours, column: neighbours, group: 'S:2:0' }));
  expect(answers(out)).toEqual([gone[0]]);
  expect(w.idRequests()).toEqual(gone);
});

test('the snapshot lost, a waiting range is answered from the reader’s copies without a request', () => {
  const w = readerAtWork((ids) => ids.slice(0, 50), true);
  const range = w.ids.slice(0, 40);
  expect(answers(w.execution('mine').lookup(range))).toEqual(range);
  expect(w.idRequests()).toEqual([]);
});

test('the snapshot lost, the id the copies lack is asked for', () => {
  const w = readerAtWork((ids) => ids.slice(0, 50), true);
  const range = [...w.ids.slice(0, 40), gone[0]];
  const out = w.execution('mine').lookup(range);
  expect(answers(out)).toEqual(range);
  expect(out[40].ok && out[40].value).toEqual({ id: gone[0], fullName: `Name ${gone[0]}`, activeStatus: 'ACTIVE' });
  expect(w.idRequests()).toEqual([gone[0]]);
});

test('copies holding only part of the range do not end the wait: the snapshot published later answers the rest', () => {
  const w = partnerWorld();
  // The reader has left its copies of the column and not yet published the snapshot. The range is
  // wider than the buckets a cell reads at first, so it finds the copies while it waits.
  const copied = w.ids.slice(0, COPY_BUCKETS + 10);
  w.readRange(copied, 'theirs');
  const index = w.store.items.get(w.headKey);
  w.evictSnapshot();
  w.claim('theirs');
  const after = w.log();
  // At this cell's second poll the reader publishes the snapshot and lets its claim go.
  w.hooks.onSleep = (polls) => {
    if (polls !== 2) return;
    w.store.items.set(w.headKey, index as { value: string; expiresAt: number });
    w.release('snapshot');
  };
  const range = [...copied, w.ids[200]];
  expect(answers(w.execution('mine').lookup(range))).toEqual(range);
  expect(w.clock.sleeps.length).toBe(2);
  expect(after.count()).toBe(0);
});

test('copies holding every id end the wait at once, while the reader still holds its claim', () => {
  const w = partnerWorld();
  const copied = w.ids.slice(0, COPY_BUCKETS + 10);
  w.readRange(copied, 'theirs');
  w.evictSnapshot();
  w.claim('theirs');
  const after = w.log();
  expect(answers(w.execution('mine').lookup(copied))).toEqual(copied);
  expect(w.clock.sleeps.length).toBe(1);
  expect(after.count()).toBe(0);
});

test('the reader leaves its copies and lets its claim go while the cell sleeps: its next look, one cache read of both, finds them and it asks nothing', () => {
  const w = partnerWorld();
  const range = w.ids.slice(0, 50);
  w.readRange(range, 'theirs');
  // What the reader leaves, without the snapshot it had no time to publish; until then, nothing.
  const left = new Map(w.store.items);
  left.delete(w.headKey);
  w.store.items.clear();
  w.claim('theirs');
  w.hooks.onSleep = (polls) => {
    if (polls !== 1) return;
    for (const [key, item] of left) w.store.items.set(key, item);
    w.release();
  };
  const after = w.log();
  expect(answers(w.execution('mine').lookup(range))).toEqual(range);
  expect(w.clock.sleeps.length).toBe(1);
  expect(after.count()).toBe(0);
});

test("a range waiting for the reader looks at the run's buckets only, not at its ids' own entries", () => {
  const w = partnerWorld();
  const range = w.ids.slice(0, 120);
  w.claim('theirs');
  // The keys of each cache read of this cell once it waits (the reader's own, in the hook, are not its).
  const looks: string[][] = [];
  let waiting = false;
  const getAll = w.store.getAll.bind(w.store);
  w.store.getAll = (keys) => {
    if (waiting) looks.push(keys);
    return getAll(keys);
  };
  w.hooks.onSleep = (polls) => {
    waiting = false;
    if (polls === 2) w.readRange(range, 'theirs');
    waiting = true;
  };
  expect(answers(w.execution('mine').lookup(range))).toEqual(range);
  expect(looks.length).toBeGreaterThanOrEqual(2);
  // Each look is one cache read: the run's buckets (at most COPY_BUCKETS keys, however many ids the range
  // holds), with the claim and the shared read's keys (the snapshot's head, the plan, its offer), no id's own entry.
  const buckets = new Set(range.map((id) => bucketKey(w.memo, id)));
  const coordination = (key: string) =>
    key === w.memo.key('claim', 'snapshot') || key.startsWith(w.memo.key('snap', ''));
  for (const keys of looks) expect(keys.filter((key) => !buckets.has(key) && !coordination(key))).toEqual([]);
  expect(looks.some((keys) => keys.some((key) => buckets.has(key)) && keys.some(coordination))).toBe(true);
});

// Its share's pages take the service far longer than a poll, or exactly one: either way the next look is not slept for.
test.each([300, POLL_MS])(
  'a waiting cell that has just read its share of the reader’s pages (%i ms) looks at the read again at once, not a poll later',
  (shareMs) => {
    const w = partnerWorld({ total: 1000 });
    w.claim('theirs');
    const column = w.ids;
    // At this cell's first poll the reader has page 1 in and writes its plan, giving the cell (which offered) a share.
    w.hooks.onSleep = (polls) => {
      if (polls === 1) expect(w.postPlan('theirs')).toEqual(['theirs', 'mine']);
    };
    w.hooks.onList = (page) => {
      if (page === 10) w.clock.t += shareMs;
      return undefined;
    };
    // Once its share is marked done, the polls it sleeps before its next look; then the reader is gone.
    let doneAt: number | undefined;
    let pollsBetween: number | undefined;
    w.hooks.onPut = (keys) => {
      if (keys.some((k) => k.endsWith(':done:1'))) doneAt ??= w.clock.sleeps.length;
    };
    const getAll = w.store.getAll.bind(w.store);
    w.store.getAll = (keys) => {
      if (doneAt !== undefined && pollsBetween === undefined && keys.some((k) => k.endsWith(':plan'))) {
        pollsBetween = w.clock.sleeps.length - doneAt;
        w.release();
      }
      return getAll(keys);
    };
    const mine = w.execution('mine');
    const own = column.slice(150, 151);
    expect(answers(mine.lookup(own, () => ({ ids: column.slice(100, 200), column, group: 'S:2:1' })))).toEqual(own);
    expect(mine.pages()).toEqual([2, 4, 6, 8, 10]);
    expect(pollsBetween).toBe(0);
    expect(w.clock.sleeps).not.toContain(0);
  },
);
