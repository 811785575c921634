/**
 * How fresh an import's snapshot is once published (src/api/snapshot.ts): its records were read
 * when the import wrote their chunks, step by step, and formulas serve a fresh snapshot as the
 * current answer, with no mark. A snapshot whose records are older than the cache lifetime when it
 * is published must not be served as fresh: its age is that of its records, not of its index.
 */
import type { ServiceRecord } from '../../../src/api/records';
import { CHUNK_RECORDS, Snapshot } from '../../../src/api/snapshot';
import { memoFor } from '../../helpers/client-setup';
import { FakeClock, LimitedStore } from '../../helpers/fakes';

const MINUTE = 60_000;
const partner = (i: number): ServiceRecord => ({ id: `lp_${String(i).padStart(5, '0')}`, fullName: `Name ${i}` });

test('records written ten minutes before their snapshot is published, with a one-minute lifetime, are not fresh', () => {
  const clock = new FakeClock();
  const memo = memoFor(new LimitedStore(clock), clock, 'k_test_5678');
  const snapshot = new Snapshot(memo);
  const readAt = clock.now();
  // An import read the list and wrote its chunks; a rate-limited service kept it going ten minutes more.
  snapshot.writeChunks(
    'run1.1',
    0,
    Array.from({ length: 2 * CHUNK_RECORDS }, (_, i) => partner(i)),
    true,
  );
  clock.t += 10 * MINUTE;
  expect(snapshot.publishWritten('run1.1', 2)).toBe(true);
  const view = snapshot.view();
  expect({ fresh: view?.fresh, readBy: (view?.fetchedAt ?? 0) <= readAt }).toEqual({ fresh: false, readBy: true });
});

test('chunks written over several steps: the snapshot is fresh from the oldest of them, for one lifetime', () => {
  for (const keepIds of [false, true]) {
    const clock = new FakeClock();
    const memo = memoFor(new LimitedStore(clock), clock, 'k_test_5678');
    const snapshot = new Snapshot(memo);
    const firstAt = clock.now();
    const records = Array.from({ length: 3 * CHUNK_RECORDS }, (_, i) => partner(i));
    // Three steps, twenty seconds apart, each writing one chunk; published ten seconds after the last.
    for (let n = 0; n < 3; n++) {
      clock.t = firstAt + n * 20_000;
      snapshot.writeChunks('run2.1', n, records.slice(n * CHUNK_RECORDS, (n + 1) * CHUNK_RECORDS), keepIds);
    }
    clock.t = firstAt + 50_000;
    expect(snapshot.publishWritten('run2.1', 3)).toBe(true);
    const judged = (at: number) => {
      clock.t = at;
      const view = snapshot.view();
      return { keepIds, fresh: view?.fresh, fetchedAt: view?.fetchedAt, total: view?.total };
    };
    expect(judged(firstAt + MINUTE - 1)).toEqual({
      keepIds,
      fresh: true,
      fetchedAt: firstAt,
      total: 3 * CHUNK_RECORDS,
    });
    expect(judged(firstAt + MINUTE)).toEqual({ keepIds, fresh: false, fetchedAt: firstAt, total: 3 * CHUNK_RECORDS });
  }
});
