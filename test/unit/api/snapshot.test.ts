/**
 * An import's snapshot (src/api/snapshot.ts): the import writes the records it reads as parts,
 * one a step, across executions, each record at its place in the list; publishing names the parts
 * (their bucket counts) in one small head, with no read of what was written. A part written again
 * (a step killed before it saved its progress is redone) replaces the first write wherever its
 * buckets fall. The snapshot is as old as its oldest part: fresh for one lifetime from the time
 * the read began, however long the import took to finish.
 */
import type { ServiceRecord } from '../../../src/api/records';
import { BUCKET_RECORDS, Snapshot, type SnapshotView, snapshotIn } from '../../../src/api/snapshot';
import { memoFor } from '../../helpers/client-setup';
import { FakeClock, LimitedStore } from '../../helpers/fakes';

const MINUTE = 60_000;
const partner = (i: number): ServiceRecord => ({
  id: `lp_${String(i).padStart(5, '0')}`,
  fullName: `Name ${i}`,
  ticketSize: i * 1000,
});
const records = Array.from({ length: 7 * BUCKET_RECORDS + 37 }, (_, i) => partner(i));
const places = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

function setup(ttlMs = 3_600_000) {
  const clock = new FakeClock();
  const memo = memoFor(new LimitedStore(clock), clock, 'k_test_1234', ttlMs);
  const asked: string[] = [];
  const getMany = memo.getMany.bind(memo);
  memo.getMany = (keys) => {
    asked.push(...keys);
    return getMany(keys);
  };
  return { clock, memo, snapshot: new Snapshot(memo), asked };
}

const published = (snapshot: Snapshot): SnapshotView => {
  const view = snapshot.view();
  if (!view) throw new Error('expected a published snapshot');
  return view;
};

/** Writes the records as an import does, in steps ending at these places, and returns each part's bucket count. */
function writeInSteps(snapshot: Snapshot, gen: string, ends = [3, 5, 8].map((n) => n * BUCKET_RECORDS)): number[] {
  let from = 0;
  return ends.map((end, part) => {
    const to = Math.min(end, records.length);
    const count = snapshot.write(gen, part, records.slice(from, to), places(from, to - from));
    from = to;
    return count;
  });
}

test('parts written step by step and published without reading them: every id answers, the list reads whole in order', () => {
  const { snapshot, asked } = setup();
  const parts = writeInSteps(snapshot, 'g1');
  expect(parts).toEqual([3, 2, 3]);
  asked.length = 0;
  snapshot.publish('g1', records.length, parts);
  expect(asked.filter((k) => k.includes(':snap:g1:'))).toEqual([]);
  const view = published(snapshot);
  expect(view).toMatchObject({ gen: 'g1', total: records.length, parts, fresh: true });
  expect(snapshot.all(view)).toEqual(records);
  const all = records.map((r) => String(r.id));
  const found = snapshot.find(view, all);
  expect(found.records.size).toBe(records.length);
  expect(found.records.get(all[4 * BUCKET_RECORDS + 3])).toEqual(records[4 * BUCKET_RECORDS + 3]);
});

test('the snapshot an import writes in a memo’s namespace (snapshotIn) is the one the lookups of that namespace read', () => {
  const { memo, snapshot } = setup();
  const counts = writeInSteps(snapshotIn(memo), 'g1');
  snapshotIn(memo).publish('g1', records.length, counts);
  const view = published(snapshot);
  expect(view.gen).toBe('g1');
  expect(snapshot.find(view, [records[0].id as string]).records.get(records[0].id as string)).toEqual(records[0]);
});

test('a lookup of one id reads one bucket a part', () => {
  const { snapshot, asked } = setup();
  snapshot.publish('g1', records.length, writeInSteps(snapshot, 'g1'));
  const view = published(snapshot);
  asked.length = 0;
  expect(snapshot.find(view, ['lp_00007']).records.get('lp_00007')).toEqual(records[7]);
  expect(asked).toHaveLength(3);
});

test('parts redone by the next step (a killed step wrote them first, with other records) answer as redone', () => {
  const { snapshot } = setup();
  const stale = Array.from({ length: 6 * BUCKET_RECORDS }, (_, i) => ({ id: `stale_${i}`, fullName: 'killed' }));
  snapshot.write('g4', 0, records.slice(0, 3 * BUCKET_RECORDS), places(0, 3 * BUCKET_RECORDS));
  // The killed execution wrote part 1 of other records (more buckets than the redo), and died before saving.
  snapshot.write('g4', 1, stale, places(3 * BUCKET_RECORDS, stale.length));
  const redo = snapshot.write(
    'g4',
    1,
    records.slice(3 * BUCKET_RECORDS),
    places(3 * BUCKET_RECORDS, records.length - 3 * BUCKET_RECORDS),
  );
  snapshot.publish('g4', records.length, [3, redo]);
  const view = published(snapshot);
  expect(snapshot.find(view, ['stale_0', 'stale_1']).records.size).toBe(0);
  expect(
    snapshot.find(
      view,
      records.map((r) => String(r.id)),
    ).records.size,
  ).toBe(records.length);
  expect(snapshot.all(view)).toEqual(records);
});

test('an id listed twice across parts is found as first listed, and read whole once, at its first place', () => {
  const { snapshot } = setup();
  const again = { ...records[7], fullName: 'again' };
  const a = snapshot.write('g5', 0, records.slice(0, 300), places(0, 300));
  const b = snapshot.write('g5', 1, [again, ...records.slice(300, 500)], places(300, 201));
  snapshot.publish('g5', 501, [a, b]);
  const view = published(snapshot);
  expect(snapshot.all(view)).toEqual(records.slice(0, 500));
  expect(snapshot.find(view, ['lp_00007']).records.get('lp_00007')).toEqual(records[7]);
});

test('a new generation removes the buckets of every part of the previous one', () => {
  const { snapshot, memo } = setup();
  const parts = writeInSteps(snapshot, 'g1');
  snapshot.publish('g1', records.length, parts);
  snapshot.replace(records.slice(0, 3), 'g2');
  const keys = parts.flatMap((count, part) =>
    Array.from({ length: count }, (_, b) => memo.key('snap', `g1:${part}.${b}`)),
  );
  expect(memo.getMany(keys).size).toBe(0);
});

test('a retired snapshot is gone, head and buckets; retiring none changes nothing', () => {
  const { snapshot, memo } = setup();
  snapshot.retire();
  const parts = writeInSteps(snapshot, 'g1');
  snapshot.publish('g1', records.length, parts);
  const other = memo.key('other', 'entry');
  memo.putMany([[other, 1]]);
  snapshot.retire();
  expect(snapshot.view()).toBeUndefined();
  const keys = parts.flatMap((count, part) =>
    Array.from({ length: count }, (_, b) => memo.key('snap', `g1:${part}.${b}`)),
  );
  expect(memo.getMany([...keys, memo.key('snap', 'head')]).size).toBe(0);
  expect(memo.getMany([other]).size).toBe(1);
});

test('records written ten minutes before their snapshot is published, with a one-minute lifetime, are not fresh', () => {
  const { clock, snapshot } = setup(MINUTE);
  const readAt = clock.now();
  // An import read the list and wrote its parts; a rate-limited service kept it going ten minutes more.
  const parts = writeInSteps(snapshot, 'run1.1');
  clock.t += 10 * MINUTE;
  snapshot.publish('run1.1', records.length, parts, readAt);
  const view = snapshot.view();
  expect({ fresh: view?.fresh, readBy: (view?.fetchedAt ?? 0) <= readAt }).toEqual({ fresh: false, readBy: true });
});

test('parts written over several steps: the snapshot is fresh from when the read began, for one lifetime', () => {
  const { clock, snapshot } = setup(MINUTE);
  const firstAt = clock.now();
  // Three steps, twenty seconds apart, each writing one part; published ten seconds after the last.
  let from = 0;
  const parts = [0, 1, 2].map((n) => {
    clock.t = firstAt + n * 20_000;
    const count = snapshot.write('run2.1', n, records.slice(from, from + BUCKET_RECORDS), places(from, BUCKET_RECORDS));
    from += BUCKET_RECORDS;
    return count;
  });
  clock.t = firstAt + 50_000;
  snapshot.publish('run2.1', 3 * BUCKET_RECORDS, parts, firstAt);
  const judged = (at: number) => {
    clock.t = at;
    const view = snapshot.view();
    return { fresh: view?.fresh, fetchedAt: view?.fetchedAt, total: view?.total };
  };
  expect(judged(firstAt + MINUTE - 1)).toEqual({ fresh: true, fetchedAt: firstAt, total: 3 * BUCKET_RECORDS });
  expect(judged(firstAt + MINUTE)).toEqual({ fresh: false, fetchedAt: firstAt, total: 3 * BUCKET_RECORDS });
});
