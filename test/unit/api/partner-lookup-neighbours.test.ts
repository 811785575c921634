/**
 * How a missing cell decides what to fetch (src/api/partners.ts): with a fresh snapshot, ids it
 * does not hold (inactive partners) are asked for one by one, with only the block's neighbours
 * the snapshot does not hold either; a snapshot that lost a bucket holding a missing id is read
 * again. Without one, the list is read once FILL_MIN_IDS ids are wanted (the cell's own, and the
 * column's that have no cached answer, each counted once); after that read, the cell asks only
 * for what the list lacks. A cell that read the list with too little time left to write the
 * snapshot answers from what it read.
 */
import { FILL_MIN_IDS } from '../../../src/api/lookup-cache';
import { Snapshot, type SnapshotView } from '../../../src/api/snapshot';
import { answers, partnerWorld } from '../../helpers/partner-world';

const gone = ['lp_gone_1', 'lp_gone_2', 'lp_gone_3'];
const block = (ids: readonly string[]) => () => ({ ids, column: ids, group: 'S:2:0' });

describe('with a fresh snapshot', () => {
  const published = () => {
    const w = partnerWorld();
    w.readRange();
    return { w, after: w.log() };
  };

  test('an inactive id whose neighbours the snapshot holds is asked for alone', () => {
    const { w, after } = published();
    const out = w.execution('mine').lookup([gone[0]], block([gone[0], ...w.ids.slice(200, 240)]));
    expect(answers(out)).toEqual([gone[0]]);
    expect(after.idRequests()).toEqual([gone[0]]);
    expect(after.listRequests()).toBe(0);
  });

  test('an inactive id is asked for with the neighbours the snapshot lacks, and only those', () => {
    const { w, after } = published();
    const out = w.execution('mine').lookup([gone[0]], block([gone[0], ...w.ids.slice(200, 240), gone[1], gone[2]]));
    expect(answers(out)).toEqual([gone[0]]);
    expect(after.idRequests()).toEqual(gone);
    expect(after.listRequests()).toBe(0);
  });

  test(`${FILL_MIN_IDS} inactive ids are asked for one by one: the list is not read again`, () => {
    const { w, after } = published();
    const inactive = Array.from({ length: FILL_MIN_IDS }, (_, i) => `lp_gone_${i}`);
    expect(answers(w.execution('mine').lookup(inactive))).toEqual(inactive);
    expect(after.idRequests()).toEqual(inactive);
    expect(after.listRequests()).toBe(0);
  });

  test('a lost bucket holding one of the missing ids is read again, next to an inactive id in a bucket still there', () => {
    const { w, after } = published();
    const lost = w.evictBucketOf(w.ids[100]).filter((id) => !w.ids.slice(0, 50).includes(id));
    // An inactive id whose bucket is there: the snapshot tells it is not listed.
    const snapshot = new Snapshot(w.memo);
    const view = snapshot.view() as SnapshotView;
    const inactive = Array.from({ length: 50 }, (_, i) => `lp_gone_${i}`).find(
      (id) => !snapshot.find(view, [id]).lost.has(id),
    ) as string;
    const wanted = [...lost.slice(0, 50), inactive];
    expect(answers(w.execution('mine').lookup(wanted))).toEqual(wanted);
    expect(after.listRequests()).toBe(4);
    expect(after.idRequests()).toEqual([inactive]);
  });
});

describe('without a snapshot', () => {
  test(`${FILL_MIN_IDS - 1} ids are asked for one by one; ${FILL_MIN_IDS} read the list`, () => {
    const few = partnerWorld();
    expect(answers(few.execution('mine').lookup(few.ids.slice(0, FILL_MIN_IDS - 1)))).toEqual(
      few.ids.slice(0, FILL_MIN_IDS - 1),
    );
    expect(few.listRequests()).toBe(0);
    const enough = partnerWorld();
    expect(answers(enough.execution('mine').lookup(enough.ids.slice(0, FILL_MIN_IDS)))).toEqual(
      enough.ids.slice(0, FILL_MIN_IDS),
    );
    expect(enough.idRequests()).toEqual([]);
  });

  test(`a column of ${FILL_MIN_IDS - 1} ids that holds the cell's own counts it once: no list read`, () => {
    const w = partnerWorld();
    const column = w.ids.slice(0, FILL_MIN_IDS - 1);
    expect(answers(w.execution('mine').lookup([column[5]], block(column)))).toEqual([column[5]]);
    expect(w.listRequests()).toBe(0);
  });

  test('neighbours with a cached answer are not counted: no list read for one cold id among them', () => {
    const w = partnerWorld();
    const cached = w.ids.slice(0, FILL_MIN_IDS - 1);
    expect(answers(w.execution('earlier').lookup(cached))).toEqual(cached);
    const after = w.log();
    const column = [...cached, w.ids[100]];
    expect(answers(w.execution('mine').lookup([w.ids[100]], block(column)))).toEqual([w.ids[100]]);
    expect(after.idRequests()).toEqual([w.ids[100]]);
    expect(after.listRequests()).toBe(0);
  });

  test('after reading the list, an inactive cell asks for itself and its inactive neighbours only', () => {
    const w = partnerWorld();
    const out = w.execution('mine').lookup([gone[0]], block([gone[0], ...w.ids.slice(0, 40), gone[1], gone[2]]));
    expect(answers(out)).toEqual([gone[0]]);
    expect(w.listRequests()).toBe(4);
    expect(w.idRequests()).toEqual(gone);
  });

  test('after reading the list, an active cell asks for none of its inactive neighbours', () => {
    const w = partnerWorld();
    const out = w.execution('mine').lookup([w.ids[0]], block([...w.ids.slice(0, 40), gone[1], gone[2]]));
    expect(answers(out)).toEqual([w.ids[0]]);
    expect(w.listRequests()).toBe(4);
    expect(w.idRequests()).toEqual([]);
  });

  test('a range that read the list asks for its inactive ids one by one', () => {
    const w = partnerWorld();
    const range = [...w.ids.slice(0, 40), gone[0]];
    expect(answers(w.execution('mine').lookup(range))).toEqual(range);
    expect(w.idRequests()).toEqual([gone[0]]);
  });

  test('with too little time left to write the snapshot, the range is answered from what was read', () => {
    // Each page takes 1.5 s: after the read, less time is left than writing the snapshot needs.
    const w = partnerWorld();
    w.hooks.onList = () => {
      w.clock.t += 1_500;
      return undefined;
    };
    const range = w.ids.slice(0, 50);
    expect(answers(w.execution('mine', 14_000).lookup(range))).toEqual(range);
    expect(w.memo.getMany([w.headKey]).get(w.headKey)).toBeUndefined();
    expect(w.idRequests()).toEqual([]);
  });
});
