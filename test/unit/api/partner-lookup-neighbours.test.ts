/**
 * How a missing cell decides what to fetch (src/api/partners.ts): with a fresh snapshot, ids it
 * does not hold (inactive partners) are asked for one by one, with only the block's neighbours
 * the snapshot does not hold either; a snapshot that lost a chunk holding a missing id is read
 * again. Without one, the list is read once FILL_MIN_IDS ids are wanted (the cell's own, and the
 * column's that have no cached answer, each counted once); after that read, the cell asks only
 * for what the list lacks. A cell that read the list with too little time left to write the
 * snapshot answers from what it read.
 */
import { FILL_MIN_IDS } from '../../../src/api/partners';
import { answers, lookupWorld } from '../../helpers/partner-lookup';

const gone = ['lp_gone_1', 'lp_gone_2', 'lp_gone_3'];
const block = (ids: readonly string[]) => () => ({ ids, column: ids, group: 'S:2:0' });

describe('with a fresh snapshot', () => {
  const published = () => {
    const w = lookupWorld();
    w.readRange();
    return { w, from: w.mark() };
  };

  test('an inactive id whose neighbours the snapshot holds is asked for alone', () => {
    const { w, from } = published();
    const out = w.execution('mine').lookup([gone[0]], block([gone[0], ...w.ids.slice(200, 240)]));
    expect(answers(out)).toEqual([gone[0]]);
    expect(w.idRequests(from)).toEqual([gone[0]]);
    expect(w.listRequests(from)).toBe(0);
  });

  test('an inactive id is asked for with the neighbours the snapshot lacks, and only those', () => {
    const { w, from } = published();
    const out = w.execution('mine').lookup([gone[0]], block([gone[0], ...w.ids.slice(200, 240), gone[1], gone[2]]));
    expect(answers(out)).toEqual([gone[0]]);
    expect(w.idRequests(from)).toEqual(gone);
    expect(w.listRequests(from)).toBe(0);
  });

  test(`${FILL_MIN_IDS} inactive ids are asked for one by one: the list is not read again`, () => {
    const { w, from } = published();
    const inactive = Array.from({ length: FILL_MIN_IDS }, (_, i) => `lp_gone_${i}`);
    expect(answers(w.execution('mine').lookup(inactive))).toEqual(inactive);
    expect(w.idRequests(from)).toEqual(inactive);
    expect(w.listRequests(from)).toBe(0);
  });

  test('a lost chunk holding one of the missing ids is read again, next to an inactive id', () => {
    const { w, from } = published();
    const index = w.memo.getMany([w.indexKey]).get(w.indexKey)?.value as { gen: string };
    w.memo.remove([w.memo.key('snap', `${index.gen}:0`)]);
    const wanted = [...w.ids.slice(100, 150), gone[0]];
    expect(answers(w.execution('mine').lookup(wanted))).toEqual(wanted);
    expect(w.listRequests(from)).toBe(4);
    expect(w.idRequests(from)).toEqual([gone[0]]);
  });
});

describe('without a snapshot', () => {
  test(`${FILL_MIN_IDS - 1} ids are asked for one by one; ${FILL_MIN_IDS} read the list`, () => {
    const few = lookupWorld();
    expect(answers(few.execution('mine').lookup(few.ids.slice(0, FILL_MIN_IDS - 1)))).toEqual(
      few.ids.slice(0, FILL_MIN_IDS - 1),
    );
    expect(few.listRequests()).toBe(0);
    const enough = lookupWorld();
    expect(answers(enough.execution('mine').lookup(enough.ids.slice(0, FILL_MIN_IDS)))).toEqual(
      enough.ids.slice(0, FILL_MIN_IDS),
    );
    expect(enough.idRequests()).toEqual([]);
  });

  test(`a column of ${FILL_MIN_IDS - 1} ids that holds the cell's own counts it once: no list read`, () => {
    const w = lookupWorld();
    const column = w.ids.slice(0, FILL_MIN_IDS - 1);
    expect(answers(w.execution('mine').lookup([column[5]], block(column)))).toEqual([column[5]]);
    expect(w.listRequests()).toBe(0);
  });

  test('neighbours with a cached answer are not counted: no list read for one cold id among them', () => {
    const w = lookupWorld();
    const cached = w.ids.slice(0, FILL_MIN_IDS - 1);
    expect(answers(w.execution('earlier').lookup(cached))).toEqual(cached);
    const from = w.mark();
    const column = [...cached, w.ids[100]];
    expect(answers(w.execution('mine').lookup([w.ids[100]], block(column)))).toEqual([w.ids[100]]);
    expect(w.idRequests(from)).toEqual([w.ids[100]]);
    expect(w.listRequests(from)).toBe(0);
  });

  test('after reading the list, an inactive cell asks for itself and its inactive neighbours only', () => {
    const w = lookupWorld();
    const out = w.execution('mine').lookup([gone[0]], block([gone[0], ...w.ids.slice(0, 40), gone[1], gone[2]]));
    expect(answers(out)).toEqual([gone[0]]);
    expect(w.listRequests()).toBe(4);
    expect(w.idRequests()).toEqual(gone);
  });

  test('after reading the list, an active cell asks for none of its inactive neighbours', () => {
    const w = lookupWorld();
    const out = w.execution('mine').lookup([w.ids[0]], block([...w.ids.slice(0, 40), gone[1], gone[2]]));
    expect(answers(out)).toEqual([w.ids[0]]);
    expect(w.listRequests()).toBe(4);
    expect(w.idRequests()).toEqual([]);
  });

  test('a range that read the list asks for its inactive ids one by one', () => {
    const w = lookupWorld();
    const range = [...w.ids.slice(0, 40), gone[0]];
    expect(answers(w.execution('mine').lookup(range))).toEqual(range);
    expect(w.idRequests()).toEqual([gone[0]]);
  });

  test('with too little time left to write the snapshot, the range is answered from what was read', () => {
    // Each page takes 1.5 s: after the read, less time is left than writing the snapshot needs.
    const w = lookupWorld({ onListPage: () => (w.clock.t += 1_500) });
    const range = w.ids.slice(0, 50);
    expect(answers(w.execution('mine', 14_000).lookup(range))).toEqual(range);
    expect(w.memo.getMany([w.indexKey]).get(w.indexKey)).toBeUndefined();
    expect(w.idRequests()).toEqual([]);
  });
});
