/**
 * Reading the shared partner snapshot (src/api/snapshot.ts): a list written in one go is published
 * by its index, looked up by id (only the chunks holding the ids asked for are read; records
 * without a usable id are never an answer), read whole in list order, and not whole once a chunk
 * is gone; a new generation replaces the old one and removes its chunks; the column layout keeps
 * every field of every record. Also the id rule every list keyed by id shares.
 */
import { idProblem, recordId, type ServiceRecord } from '../../../src/api/records';
import { CHUNK_RECORDS, fromColumns, Snapshot, toColumns } from '../../../src/api/snapshot';
import { header } from '../../../src/api/transport';
import { fnv1a } from '../../../src/api/hash';
import { memoFor } from '../../helpers/client-setup';
import { FakeClock, LimitedStore } from '../../helpers/fakes';

const partner = (i: number): ServiceRecord => ({ id: `lp_${i}`, fullName: `Name ${i}` });

function setup(ttlMs = 60_000) {
  const clock = new FakeClock(5_000_000);
  const store = new LimitedStore(clock);
  const memo = memoFor(store, clock, 'snap-key-0123456789', ttlMs);
  const asked: string[][] = [];
  const getMany = memo.getMany.bind(memo);
  memo.getMany = (keys) => {
    asked.push([...keys]);
    return getMany(keys);
  };
  return { clock, store, memo, snapshot: new Snapshot(memo), asked };
}

describe('a snapshot written in one go', () => {
  const records = Array.from({ length: 2 * CHUNK_RECORDS + 5 }, (_, i) => partner(i));

  test('no snapshot before one is published', () => {
    const { snapshot } = setup();
    expect(snapshot.view()).toBeUndefined();
  });

  test('published: its total, chunk count, freshness and time; each id in its chunk', () => {
    const { clock, snapshot } = setup(1000);
    snapshot.replace(records, 'g1');
    const view = snapshot.view();
    expect(view).toMatchObject({ gen: 'g1', total: records.length, chunkCount: 3, fresh: true, fetchedAt: 5_000_000 });
    expect(view?.chunkOf('lp_0')).toBe(0);
    expect(view?.chunkOf(`lp_${CHUNK_RECORDS - 1}`)).toBe(0);
    expect(view?.chunkOf(`lp_${CHUNK_RECORDS}`)).toBe(1);
    expect(view?.chunkOf(`lp_${2 * CHUNK_RECORDS + 4}`)).toBe(2);
    expect(view?.chunkOf('lp_unknown')).toBeUndefined();
    clock.t += 1000;
    expect(snapshot.view()?.fresh).toBe(false);
  });

  test('a lookup reads only the chunks that hold the ids asked for, and answers those ids alone', () => {
    const { snapshot, memo, asked } = setup();
    snapshot.replace(records, 'g1');
    const view = snapshot.view();
    if (!view) throw new Error('no view');
    asked.length = 0;
    const found = snapshot.lookup(view, ['lp_1', `lp_${CHUNK_RECORDS + 1}`, 'lp_nope', 'lp_1']);
    expect(asked).toEqual([[memo.key('snap', 'g1:0'), memo.key('snap', 'g1:1')]]);
    expect([...found.keys()].sort()).toEqual(['lp_1', `lp_${CHUNK_RECORDS + 1}`]);
    expect(found.get('lp_1')).toEqual({
      record: { id: 'lp_1', fullName: 'Name 1' },
      fresh: true,
      fetchedAt: 5_000_000,
    });
    asked.length = 0;
    expect(snapshot.lookup(view, ['lp_nope']).size).toBe(0);
    expect(asked).toEqual([[]]);
  });

  test("read whole in list order; not whole once a chunk is gone, and that chunk's ids are not found", () => {
    const { snapshot, memo } = setup();
    snapshot.replace(records, 'g1');
    const view = snapshot.view();
    if (!view) throw new Error('no view');
    expect(snapshot.all(view)?.map((r) => r.id)).toEqual(records.map((r) => r.id));
    memo.remove([memo.key('snap', 'g1:1')]);
    expect(snapshot.all(view)).toBeUndefined();
    expect([...snapshot.lookup(view, ['lp_0', `lp_${CHUNK_RECORDS}`]).keys()]).toEqual(['lp_0']);
  });

  test('a new generation replaces the old and removes its chunks; republishing the same generation keeps them', () => {
    const { snapshot, memo } = setup();
    snapshot.replace(records, 'g1');
    snapshot.replace(records, 'g1');
    expect(memo.getMany([0, 1, 2].map((n) => memo.key('snap', `g1:${n}`))).size).toBe(3);
    snapshot.replace(records.slice(0, 3), 'g2');
    expect(snapshot.view()).toMatchObject({ gen: 'g2', total: 3, chunkCount: 1 });
    expect(memo.getMany([0, 1, 2].map((n) => memo.key('snap', `g1:${n}`))).size).toBe(0);
  });

  test('records without a usable id are kept in the list but are never an answer for an id', () => {
    const { snapshot } = setup();
    snapshot.replace([{ id: '' }, { id: 7 }, { fullName: 'no id' }, partner(1)] as ServiceRecord[], 'g1');
    const view = snapshot.view();
    if (!view) throw new Error('no view');
    expect(view.total).toBe(4);
    expect(snapshot.all(view)).toHaveLength(4);
    expect([...snapshot.lookup(view, ['', '7', 'lp_1']).keys()]).toEqual(['lp_1']);
  });

  test('a damaged index or chunk reads as none', () => {
    const { snapshot, memo } = setup();
    for (const bad of [
      null,
      'x',
      { gen: 1, total: 1, chunks: [] },
      { gen: 'g', total: '1', chunks: [] },
      { gen: 'g', total: 1, chunks: 'x' },
      { gen: 'g', total: 1, chunks: ['x'] },
    ]) {
      memo.putMany([[snapshot.indexKey(), bad]]);
      expect(snapshot.view()).toBeUndefined();
    }
    // Chunks of one record each, damaged: no chunk, names or columns that are no list (of the same length), fewer
    // columns than names.
    for (const chunk of [null, { k: 'i', c: [['a']] }, { k: ['id'], c: 'a' }, { k: ['id'], c: [] }]) {
      memo.putMany([
        [snapshot.indexKey(), { gen: 'g', total: 1, chunks: [['a']] }],
        [memo.key('snap', 'g:0'), chunk],
      ]);
      const view = snapshot.view();
      if (!view) throw new Error('no view');
      expect(snapshot.all(view)).toBeUndefined();
    }
  });
});

describe('column layout', () => {
  test('every field of every record, in first-seen order; a missing field comes back null', () => {
    const cols = toColumns([
      { id: 'a', x: 1 },
      { id: 'b', y: [2] },
      { id: 'c', x: undefined },
    ]);
    expect(cols).toEqual({
      k: ['id', 'x', 'y'],
      c: [
        ['a', 'b', 'c'],
        [1, null, null],
        [null, [2], null],
      ],
    });
    expect(fromColumns(cols)).toEqual([
      { id: 'a', x: 1, y: null },
      { id: 'b', x: null, y: [2] },
      { id: 'c', x: null, y: null },
    ]);
    expect(fromColumns(toColumns([]))).toEqual([]);
  });
});

describe('ids a list is keyed by', () => {
  test.each([[undefined], [null], [''], ['   ']])('%j: without an id', (id) => {
    expect(idProblem(id)).toBe('without an id');
    expect(recordId({ id } as ServiceRecord)).toBeUndefined();
  });

  test.each([[7], [true], [{}], [['a']]])('%j: whose id is not text', (id) => {
    expect(idProblem(id)).toBe('whose id is not text');
    expect(recordId({ id } as ServiceRecord)).toBeUndefined();
  });

  test('text with something besides spaces is an id, as it is', () => {
    expect(idProblem(' a ')).toBeUndefined();
    expect(recordId({ id: ' a ' })).toBe(' a ');
  });
});

test('headers are found whatever their case; a missing one is undefined', () => {
  const res = { status: 200, headers: { 'Retry-After': '5', 'content-type': 'x' }, body: '' };
  expect(header(res, 'retry-after')).toBe('5');
  expect(header(res, 'CONTENT-TYPE')).toBe('x');
  expect(header(res, 'etag')).toBeUndefined();
});

test('fnv1a: the reference values of the 32-bit FNV-1a hash', () => {
  expect(fnv1a('')).toBe(0x811c9dc5);
  expect(fnv1a('a')).toBe(0xe40c292c);
  expect(fnv1a('foobar')).toBe(0xbf9cf968);
});
