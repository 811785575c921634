/**
 * Staging across steps: the rows a step reads are kept in the staging area at their place in the
 * list (row i of staging is the list's record i), pages read ahead of one that must wait are kept
 * there too and taken back in the next step without being asked for again (page 1 is read before any
 * other: it places them), and the run's table is the list. Checked after every step, over refusals of page 1 and of later pages.
 */
import type { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** A list of `n` records in pages of `cap`, whose pages `refuse` are refused once, each with its Retry-After (s). */
function scene(n: number, cap: number, refuse: Record<number, number>, msPerFetch = 100) {
  const once = new Set<number>();
  const list = fakeList(records(n), {
    cap,
    fail: (page): ServiceError | undefined => {
      if (!(page in refuse) || once.has(page)) return undefined;
      once.add(page);
      return limited(refuse[page]);
    },
  });
  const w = world(list.fetch, [spec], { msPerFetch });
  return { w, list };
}

/** Every staged row is the list's record at its place (rows not written yet are blank). */
function stagedInPlace(w: World, n: number): void {
  const want = records(n).map((r) => [r.id, r.fullName]);
  const rows = (w.staging.get('imp1') ?? []).slice(1);
  rows.forEach((r, i) => {
    if (r?.some((c) => c !== '')) expect([i, r]).toEqual([i, want[i]]);
  });
}

/** Drives the run, checking staging after every step; returns the steps' statuses and the pages asked for that were answered. */
function checked(n: number, cap: number, refuse: Record<number, number>, budget: number, msPerFetch = 100) {
  const { w, list } = scene(n, cap, refuse, msPerFetch);
  const statuses: string[] = [];
  let stagedRows = 0;
  for (let k = 0; k < 60; k++) {
    const { steps } = timedDrive(w, budget, 1);
    const s = steps[0];
    statuses.push(s.status);
    if (s.status !== 'running') break;
    stagedInPlace(w, n);
    stagedRows = Math.max(stagedRows, (w.staging.get('imp1') ?? []).length - 1);
  }
  const answered = list.asked.map((a) => a.page);
  return { w, list, statuses, answered, stagedRows };
}

const ids = (w: World) => (w.tables.get('Partners') ?? []).slice(1).map((r) => r[0]);
const once = (pages: number[]) => pages.filter((p, i) => pages.indexOf(p) !== i);

describe('staging across steps', () => {
  test('a later page that must wait: the pages after it are staged at their place and not asked for again', () => {
    const r = checked(1000, 100, { 3: 30 }, 20_000);
    expect(r.statuses.length).toBeGreaterThan(1);
    expect(r.statuses[r.statuses.length - 1]).toBe('done');
    expect(r.stagedRows).toBeGreaterThan(300);
    expect(once(r.answered)).toEqual([3]);
    expect(ids(r.w)).toEqual(records(1000).map((x) => x.id));
  });

  test('page 1 that must wait past a step: nothing is read ahead of it, and no other page is asked twice', () => {
    const r = checked(1000, 100, { 1: 30 }, 20_000);
    expect(r.statuses).toEqual(['running', 'done']);
    expect(r.stagedRows).toBe(0);
    expect(once(r.answered)).toEqual([1]);
    expect(ids(r.w)).toEqual(records(1000).map((x) => x.id));
  });

  test('two pages that must wait, in steps of many pages each', () => {
    const r = checked(5000, 100, { 2: 25, 30: 45 }, 20_000);
    expect(r.statuses[r.statuses.length - 1]).toBe('done');
    expect(once(r.answered).sort((a, b) => a - b)).toEqual([2, 30]);
    expect(ids(r.w)).toEqual(records(5000).map((x) => x.id));
  });
});
