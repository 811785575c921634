/**
 * The claim on reading the active list (src/api/partners.ts): a live claim by another execution
 * makes this one wait for that execution's read instead of reading the list too; a claim as old
 * as CLAIM_MS is abandoned and taken over at once; a claim under this execution's own token does
 * not stop it.
 */
import { bucketKey, CLAIM_MS } from '../../../src/api/lookup-cache';
import type { ServiceRecord } from '../../../src/api/records';
import { answers, partnerWorld } from '../../helpers/partner-world';

const cold = (w: ReturnType<typeof partnerWorld>) => w.ids.slice(0, 50);

test('another execution’s live claim: this one waits and does not read the list', () => {
  const w = partnerWorld();
  w.claim('theirs');
  const out = w.execution('mine').lookup(cold(w));
  expect(out.every((o) => o.ok)).toBe(true);
  expect(w.clock.sleeps.length).toBeGreaterThan(0);
  expect(w.listRequests()).toBe(0);
});

test('a cell that finds the claim held starts waiting after three cache reads: its answers, the list’s size with the claim, the reader’s plan', () => {
  const w = partnerWorld();
  w.claim('theirs');
  const reads: string[][] = [];
  let beforeWait: string[][] | undefined;
  const getAll = w.store.getAll.bind(w.store);
  w.store.getAll = (keys) => {
    reads.push(keys);
    return getAll(keys);
  };
  w.hooks.onSleep = () => {
    beforeWait ??= [...reads];
  };
  w.execution('mine').lookup(cold(w));
  const named = (keys: string[]) =>
    keys.filter((k) => /:(snap:meta|claim:snapshot|snap:plan)$/.test(k)).map((k) => k.split(':').slice(-2).join(':'));
  expect(beforeWait?.map(named)).toEqual([[], ['snap:meta', 'claim:snapshot'], ['snap:plan']]);
});

test(`a claim ${CLAIM_MS} ms old is abandoned: this one reads the list at once`, () => {
  const w = partnerWorld();
  w.claim('theirs');
  w.clock.t += CLAIM_MS;
  w.readRange(cold(w), 'mine');
  expect(w.clock.sleeps).toEqual([]);
  expect(w.listRequests()).toBe(4);
  expect(w.idRequests()).toEqual([]);
});

test('a claim under this execution’s own token does not make it wait', () => {
  const w = partnerWorld();
  w.claim('mine');
  w.readRange(cold(w), 'mine');
  expect(w.clock.sleeps).toEqual([]);
  expect(w.listRequests()).toBe(4);
});

test('a cell that loses the claim while it reads page 1, to a reader whose plan is already out, waits without offering help it cannot be given', () => {
  const w = partnerWorld({ total: 1000 });
  // Another waiting cell offered to help: the reader's plan gives it a share.
  w.offered();
  let lost = false;
  w.hooks.onList = (page) => {
    if (page !== 1 || lost) return undefined;
    lost = true;
    // Another execution claimed at the same instant, kept the claim, read page 1 and posted its plan.
    w.claim('theirs');
    expect(w.postPlan('theirs')).toEqual(['theirs', 'helper']);
    return undefined;
  };
  // By this cell's first poll the reader has left the range's answers in the run's buckets.
  const range = w.ids.slice(100, 140);
  w.hooks.onSleep = () => {
    const byBucket = new Map<string, Record<string, ServiceRecord>>();
    for (const id of range) {
      const key = bucketKey(w.memo, id);
      byBucket.set(key, { ...byBucket.get(key), [id]: { id, fullName: `Name ${id}`, activeStatus: 'ACTIVE' } });
    }
    w.memo.putMany([...byBucket], true);
  };
  const offers: string[][] = [];
  w.hooks.onPut = (keys) => {
    if (lost) offers.push(keys.filter((k) => k.includes(':snap:offer:')));
  };
  const mine = w.execution('mine');
  expect(answers(mine.lookup(range))).toEqual(range);
  expect(lost).toBe(true);
  expect(mine.pages()).toEqual([1]);
  expect(offers.flat()).toEqual([]);
});
