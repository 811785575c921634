/**
 * A scan of the shared partner snapshot (src/api/snapshot.ts) reads the column copies of the
 * fields it shows: a lookup whose ids fall in most buckets, or the whole list with named fields,
 * reads the buckets the first time and leaves one copy per field (and the id), then reads only
 * those copies. The copies answer exactly what the buckets answer (list order, each id's first
 * listing, records without a usable id kept, a field a record lacks blank); a lookup of a few ids
 * still reads its buckets; a lost copy is read again from the buckets; copies belong to their
 * generation and live for the freshness lifetime only, the first values the cache drops.
 */
import type { ServiceRecord } from '../../../src/api/records';
import { fnv1a } from '../../../src/api/hash';
import { BUCKET_RECORDS, SCAN_BUCKETS, Snapshot, type SnapshotView } from '../../../src/api/snapshot';
import { memoFor } from '../../helpers/client-setup';
import { FakeClock, LimitedStore } from '../../helpers/fakes';

const TTL_MS = 60_000;
const partner = (i: number): ServiceRecord => ({
  id: `lp_${i}`,
  fullName: `Name ${i}`,
  firm: `Firm ${i % 7}`,
  description: `A long text about partner ${i}. `.repeat(4),
});
const records = Array.from({ length: 3 * BUCKET_RECORDS + 11 }, (_, i) => partner(i));
const ids = records.map((r) => String(r.id));
const places = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

function setup() {
  const clock = new FakeClock(7_000_000);
  const store = new LimitedStore(clock);
  const memo = memoFor(store, clock, 'copies-key-0123456789', TTL_MS);
  const asked: string[] = [];
  const reads: string[][] = [];
  const getMany = memo.getMany.bind(memo);
  memo.getMany = (keys) => {
    asked.push(...keys);
    reads.push([...keys]);
    return getMany(keys);
  };
  const snapshot = new Snapshot(memo);
  const view = (): SnapshotView => {
    const v = snapshot.view();
    if (!v) throw new Error('expected a published snapshot');
    return v;
  };
  const copyKey = (gen: string, field: string) => memo.key('snap', `${gen}:col:${field}`);
  const isBucket = (key: string) => /:snap:[^:]+:\d+\.\d+$/.test(key);
  return { clock, store, memo, snapshot, view, asked, reads, copyKey, isBucket };
}

/** What a record shows of `fields` (and its id), a missing field as blank. */
const shown = (r: ServiceRecord | undefined, fields: readonly string[]) =>
  r && Object.fromEntries(['id', ...fields].map((f) => [f, r[f] ?? null]));

test('a scan reads every bucket once and leaves its fields’ copies; the next reads only the copies, with the same answers', () => {
  const { snapshot, view, asked, copyKey, isBucket } = setup();
  snapshot.replace(records, 'g1');
  const fields = ['fullName', 'firm'];
  const v = view();
  asked.length = 0;
  const first = snapshot.find(v, ids, fields);
  expect(asked.filter(isBucket)).toHaveLength(v.parts[0]);
  asked.length = 0;
  const second = snapshot.find(v, ids, fields);
  expect(asked).toEqual(['id', ...fields].map((f) => copyKey('g1', f)));
  for (const found of [first, second]) {
    expect(found.records.size).toBe(records.length);
    expect(found.lost.size).toBe(0);
    for (const r of records) expect(shown(found.records.get(String(r.id)), fields)).toEqual(shown(r, fields));
  }
  // The heavy field no formula asked for is neither copied nor kept, from the buckets or the copies.
  for (const found of [first, second]) expect(found.records.get('lp_5')?.description).toBeUndefined();
  // Most of the ids, not all: a scan still answers those alone.
  const most = ids.slice(0, records.length - 20);
  expect([...snapshot.find(v, most, fields).records.keys()]).toEqual(most);
});

test('a scan of more buckets than one read holds: SCAN_BUCKETS a cache read, every bucket once, the same list', () => {
  const { snapshot, view, reads, isBucket } = setup();
  // Three parts of a list whose buckets are two reads' worth and more.
  const n = (2 * SCAN_BUCKETS + 3) * BUCKET_RECORDS;
  const many = Array.from({ length: n }, (_, i) => partner(i));
  const cut = [0, Math.floor(n / 3), Math.floor((2 * n) / 3), n];
  const parts = [0, 1, 2].map((p) =>
    snapshot.write('g1', p, many.slice(cut[p], cut[p + 1]), places(cut[p], cut[p + 1] - cut[p])),
  );
  snapshot.publish('g1', n, parts);
  const v = view();
  const buckets = parts.reduce((a, b) => a + b, 0);
  expect(buckets).toBeGreaterThan(2 * SCAN_BUCKETS);
  for (const read of [(x: SnapshotView) => snapshot.all(x), (x: SnapshotView) => snapshot.columns(x, ['firm'])]) {
    reads.length = 0;
    const list = read(v);
    const bucketReads = reads.map((keys) => keys.filter(isBucket)).filter((keys) => keys.length);
    expect(Math.max(...bucketReads.map((keys) => keys.length))).toBe(SCAN_BUCKETS);
    expect(bucketReads.flat().sort()).toEqual([...new Set(bucketReads.flat())].sort());
    expect(bucketReads.flat()).toHaveLength(buckets);
    expect(list?.map((r) => r.id)).toEqual(many.map((r) => r.id));
  }
  // A field no record has is no column of any bucket: the records hold the others.
  expect(snapshot.columns(v, ['website', 'firm'])?.[7]).toEqual({ id: 'lp_7', firm: 'Firm 0' });
  expect(snapshot.all(v)?.[7]).toEqual(many[7]);
});

test('a lookup of a few ids reads the buckets they hash to, not the copies', () => {
  const { snapshot, view, asked, isBucket } = setup();
  snapshot.replace(records, 'g1');
  const v = view();
  snapshot.find(v, ids, ['fullName']);
  asked.length = 0;
  const found = snapshot.find(v, ['lp_3', 'lp_4'], ['fullName']);
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.every(isBucket)).toBe(true);
  expect(found.records.get('lp_3')).toEqual(records[3]);
});

test('the whole list with named fields: list order, first listing of an id, records without a usable id, as the buckets give it', () => {
  const { snapshot, view } = setup();
  const again = { ...records[7], fullName: 'listed again' };
  const blank = { id: '', fullName: 'no id' };
  const noFirm: ServiceRecord = { id: 'lp_nofirm', fullName: 'No firm' };
  const a = snapshot.write('g2', 0, records.slice(0, 300), places(0, 300));
  const b = snapshot.write(
    'g2',
    1,
    [again, blank, noFirm, ...records.slice(300)],
    places(300, records.length - 300 + 3),
  );
  snapshot.publish('g2', records.length + 3, [a, b]);
  const whole = snapshot.all(view()) as ServiceRecord[];
  const fields = ['fullName', 'firm'];
  for (let read = 0; read < 2; read++) {
    const list = snapshot.columns(view(), fields) as ServiceRecord[];
    expect(list.map((r) => shown(r, fields))).toEqual(whole.map((r) => shown(r, fields)));
  }
  expect(whole.find((r) => r.id === 'lp_7')?.fullName).toBe('Name 7');
  expect(whole.some((r) => r.id === '')).toBe(true);
});

test('a part whose records hold none of the named fields (no id either) keeps its rows in a scan, as in the whole list', () => {
  const { snapshot, view } = setup();
  const a = snapshot.write('g3', 0, records.slice(0, 2), places(0, 2));
  const b = snapshot.write('g3', 1, [{ description: 'no id, no name' }], [2]);
  snapshot.publish('g3', 3, [a, b]);
  expect(snapshot.all(view())).toHaveLength(3);
  for (let read = 0; read < 2; read++) expect(snapshot.columns(view(), ['fullName'])).toHaveLength(3);
});

test('a lost copy is read again from the buckets and copied again', () => {
  const { snapshot, view, store, asked, copyKey, isBucket } = setup();
  snapshot.replace(records, 'g1');
  const v = view();
  snapshot.find(v, ids, ['firm']);
  store.removeAll([copyKey('g1', 'firm')]);
  asked.length = 0;
  const found = snapshot.find(v, ids, ['firm']);
  expect(asked.some(isBucket)).toBe(true);
  expect(found.records.get('lp_9')?.firm).toBe('Firm 2');
  asked.length = 0;
  snapshot.find(v, ids, ['firm']);
  expect(asked.some(isBucket)).toBe(false);
});

test('no copies and a lost bucket: the list is not whole, and a scan’s ids in that bucket are lost, not unknown', () => {
  const { snapshot, view, store, memo } = setup();
  snapshot.replace(records, 'g1');
  const gone = memo.key('snap', 'g1:0.0');
  store.removeAll([gone]);
  expect(snapshot.columns(view(), ['fullName'])).toBeUndefined();
  const found = snapshot.find(view(), ids, ['fullName']);
  expect(found.lost.size).toBeGreaterThan(0);
  expect(found.records.size + found.lost.size).toBe(records.length);
});

test('copies belong to their generation: a scan after a new one answers the new list', () => {
  const { snapshot, view } = setup();
  snapshot.replace(records, 'g1');
  snapshot.find(view(), ids, ['fullName']);
  const renamed = records.map((r) => ({ ...r, fullName: `New ${r.id}` }));
  snapshot.replace(renamed, 'g2');
  expect(snapshot.find(view(), ids, ['fullName']).records.get('lp_2')?.fullName).toBe('New lp_2');
});

test('copies live for the freshness lifetime only (buckets for the longest the cache allows), stamped with the read’s time', () => {
  const { clock, snapshot, view, store, memo, copyKey } = setup();
  snapshot.replace(records, 'g1');
  clock.t += 10_000;
  snapshot.find(view(), ids, ['fullName']);
  const copy = store.items.get(copyKey('g1', 'fullName'));
  const bucket = store.items.get(memo.key('snap', 'g1:0.0'));
  expect(copy?.expiresAt).toBe(clock.now() + TTL_MS);
  expect(bucket?.expiresAt).toBe(7_000_000 + 21_600_000);
  expect(memo.getMany([copyKey('g1', 'fullName')]).get(copyKey('g1', 'fullName'))?.fetchedAt).toBe(7_000_000);
});

test('a list read in one go and published with fields leaves their copies, stamped with its read’s time: the first scan reads no bucket', () => {
  const { clock, memo, snapshot, asked, isBucket, copyKey } = setup();
  const held = snapshot.hold(records, 'g3');
  clock.t += 5_000;
  snapshot.publishHeld(held, ['firm']);
  expect(memo.getMany([copyKey('g3', 'firm')]).get(copyKey('g3', 'firm'))?.fetchedAt).toBe(7_000_000);
  const v = snapshot.view() as SnapshotView;
  asked.length = 0;
  const found = snapshot.find(v, ids, ['firm']);
  expect(asked).toEqual([copyKey('g3', 'id'), copyKey('g3', 'firm')]);
  expect(asked.some(isBucket)).toBe(false);
  expect(found.records.get('lp_10')?.firm).toBe('Firm 3');
});

test('a list this execution holds answers a scan from memory: no copy or bucket is read', () => {
  const { snapshot, asked } = setup();
  const held = snapshot.hold(records, 'g4');
  asked.length = 0;
  expect(snapshot.columns(held, ['firm'])).toEqual(records);
  expect(snapshot.find(held, ids, ['firm']).records.get('lp_8')).toEqual(records[8]);
  expect(asked).toEqual([]);
});

test('a bucket lost in one part of two: an id it held is lost, though its bucket in the other part is there', () => {
  const { snapshot, view, store, memo } = setup();
  const a = snapshot.write('g6', 0, records.slice(0, 300), places(0, 300));
  const b = snapshot.write('g6', 1, records.slice(300), places(300, records.length - 300));
  snapshot.publish('g6', records.length, [a, b]);
  const v = view();
  const id = 'lp_400';
  const inPart1 = v.parts.map((count, part) => memo.key('snap', `g6:${part}.${fnv1a(id) % count}`));
  store.removeAll([inPart1[1]]);
  const found = snapshot.find(v, [id]);
  expect(found.records.has(id)).toBe(false);
  expect([...found.lost]).toEqual([id]);
});
