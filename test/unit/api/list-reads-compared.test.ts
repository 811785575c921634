/**
 * How `readList` (src/api/pages.ts) tells whether two reads of a list keyed by id found the same
 * ids: a read whose only fault is ids listed more than once is taken as the list when the read
 * before it found the same ids in the same order (see judge). The comparison goes id for
 * id (two reads whose ids run together the same way but split differently are not alike), counts
 * the usable ids only (a record without one is skipped wherever it sits), and the digest a read
 * gives is `idsDigest` of exactly those ids, so a reader that keeps it can compare it with its own.
 */
import { idsDigest, readList } from '../../../src/api/pages';
import type { ServiceRecord } from '../../../src/api/records';
import { fakeList, records } from '../../helpers/fake-list';

const withIds = (...ids: string[]): ServiceRecord[] => ids.map((id) => ({ id, fullName: `Partner ${id}` }));
const noId: ServiceRecord = { fullName: 'A partner without an id' };

/** A list served whole on page 1 that holds `reads[k]` for its (k+1)-th read, then the last one. */
function readsOf(...reads: ServiceRecord[][]) {
  const list = fakeList(reads[0], {
    before: (_page, call) => {
      list.items = reads[Math.min(call, reads.length - 1)];
    },
  });
  return list;
}

describe('two reads with ids listed twice are compared id for id', () => {
  test('ids that run together alike but split differently are other ids: the read is not taken as the list', () => {
    const list = readsOf(withIds('a', 'bc', 'a', 'bc'), withIds('ab', 'c', 'ab', 'c'));
    const r = readList(list.fetch, { limit: 1000, batch: 20, passes: 2 });
    expect(list.asked).toHaveLength(2);
    expect(r.verdict).toEqual({
      complete: false,
      reason: '2 items came twice, so others were missed',
      changed: true,
      repeated: 2,
    });
  });

  test('the same ids split the same way in both reads are the list', () => {
    const list = readsOf(withIds('ab', 'c', 'ab', 'c'));
    const r = readList(list.fetch, { limit: 1000, batch: 20, passes: 2 });
    expect(list.asked).toHaveLength(2);
    expect(r.verdict).toEqual({ complete: true });
    expect(r.records.map((x) => x.id)).toEqual(['ab', 'c']);
  });

  test('a record without an id, elsewhere in the next read, does not make alike reads differ', () => {
    const [a] = withIds('a');
    const list = readsOf([a, noId, a], [a, a, noId]);
    const r = readList(list.fetch, { limit: 1000, batch: 20, passes: 2 });
    expect(list.asked).toHaveLength(2);
    expect(r.verdict).toEqual({ complete: true });
    expect(r.records).toEqual([a]);
  });
});

describe('the digest of a read', () => {
  test('is the idsDigest of its usable ids in list order, repeats included, records without an id left out', () => {
    const items = records(6);
    items[2] = noId;
    items[5] = { ...items[0] };
    const r = readList(fakeList(items).fetch, { limit: 1000, batch: 20, passes: 2 });
    expect(r.verdict).toEqual({ complete: true });
    expect(r.digest).toBe(idsDigest(['p0', 'p1', 'p3', 'p4', 'p0']));
  });

  test('of a keyed list whose records all lack an id is the digest of no ids', () => {
    const r = readList(fakeList([noId, { ...noId }]).fetch, { limit: 1000, batch: 20 });
    expect(r.records).toEqual([]);
    expect(r.digest).toBe(idsDigest([]));
  });
});
