/**
 * The writes a step makes to staging (src/import/machine.ts save), each one a write to the
 * spreadsheet: one, from the first page the step read to the last, each at its place, with blank
 * rows for the pages still missing. A page read ahead that does not fit the list (it shows another
 * total) is not kept for the next step, and a step that only waits writes nothing. Driven over the in-memory
 * ports, with every staging write recorded per step.
 */
import type { ImportSpec } from '../../../src/import/spec';
import { records } from '../../helpers/fake-list';
import { type StagingCalls, stagingCalls, type World, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

const ids = (w: World) =>
  w.tables
    .get('Partners')
    ?.slice(1)
    .map((r) => r[0]);

/**
 * A list of `read` full pages of 100 and a last one of 50, page 2 refused for 60 s at its first
 * request: the first step (20 s) reads page 1, then every other page, and waits for page 2 to its end.
 * Returns that step's staging writes, after checking the run then imports the whole list.
 */
function firstStepWrites(read: number): StagingCalls['writes'] {
  const total = read * 100 + 50;
  const w = world(refusingList(total, (page, call) => (page === 2 && call === 0 ? limited(60) : undefined)).fetch, [
    spec,
  ]);
  const calls = stagingCalls(w);
  const { steps } = timedDrive(w, 20_000);
  expect(steps[0].status).toBe('running');
  expect(steps[steps.length - 1].status).toBe('done');
  expect(ids(w)).toEqual(records(total).map((r) => r.id));
  return calls[0].writes;
}

describe('pages read around a page that waits', () => {
  test('a few pages: one write from page 1, the missing page blank', () => {
    expect(firstStepWrites(4)).toEqual([{ at: 0, rows: 450 }]);
  });

  test('many pages: still one write', () => {
    expect(firstStepWrites(30)).toEqual([{ at: 0, rows: 3050 }]);
  });
});

test('a page read ahead that shows another total than page 1 is not kept: it is asked for again', () => {
  // 500 partners; page 2 refused for 60 s at first; one partner is added just before page 4 is first served.
  const list = refusingList(500, (page, call) => {
    if (page === 4 && call === 0) list.items = records(501);
    return page === 2 && call === 0 ? limited(60) : undefined;
  });
  const w = world(list.fetch, [spec]);
  const calls = stagingCalls(w);
  const first = timedDrive(w, 20_000, 1);
  expect(first.steps[0].status).toBe('running');
  // Page 4 showed the list changed: the read was done again in the same step, its pages staged at their place
  // (page 2 blank: it still waits for its time, a Retry-After being the service's, not the read's).
  expect(calls[0].writes).toEqual([{ at: 0, rows: 501 }]);
  expect(first.notes[0]).toMatchObject({ total: 501, next: 2, slots: 'wiiii' });
  const { steps } = timedDrive(w, 20_000);
  expect(steps[steps.length - 1].status).toBe('done');
  expect(list.answered.get(4)).toBeGreaterThan(1);
  expect(ids(w)).toEqual(records(501).map((r) => r.id));
});

test('steps that only wait for page 1 write nothing to staging', () => {
  // 5,000 partners; page 1 refused for 100 s at first.
  const w = world(refusingList(5000, (page, call) => (page === 1 && call === 0 ? limited(100) : undefined)).fetch, [
    spec,
  ]);
  const calls = stagingCalls(w);
  const { steps } = timedDrive(w, 20_000);
  expect(steps[steps.length - 1].status).toBe('done');
  const waiting = steps.findIndex((s) => s.page > 0);
  expect(waiting).toBeGreaterThan(1);
  expect(calls.slice(0, waiting).map((c) => c.writes)).toEqual(Array(waiting).fill([]));
});
