/**
 * How a published snapshot's index comes to be, and what it costs in the cache: ids read back
 * from the chunks map every record (one without an id too) to the chunk holding it, as the ids a
 * write returned say; kept ids that are damaged, or reach past the chunks being published, are
 * not used; an index damaged in the cache is no snapshot; a list written in one go takes its
 * chunks and the index, and no other value.
 */
import type { ServiceRecord } from '../../../src/api/records';
import { CHUNK_RECORDS, Snapshot, type SnapshotView } from '../../../src/api/snapshot';
import { memoFor } from '../../helpers/client-setup';
import { FakeClock, LimitedStore } from '../../helpers/fakes';

const partners = (n: number, from = 0): ServiceRecord[] =>
  Array.from({ length: n }, (_, i) => ({ id: `lp_${from + i}`, fullName: `Name ${from + i}` }));

function cache() {
  const clock = new FakeClock();
  const store = new LimitedStore(clock);
  const memo = memoFor(store, clock, 'k_index_5678', 3_600_000);
  return { store, memo, snapshot: new Snapshot(memo) };
}

const published = (snapshot: Snapshot): SnapshotView => {
  const view = snapshot.view();
  if (!view) throw new Error('expected a published snapshot');
  return view;
};

/** Every id a write returned maps to the chunk it was written in. */
function expectChunksOf(view: SnapshotView, written: string[][]): void {
  written.forEach((ids, n) => {
    for (const id of ids) expect([id, view.chunkOf(id)]).toEqual([id, n]);
  });
}

describe('ids read back from the chunks', () => {
  test('every record maps to its chunk, one without an id too, as the write returned them', () => {
    const { snapshot } = cache();
    const list = [...partners(CHUNK_RECORDS + 20), { fullName: 'no id' }];
    const written = snapshot.writeChunks('g', 0, list);
    expect(snapshot.publishWritten('g', written.length)).toBe(true);
    const view = published(snapshot);
    expect(view).toMatchObject({ total: list.length, chunkCount: 2 });
    expectChunksOf(view, written);
    expect(snapshot.lookup(view, ['lp_0', `lp_${CHUNK_RECORDS + 5}`]).size).toBe(2);
  });
});

describe('kept ids that are not used', () => {
  test.each([
    ['an empty list', []],
    ['an id that is not text', [['lp_0', 7], ['lp_1']]],
    ['a chunk that is not a list', [['lp_0'], 5]],
  ])('%s: the chunks are read back instead', (_, damaged) => {
    const { memo, snapshot } = cache();
    const written = snapshot.writeChunks('g', 0, partners(CHUNK_RECORDS + 20), true);
    memo.putMany([[memo.key('snap', 'g:ids:0'), damaged]]);
    expect(snapshot.publishWritten('g', written.length)).toBe(true);
    const view = published(snapshot);
    expect(view).toMatchObject({ total: CHUNK_RECORDS + 20, chunkCount: 2 });
    expectChunksOf(view, written);
  });

  test('ids kept for more chunks than are published are not used: only those chunks are published', () => {
    const { snapshot } = cache();
    const first = snapshot.writeChunks('g', 0, partners(10), true);
    // a write of two chunks from chunk 1, of which only chunk 1 is published
    const next = snapshot.writeChunks('g', 1, partners(CHUNK_RECORDS + 5, 10), true);
    expect(next).toHaveLength(2);
    expect(snapshot.publishWritten('g', 2)).toBe(true);
    const view = published(snapshot);
    expect(view).toMatchObject({ total: 10 + CHUNK_RECORDS, chunkCount: 2 });
    expectChunksOf(view, [first[0], next[0]]);
    expect(view.chunkOf(next[1][0])).toBeUndefined();
  });

  test('ids kept from chunk 0 for more chunks than are published are not used either', () => {
    const { snapshot } = cache();
    const written = snapshot.writeChunks('g', 0, partners(2 * CHUNK_RECORDS + 5), true);
    expect(snapshot.publishWritten('g', 2)).toBe(true);
    const view = published(snapshot);
    expect(view).toMatchObject({ total: 2 * CHUNK_RECORDS, chunkCount: 2 });
    expectChunksOf(view, written.slice(0, 2));
    expect(view.chunkOf(written[2][0])).toBeUndefined();
  });
});

describe('the index in the cache', () => {
  test('an index whose chunks are not all lists is no snapshot', () => {
    const { memo, snapshot } = cache();
    snapshot.replace(partners(3), 'g');
    expect(published(snapshot).chunkOf('lp_2')).toBe(0);
    memo.putMany([[snapshot.indexKey(), { gen: 'g', total: 3, chunks: [['lp_0', 'lp_1', 'lp_2'], 'lp_3'] }]]);
    expect(snapshot.view()).toBeUndefined();
  });

  test('a list written in one go takes its chunks and the index, no other value', () => {
    const { store, snapshot } = cache();
    snapshot.replace(partners(CHUNK_RECORDS + 1), 'g');
    expect(published(snapshot).chunkCount).toBe(2);
    expect(store.items.size).toBe(3);
  });
});
