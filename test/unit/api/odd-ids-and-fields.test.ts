/**
 * Odd records from the data service (ids of every kind, a field named `__proto__`, fields that
 * shadow Object.prototype, values of every JSON kind) through the api layer: the shared snapshot
 * gives back every record as it was kept and finds each by its id, and no other; the page reader
 * takes every record with a usable id and skips (and counts) the others without failing the
 * list, and an item of a page that is no record is one without an id; a per-id answer whose id is
 * no text is a clear wrong answer for that id, and a pagination object of odd values gives whole
 * numbers or a clear error. Records are drawn from seeds, several seeds swept.
 */
import { ServiceError } from '../../../src/api/errors';
import { OPERATIONS, readPagination, singleRecord } from '../../../src/api/operations';
import { readList } from '../../../src/api/pages';
import { firstOfEachId, type JsonValue, LP_FIELD_SPECS, recordId, type ServiceRecord } from '../../../src/api/records';
import { Snapshot } from '../../../src/api/snapshot';
import { fakeList } from '../../helpers/fake-list';
import { memoFor, setupClient } from '../../helpers/client-setup';
import { FakeClock, json, LimitedStore } from '../../helpers/fakes';
import { oddRecord, oddValue, seeded } from '../../helpers/odd-values';

const SEEDS = Array.from({ length: 10 }, (_, k) => k + 1);
const FIELDS = LP_FIELD_SPECS.map((s) => s.name).slice(0, 10);
const SHADOWS = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'];

function snapshot(): Snapshot {
  const clock = new FakeClock();
  return new Snapshot(memoFor(new LimitedStore(clock), clock, 'k_test_1234', 3_600_000));
}

/** `n` odd records from `seed`, each usable id once (a list that repeats an id is another matter). */
function oddList(seed: number, n: number): ServiceRecord[] {
  const rnd = seeded(seed);
  const seen = new Set<string>();
  return Array.from({ length: n }, (_, k) => oddRecord(rnd, FIELDS, k)).filter((r) => {
    const id = recordId(r);
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** A record as the snapshot keeps it, in the cache's JSON: every field of the chunk, null where the record has none. */
const asKept = (r: ServiceRecord, keys: readonly string[]): Record<string, unknown> =>
  JSON.parse(
    JSON.stringify(Object.fromEntries(keys.map((k) => [k, Object.getOwnPropertyDescriptor(r, k)?.value ?? null]))),
  );

describe.each(SEEDS)('seed %i', (seed) => {
  test('the snapshot gives back every odd record, own fields only, and finds each usable id and no other', () => {
    const records = oddList(seed, 450);
    const snap = snapshot();
    snap.replace(records, 'g1');
    const view = snap.view() as NonNullable<ReturnType<Snapshot['view']>>;
    const all = snap.all(view) as ServiceRecord[];
    expect(all).toHaveLength(records.length);
    all.forEach((r, i) => {
      expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
      const keys = [...new Set([...Object.keys(r), ...Object.keys(records[i])])];
      expect(asKept(r, keys)).toEqual(asKept(records[i], keys));
    });
    const ids = records.map(recordId).filter((id): id is string => id !== undefined);
    const asked = [...ids, ...SHADOWS.filter((s) => !ids.includes(s))];
    const hits = snap.find(view, asked).records;
    expect([...hits.keys()].sort()).toEqual([...ids].sort());
    for (const [id, record] of hits) expect(record.id).toBe(id);
  });

  test('a per-id answer and a pagination object of odd values give a record, whole numbers, or a ServiceError; nothing else', () => {
    const rnd = seeded(seed + 2000);
    for (let i = 0; i < 40; i++) {
      const v = oddValue(rnd);
      for (const read of [
        () => singleRecord([{ id: v }] as JsonValue, OPERATIONS.getLimitedPartnerById, 'lp_1'),
        () => singleRecord(v, OPERATIONS.getVentureFundById, 'vf_1'),
        () => {
          const p = readPagination(
            { totalItems: v, totalPages: v, currentPage: v, pageSize: v },
            { page: 2, limit: 10 },
          );
          expect(Object.values(p).every((n) => Number.isInteger(n) && n >= 0)).toBe(true);
        },
      ]) {
        try {
          read();
        } catch (e) {
          expect(e).toBeInstanceOf(ServiceError);
        }
      }
    }
  });

  test('the page reader takes every odd record with a usable id, in order, and the read is complete', () => {
    const records = oddList(seed, 450);
    const r = readList(fakeList(records, { pastEnd: 'empty' }).fetch, { limit: 100, batch: 3 });
    expect(r.verdict).toEqual({ complete: true });
    expect(r.records).toEqual(records.filter((x) => recordId(x) !== undefined));
  });
});

test('a partner with a field named "__proto__" leaves the other records of its bucket, and its own other fields, as they were', () => {
  const odd = JSON.parse('{"id":"odd","__proto__":{"fullName":"Not sent","id":"x"}}') as ServiceRecord;
  const plain: ServiceRecord = { id: 'plain', fullName: 'Ada' };
  const snap = snapshot();
  snap.replace([plain, odd, { id: 'bare' }], 'g1');
  const view = snap.view() as NonNullable<ReturnType<Snapshot['view']>>;
  const [a, b, c] = snap.all(view) as ServiceRecord[];
  expect([a, b, c].map(Object.getPrototypeOf)).toEqual([Object.prototype, Object.prototype, Object.prototype]);
  expect(b.fullName).toBeNull();
  expect(Object.getOwnPropertyDescriptor(b, '__proto__')?.value).toEqual({ fullName: 'Not sent', id: 'x' });
  expect(c.fullName).toBeNull();
  expect(snap.find(view, ['odd']).records.get('odd')?.fullName).toBeNull();
});

test('a per-id answer whose id is an object with a "toString" field is a wrong answer for that id, said as such', () => {
  const data = JSON.parse('[{"id":{"toString":" ","valueOf":-1},"fullName":"Ada"}]');
  let thrown: unknown;
  try {
    singleRecord(data, OPERATIONS.getLimitedPartnerById, 'lp_1');
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(ServiceError);
  expect((thrown as ServiceError).code).toBe('BAD_RESPONSE');
  expect((thrown as ServiceError).message).toContain('id object when asked for lp_1');
});

test('a page holding items that are no records (null, text, a list, a number) is read: they are skipped and counted as records without an id', () => {
  const data = [{ id: 'a' }, null, 'x', ['b'], 7, { id: 'c' }];
  const { client } = setupClient(
    (url) =>
      json(200, {
        data: url.searchParams.get('page') === '1' ? data : [],
        pagination: { totalItems: data.length, totalPages: 1, currentPage: 1, pageSize: 100 },
      }),
    'k_test_1234',
    (clock) => new LimitedStore(clock),
  );
  const read = readList((pages, limit) => client.activePartnerPages(pages, limit), { limit: 100, batch: 2 });
  expect(read.verdict).toEqual({ complete: true });
  expect(read.records).toEqual([{ id: 'a' }, { id: 'c' }]);
});

describe('each usable id once', () => {
  test('a repeated id keeps its first listing, in order; records without a usable id are all kept', () => {
    const listed: ServiceRecord[] = [
      { id: 'a', n: 1 },
      { id: '', n: 2 },
      { id: 'b', n: 3 },
      { id: 'a', n: 4 },
      { id: '', n: 5 },
      { n: 6 },
      { id: 'b', n: 7 },
    ];
    expect(firstOfEachId(listed).map((r) => r.n)).toEqual([1, 2, 3, 5, 6]);
  });
});
