/**
 * The answers a read of the list leaves for the cells Sheets runs next (src/api/partners.ts): the
 * column's records are copied into a few small cache buckets that live only as long as answers
 * stay fresh; a later cell (or a range of up to COPY_BUCKETS ids) is answered from them without
 * a request, even when the snapshot is gone; a wider range does not read every bucket; at most
 * MAX_RUN_COPIES of the column's ids are copied; a bucket entry that is not a record is ignored.
 */
import { bucketKey, COPY_BUCKETS, MAX_RUN_COPIES } from '../../../src/api/lookup-cache';
import { answers, partnerWorld, TTL_MS } from '../../helpers/partner-world';

const liveCopyKeys = (w: ReturnType<typeof partnerWorld>) =>
  [...w.store.items].filter(([k, item]) => k.includes(':copy:') && item.expiresAt > w.clock.now()).map(([k]) => k);

test('after a range read the list, its ids are answered from the copies without a request, the snapshot gone', () => {
  const w = partnerWorld();
  const range = w.ids.slice(0, 50);
  w.readRange(range);
  w.evictSnapshot();
  const after = w.log();
  expect(answers(w.execution('next').lookup(range))).toEqual(range);
  expect(answers(w.execution('cell').lookup([range[17]]))).toEqual([range[17]]);
  expect(after.count()).toBe(0);
});

test('a cell that read the list for its filled-down column leaves its neighbours’ answers, not only its own', () => {
  const w = partnerWorld();
  const column = w.ids.slice(100, 140);
  const block = { ids: column, column, group: 'S:2:0' };
  expect(answers(w.execution('reader').lookup([column[0]], () => block))).toEqual([column[0]]);
  expect(w.listRequests()).toBeGreaterThan(0);
  w.evictSnapshot();
  const after = w.log();
  expect(answers(w.execution('below').lookup([column[39]]))).toEqual([column[39]]);
  expect(after.count()).toBe(0);
});

test('a column showing some fields leaves its answers with those fields and the id: its next cell is answered from them, a formula showing every field is not', () => {
  const w = partnerWorld();
  const column = w.ids.slice(100, 140);
  const block = { ids: column, column, group: 'S:2:0' };
  const shows = ['fullName'];
  expect(answers(w.execution('reader', undefined, undefined, shows).lookup([column[0]], () => block))).toEqual([
    column[0],
  ]);
  w.evictSnapshot();
  const after = w.log();
  const below = w.execution('below', undefined, undefined, shows).lookup([column[39]]);
  expect(below[0].ok && below[0].value).toStrictEqual({ id: column[39], fullName: `Name ${column[39]}` });
  expect(after.count()).toBe(0);
  const every = w.execution('every field').lookup([column[39]]);
  expect(every[0].ok && every[0].value).toEqual({
    id: column[39],
    fullName: `Name ${column[39]}`,
    activeStatus: 'ACTIVE',
  });
  expect(after.idRequests()).toEqual([column[39]]);
});

test(`a range of ${COPY_BUCKETS} ids is answered from the copies; a wider one reads none of the buckets`, () => {
  const w = partnerWorld();
  w.readRange(w.ids.slice(0, 70));
  w.evictSnapshot();
  const after = w.log();
  expect(answers(w.execution('narrow').lookup(w.ids.slice(0, COPY_BUCKETS)))).toEqual(w.ids.slice(0, COPY_BUCKETS));
  expect(after.count()).toBe(0);
  const read = jest.spyOn(w.store, 'getAll');
  expect(answers(w.execution('wide').lookup(w.ids.slice(0, COPY_BUCKETS + 1)))).toEqual(
    w.ids.slice(0, COPY_BUCKETS + 1),
  );
  expect(read.mock.calls.flatMap(([keys]) => keys).filter((k) => k.includes(':copy:'))).toEqual([]);
});

test('the copies take at most COPY_BUCKETS cache items and leave the cache when answers stop being fresh', () => {
  const w = partnerWorld();
  w.readRange(w.ids.slice(0, 200));
  const keys = liveCopyKeys(w);
  expect(keys.length).toBeGreaterThan(1);
  expect(keys.length).toBeLessThanOrEqual(COPY_BUCKETS);
  w.clock.t += TTL_MS;
  expect(liveCopyKeys(w)).toEqual([]);
});

test(`only the first ${MAX_RUN_COPIES} ids of the column that the list holds are copied`, () => {
  const w = partnerWorld({ total: MAX_RUN_COPIES + 1, pageCap: 1000 });
  // An inactive id heads the range: it takes none of the copies' places.
  w.readRange(['lp_gone', ...w.ids]);
  w.evictSnapshot();
  const after = w.log();
  const last = w.ids[MAX_RUN_COPIES - 1];
  expect(answers(w.execution('last copied').lookup([last]))).toEqual([last]);
  expect(after.count()).toBe(0);
  expect(answers(w.execution('past the copies').lookup([w.ids[MAX_RUN_COPIES]]))).toEqual([w.ids[MAX_RUN_COPIES]]);
  expect(after.idRequests()).toEqual([w.ids[MAX_RUN_COPIES]]);
});

test('a bucket entry that is not a record is ignored: the id is asked for', () => {
  const w = partnerWorld();
  const id = 'lp_odd';
  w.memo.putMany([[bucketKey(w.memo, id), { [id]: 'not a record' }]]);
  const out = w.execution('mine').lookup([id]);
  expect(out[0].ok && out[0].value).toEqual({ id, fullName: `Name ${id}`, activeStatus: 'ACTIVE' });
  expect(w.idRequests()).toEqual([id]);
});

test('after "Refresh all formulas", the copies a read left answer no cell: the id is asked for again', () => {
  const w = partnerWorld();
  const range = w.ids.slice(0, 50);
  w.readRange(range);
  w.evictSnapshot();
  w.clock.t += 1;
  w.refresh();
  const after = w.log();
  expect(answers(w.execution('next').lookup([range[17]]))).toEqual([range[17]]);
  expect(after.count()).toBeGreaterThan(0);
});
