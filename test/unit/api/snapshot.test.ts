/**
 * Publishing an import's snapshot (src/api/snapshot.ts): the import writes chunks step by step,
 * across executions, and keeps each write's ids in one small value, so publishing reads those
 * instead of unzipping every chunk; where one is gone, the chunks from there on are read back; where
 * a chunk read back is gone too, nothing is published. Ids kept by an execution killed before it
 * saved its progress are never used: the write that redoes it starts where the saved progress ends.
 */
import { Memo } from '../../../src/api/memo';
import type { ServiceRecord } from '../../../src/api/records';
import { CHUNK_RECORDS, Snapshot } from '../../../src/api/snapshot';
import { FakeClock, LimitedStore, nodeCodec } from '../../helpers/fakes';

const partner = (i: number): ServiceRecord => ({
  id: `lp_${String(i).padStart(5, '0')}`,
  fullName: `Name ${i}`,
  ticketSize: i * 1000,
});
const records = Array.from({ length: 7 * CHUNK_RECORDS + 37 }, (_, i) => partner(i));

function setup() {
  const clock = new FakeClock();
  const memo = new Memo({
    store: new LimitedStore(clock),
    codec: nodeCodec,
    apiKey: 'k_test_1234',
    baseUrl: 'https://data.example.com',
    ttlMs: 3_600_000,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  const asked: string[] = [];
  const getMany = memo.getMany.bind(memo);
  memo.getMany = (keys) => {
    asked.push(...keys);
    return getMany(keys);
  };
  return { memo, snapshot: new Snapshot(memo), asked };
}

/** Writes the records as an import does: three writes of whole chunks, then the rest. */
function writeInSteps(snapshot: Snapshot, gen: string, keepIds: boolean): number {
  let chunks = 0;
  for (const [from, to] of [
    [0, 3],
    [3, 5],
    [5, 8],
  ]) {
    chunks += snapshot.writeChunks(
      gen,
      chunks,
      records.slice(from * CHUNK_RECORDS, to * CHUNK_RECORDS),
      keepIds,
    ).length;
  }
  return chunks;
}

const chunkKeys = (memo: Memo, gen: string) => Array.from({ length: 8 }, (_, n) => memo.key('snap', `${gen}:${n}`));

test('with the ids kept, publishing reads no chunk, and the snapshot answers for every id; the kept ids are removed', () => {
  const { memo, snapshot, asked } = setup();
  const chunks = writeInSteps(snapshot, 'g1', true);
  expect(chunks).toBe(8);
  asked.length = 0;
  expect(snapshot.publishWritten('g1', chunks)).toBe(true);
  expect(asked.filter((k) => chunkKeys(memo, 'g1').includes(k))).toEqual([]);
  const view = snapshot.view();
  expect(view).toMatchObject({ gen: 'g1', total: records.length, chunkCount: 8, fresh: true });
  expect(snapshot.all(view as NonNullable<typeof view>)).toEqual(records);
  const some = [0, CHUNK_RECORDS * 4 + 3, records.length - 1].map((i) => String(records[i].id));
  expect([...snapshot.lookup(view as NonNullable<typeof view>, some).keys()].sort()).toEqual([...some].sort());
  const kept = [0, 3, 5].map((n) => memo.key('snap', `g1:ids:${n}`));
  expect(memo.getMany(kept).size).toBe(0);
});

test('a write whose kept ids are gone: the chunks from there on are read back, and the snapshot is still whole', () => {
  const { memo, snapshot, asked } = setup();
  const chunks = writeInSteps(snapshot, 'g2', true);
  memo.remove([memo.key('snap', 'g2:ids:3')]);
  asked.length = 0;
  expect(snapshot.publishWritten('g2', chunks)).toBe(true);
  expect(asked.filter((k) => chunkKeys(memo, 'g2').includes(k))).toEqual(chunkKeys(memo, 'g2').slice(3));
  const view = snapshot.view();
  expect(snapshot.all(view as NonNullable<typeof view>)).toEqual(records);
});

test('without kept ids, a chunk that is gone makes publishing refuse: the previous snapshot stays', () => {
  const { memo, snapshot } = setup();
  snapshot.replace(records.slice(0, 10), 'old');
  const chunks = writeInSteps(snapshot, 'g3', false);
  memo.remove([chunkKeys(memo, 'g3')[6]]);
  expect(snapshot.publishWritten('g3', chunks)).toBe(false);
  expect(snapshot.view()).toMatchObject({ gen: 'old', total: 10 });
});

test('ids kept by a killed execution (its writes redone at other chunk boundaries) are not used: every id maps to its chunk', () => {
  const { memo, snapshot } = setup();
  const stale = (n: number): ServiceRecord[] =>
    Array.from({ length: n }, (_, i) => ({ id: `stale_${i}`, fullName: 'killed' }));
  // Saved progress: 3 chunks. The killed execution then wrote chunks 3-4 and 5-6 of other records and died before saving.
  snapshot.writeChunks('g4', 0, records.slice(0, 3 * CHUNK_RECORDS), true);
  snapshot.writeChunks('g4', 3, stale(2 * CHUNK_RECORDS), true);
  snapshot.writeChunks('g4', 5, stale(2 * CHUNK_RECORDS), true);
  // The redo writes from chunk 3 again, in writes of 3 chunks, then the rest.
  let chunks = 3;
  chunks += snapshot.writeChunks('g4', chunks, records.slice(3 * CHUNK_RECORDS, 6 * CHUNK_RECORDS), true).length;
  chunks += snapshot.writeChunks('g4', chunks, records.slice(6 * CHUNK_RECORDS), true).length;
  expect(chunks).toBe(8);
  expect(snapshot.publishWritten('g4', chunks)).toBe(true);
  const view = snapshot.view() as NonNullable<ReturnType<Snapshot['view']>>;
  expect(view.total).toBe(records.length);
  expect(view.chunkOf('stale_0')).toBeUndefined();
  const all = records.map((r) => String(r.id));
  expect(snapshot.lookup(view, all).size).toBe(records.length);
  expect(memo.getMany([memo.key('snap', 'g4:ids:3'), memo.key('snap', 'g4:ids:6')]).size).toBe(0);
});

test('a list published with an id listed twice (alike in two reads) is read whole with each id once, at its first place', () => {
  const { snapshot } = setup();
  // Listed again in a later chunk, and again in its own chunk, each time with other fields.
  const again = (n: string) => ({ ...records[7], fullName: n });
  const listed = [
    ...records.slice(0, 9),
    again('twice'),
    ...records.slice(9, 300),
    again('thrice'),
    ...records.slice(300, 500),
  ];
  const chunks = snapshot.writeChunks('g5', 0, listed, true).length;
  expect(snapshot.publishWritten('g5', chunks)).toBe(true);
  const view = snapshot.view() as NonNullable<ReturnType<Snapshot['view']>>;
  expect(snapshot.all(view)).toEqual(records.slice(0, 500));
  expect(snapshot.lookup(view, [String(records[7].id)]).get(String(records[7].id))?.record).toEqual(records[7]);
});
