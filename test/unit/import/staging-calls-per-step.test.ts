/**
 * The staging calls a step makes (src/import/machine.ts): each is a range write or read on a hidden
 * sheet, time taken from the step's budget. A step writes the pages it read in one write, a step with
 * nothing new to keep writes nothing, and a step whose held pages hold no rows reads nothing back.
 * Driven over the in-memory ports, every staging write and read counted per step.
 */
import type { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { stagingCalls, type World, world } from '../../helpers/fake-ports';
import { continueRun } from '../../../src/import/machine';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** Pages `waiting` are refused with a Retry-After of 60 s until the clock passes `until`. */
const waitingUntil =
  (w: () => World, waiting: readonly number[], until: () => number) =>
  (page: number): ServiceError | undefined =>
    waiting.includes(page) && w().clock.t < until() ? limited(60) : undefined;

test('the pages a step read go to staging in one write, blank rows where pages still wait', () => {
  // 400 partners, 100 a page: page 5 (asked to confirm the end) is empty; pages 2 and 4 wait past the first step.
  let start = 0;
  const list = fakeList(records(400), {
    fail: waitingUntil(
      () => w,
      [2, 4],
      () => start + 30_000,
    ),
  });
  const w = world(list.fetch, [spec]);
  start = w.clock.t;
  const calls = stagingCalls(w);
  const first = timedDrive(w, 20_000, 1).steps[0];
  expect(first.status).toBe('running');
  expect(list.asked.filter((a) => a.page === 5)).toHaveLength(1);
  // Pages 1 to 5 from row 0: pages 2 and 4 blank, page 5 (the empty page after the last) no row.
  expect(calls[0].writes).toEqual([{ at: 0, rows: 400 }]);
  expect(
    w.staging
      .get('imp1')
      ?.slice(1)
      .map((r) => r[0] !== ''),
  ).toEqual([true, false, true, false].flatMap((b) => new Array(100).fill(b)));
  const next = w.nextExecution();
  expect(continueRun('imp1', next, w.clock.t + 60_000).status).toBe('done');
  expect(w.tables.get('Partners')?.length).toBe(401);
});

test('a step whose held pages hold no rows reads nothing back from staging', () => {
  // 200 partners: page 3 (asked to confirm the end) is empty and kept; page 2 waits past the first two steps.
  let start = 0;
  const list = fakeList(records(200), {
    fail: waitingUntil(
      () => w,
      [2],
      () => start + 45_000,
    ),
  });
  const w = world(list.fetch, [spec]);
  start = w.clock.t;
  const calls = stagingCalls(w);
  const { steps, notes } = timedDrive(w, 20_000);
  expect(steps[1].status).toBe('running');
  expect(notes[0]).toMatchObject({ next: 2, slots: 'wx' });
  expect(calls[1].reads).toEqual([]);
  expect(steps.pop()?.status).toBe('done');
  expect(w.tables.get('Partners')?.length).toBe(201);
});

test('a step that takes no page writes nothing to staging', () => {
  // The list grows by one partner after page 2 (the pages after it show another total: the read is done again);
  // page 3 waits past two steps.
  let start = 0;
  let grown = false;
  const list = fakeList(records(1000), {
    fail: waitingUntil(
      () => w,
      [3],
      () => start + 45_000,
    ),
    before: (page) => {
      if (page > 2 && !grown) {
        grown = true;
        list.items.push({ id: 'late', fullName: 'Late' });
      }
    },
  });
  const w = world(list.fetch, [spec]);
  start = w.clock.t;
  const calls = stagingCalls(w);
  const asked: number[] = [];
  const next = w.nextExecution.bind(w);
  w.nextExecution = () => {
    asked.push(list.asked.length);
    return next();
  };
  const { steps } = timedDrive(w, 20_000);
  expect(steps[1].status).toBe('running');
  // The second step took no page: page 3 still waits.
  expect(asked[2] - asked[1]).toBe(0);
  expect(steps[1].rows).toBe(steps[0].rows);
  expect(calls[1].writes).toEqual([]);
  expect(steps.pop()?.status).toBe('done');
  expect(w.tables.get('Partners')?.length).toBe(1002);
});
