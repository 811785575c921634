/**
 * Reading the shared partner snapshot (src/api/snapshot.ts): a list written in one go is published
 * by its head, looked up by id (only the buckets its ids hash to are read; records without a
 * usable id are never an answer; an id listed twice is answered by its first listing), read whole
 * in list order, and not whole once a bucket is gone (whose ids are then `lost`, not unknown); a
 * new generation replaces the old one and removes its buckets; it costs its buckets and its head,
 * no other value; the column layout keeps every field of every record. Also the id rule every list
 * keyed by id shares.
 */
import { idProblem, recordId, type ServiceRecord } from '../../../src/api/records';
import { BUCKET_RECORDS, fromColumns, Snapshot, type SnapshotView, toColumns } from '../../../src/api/snapshot';
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

const published = (snapshot: Snapshot): SnapshotView => {
  const view = snapshot.view();
  if (!view) throw new Error('expected a published snapshot');
  return view;
};

describe('a snapshot written in one go', () => {
  const records = Array.from({ length: 2 * BUCKET_RECORDS + 5 }, (_, i) => partner(i));
  const bucketKey = (memo: ReturnType<typeof setup>['memo'], id: string) => memo.key('snap', `g1:0.${fnv1a(id) % 3}`);

  test('no snapshot before one is published', () => {
    const { snapshot } = setup();
    expect(snapshot.view()).toBeUndefined();
  });

  test('published: its total, bucket count, freshness and time', () => {
    const { clock, snapshot } = setup(1000);
    snapshot.replace(records, 'g1');
    expect(snapshot.view()).toMatchObject({
      gen: 'g1',
      total: records.length,
      parts: [3],
      fresh: true,
      fetchedAt: 5_000_000,
    });
    clock.t += 1000;
    expect(snapshot.view()?.fresh).toBe(false);
  });

  test('a lookup reads only the buckets its ids hash to, in one read, and answers those ids alone', () => {
    const { snapshot, memo, asked } = setup();
    snapshot.replace(records, 'g1');
    const view = published(snapshot);
    const wanted = ['lp_1', `lp_${BUCKET_RECORDS + 1}`, 'lp_nope', 'lp_1'];
    asked.length = 0;
    const found = snapshot.find(view, wanted);
    expect(asked).toEqual([[...new Set(wanted.map((id) => bucketKey(memo, id)))]]);
    expect([...found.records.keys()].sort()).toEqual(['lp_1', `lp_${BUCKET_RECORDS + 1}`]);
    expect(found.records.get('lp_1')).toEqual({ id: 'lp_1', fullName: 'Name 1' });
    expect(found.lost.size).toBe(0);
  });

  test("read whole in list order; not whole once a bucket is gone, and that bucket's ids are lost, not unknown", () => {
    const { snapshot, memo } = setup();
    snapshot.replace(records, 'g1');
    const view = published(snapshot);
    expect(snapshot.all(view)?.map((r) => r.id)).toEqual(records.map((r) => r.id));
    const gone = 'lp_0';
    const kept = records.map((r) => String(r.id)).find((id) => bucketKey(memo, id) !== bucketKey(memo, gone)) as string;
    memo.remove([bucketKey(memo, gone)]);
    expect(snapshot.all(view)).toBeUndefined();
    const found = snapshot.find(view, [gone, kept, 'lp_nope']);
    expect([...found.records.keys()]).toEqual([kept]);
    expect([...found.lost]).toEqual(bucketKey(memo, 'lp_nope') === bucketKey(memo, gone) ? [gone, 'lp_nope'] : [gone]);
  });

  test('a new generation replaces the old and removes its buckets; republishing the same generation keeps them', () => {
    const { snapshot, memo } = setup();
    const keys = (gen: string) => [0, 1, 2].map((n) => memo.key('snap', `${gen}:0.${n}`));
    snapshot.replace(records, 'g1');
    snapshot.replace(records, 'g1');
    expect(memo.getMany(keys('g1')).size).toBe(3);
    snapshot.replace(records.slice(0, 3), 'g2');
    expect(snapshot.view()).toMatchObject({ gen: 'g2', total: 3, parts: [1] });
    expect(memo.getMany(keys('g1')).size).toBe(0);
  });

  test('a list written in one go takes its buckets and the head, no other value', () => {
    const { store, snapshot } = setup();
    snapshot.replace(records, 'g1');
    expect(store.items.size).toBe(3 + 1);
  });

  test('records without a usable id are kept in the list but are never an answer for an id', () => {
    const { snapshot } = setup();
    snapshot.replace([{ id: '' }, { id: 7 }, { fullName: 'no id' }, partner(1)] as ServiceRecord[], 'g1');
    const view = published(snapshot);
    expect(view.total).toBe(4);
    expect(snapshot.all(view)).toHaveLength(4);
    expect([...snapshot.find(view, ['', '7', 'lp_1']).records.keys()]).toEqual(['lp_1']);
  });

  test('an id listed twice is read whole once, at its first place, and looked up as first listed', () => {
    const { snapshot } = setup();
    const again = { ...records[7], fullName: 'again' };
    snapshot.replace([...records.slice(0, 300), again, ...records.slice(300)], 'g1');
    const view = published(snapshot);
    expect(snapshot.all(view)).toEqual(records);
    expect(snapshot.find(view, ['lp_7']).records.get('lp_7')).toEqual(records[7]);
  });

  test('a damaged head or bucket reads as none', () => {
    const { snapshot, memo } = setup();
    for (const bad of [
      null,
      'x',
      { gen: 1, total: 1, parts: [1] },
      { gen: 'g', total: '1', parts: [1] },
      { gen: 'g', total: 1, parts: 'x' },
      { gen: 'g', total: 1, parts: [0] },
      { gen: 'g', total: 1, parts: [1, 0] },
      { gen: 'g', total: 1, parts: [1.5] },
    ]) {
      memo.putMany([[snapshot.headKey(), bad]]);
      expect(snapshot.view()).toBeUndefined();
    }
    // Buckets of one record, damaged: no bucket, names, columns or places that are no list (of the same length).
    for (const bucket of [
      null,
      { k: 'i', c: [['a']], n: [0] },
      { k: ['id'], c: 'a', n: [0] },
      { k: ['id'], c: [], n: [0] },
      { k: ['id'], c: [['a']] },
      { k: ['id'], c: [['a']], n: [] },
      { k: ['id', 'x'], c: [['a'], []], n: [0] },
    ]) {
      memo.putMany([
        [snapshot.headKey(), { gen: 'g', total: 1, parts: [1] }],
        [memo.key('snap', 'g:0.0'), bucket],
      ]);
      const view = published(snapshot);
      expect(snapshot.all(view)).toBeUndefined();
      expect(snapshot.find(view, ['a']).lost).toEqual(new Set(['a']));
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

  test('a field named __proto__ comes back as one more field, like any other, and sets no prototype', () => {
    const [record] = fromColumns({ k: ['id', '__proto__'], c: [['a'], [{ polluted: true }]] });
    const own = (name: string) => Object.getOwnPropertyDescriptor(record, name);
    expect(own('__proto__')).toEqual({ ...own('id'), value: { polluted: true } });
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(['id', '__proto__']);
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
