/**
 * The import state machine under random refusals, seeds swept: each test runs the same 5,000-partner
 * import some thirty times (about 7 s each). Kept apart from machine.test.ts so that mutation
 * testing (stryker.config.mjs), which reruns a file's tests for every mutant they reach, runs the
 * single-seed tests there; `npm test` runs both.
 */
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { firstBroken } from '../../helpers/random-import';

const spec = (): ImportSpec => ({ id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' });
const tableIds = (w: World) => (w.tables.get('Partners') ?? []).slice(1).map((r) => r[0]);
const expected = (n: number) => records(n).map((r) => r.id);

/** A small seeded random source (a linear congruential generator), for sweeps that repeat. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('import state machine: random refusals, seeds swept', () => {
  test('no step runs past its budget whatever Retry-After says (30 % of requests refused, seeds swept); the table is exact', () => {
    for (const retryAfter of [1, 15, 60]) {
      for (let seed = 1; seed <= 10; seed++) {
        const random = seeded(seed);
        const list = fakeList(records(5000), { fail: () => (random() < 0.3 ? limited(retryAfter) : undefined) });
        const w = world(list.fetch, [spec()], { msPerFetch: 20 });
        const { steps, lengths } = timedDrive(w, 20_000);
        expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: 5000 });
        expect(tableIds(w)).toEqual(expected(5000));
        expect(Math.max(...lengths)).toBeLessThanOrEqual(20_000);
        expect(w.staging.size).toBe(0);
      }
    }
  });

  test("under 30 % refusals every request is a page's first or follows a refusal of it (steps of 12 s, seeds swept)", () => {
    for (const retryAfter of [5, 15, 40]) {
      for (let seed = 1; seed <= 8; seed++) {
        const random = seeded(seed);
        let refused = 0;
        const list = fakeList(records(5000), {
          fail: () => (random() < 0.3 && ++refused ? limited(retryAfter) : undefined),
        });
        const w = world(list.fetch, [spec()], { msPerFetch: 20 });
        const { steps } = timedDrive(w, 12_000);
        expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: 5000 });
        expect(tableIds(w)).toEqual(expected(5000));
        expect(list.asked.length).toBe(new Set(list.asked.map((a) => a.page)).size + refused);
      }
    }
  });

  test('small random imports, page 1 refused too: every one ends done with the list, each page answered once (seeds 31-700)', () => {
    expect(firstBroken(31, 700)).toBeUndefined();
  });

  test('short lists whose page 1 comes late: every one ends done with the list, each page answered once (seeds 61-500)', () => {
    expect(firstBroken(61, 500, { pages: 4, pageOneLate: true })).toBeUndefined();
  });

  test('live lists, partners added or removed under the read: every table is the list as it was at one moment (seeds 1-300, 41-300 short)', () => {
    expect(firstBroken(1, 300, { live: true })).toBeUndefined();
    expect(firstBroken(41, 300, { pages: 4, live: true })).toBeUndefined();
  });

  test('executions killed while pages are fetched, lists still or live: every import ends done with the list, its sheet untouched until then (seeds 1-200)', () => {
    expect(firstBroken(1, 200, { kills: true })).toBeUndefined();
    expect(firstBroken(1, 100, { kills: true, live: true })).toBeUndefined();
  });

  test('with a shared snapshot: what every import publishes is its table, partner for partner (seeds 31-250)', () => {
    expect(firstBroken(31, 250, { snapshot: true, kills: true, live: true })).toBeUndefined();
    expect(firstBroken(1, 200, { snapshot: true, pages: 4, pageOneLate: true })).toBeUndefined();
  });
});
