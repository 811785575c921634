/**
 * A cell that waits for another execution's read of the list (src/api/partners.ts): it takes
 * that execution's snapshot once published (asking one by one only for what the list lacks, its
 * own and its block's), and looks once more when the reader lets its claim go just after a look.
 */
import { answers, partnerWorld } from '../../helpers/partner-world';

const gone = ['lp_gone_1', 'lp_gone_2', 'lp_gone_3'];

/** Another execution ("theirs") holds the claim; at this cell's first wait it reads `column` (and the list). */
function readerAtWork(column: (ids: readonly string[]) => readonly string[]) {
  const w = partnerWorld();
  w.claim('theirs');
  w.hooks.onSleep = (polls) => {
    if (polls !== 1) return;
    w.readRange(column(w.ids), 'theirs');
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

test('the reader publishes and lets its claim go just after a look: the cell looks once more and asks nothing', () => {
  const w = partnerWorld();
  const range = w.ids.slice(0, 50);
  w.readRange(range, 'theirs');
  // What the reader leaves; until then, nothing.
  const left = new Map(w.store.items);
  w.store.items.clear();
  w.claim('theirs');
  const claimKey = w.memo.key('claim', 'snapshot');
  let polled = false;
  w.hooks.onSleep = () => {
    polled = true;
  };
  const getAll = w.store.getAll.bind(w.store);
  w.store.getAll = (keys) => {
    const out = getAll(keys);
    // The cell's look for the snapshot at its first poll found none; the reader now publishes it and lets go.
    if (polled && !keys.includes(claimKey)) {
      polled = false;
      for (const [key, item] of left) w.store.items.set(key, item);
      w.release();
    }
    return out;
  };
  const after = w.log();
  expect(answers(w.execution('mine').lookup(range))).toEqual(range);
  expect(w.clock.sleeps.length).toBe(1);
  expect(after.count()).toBe(0);
});
