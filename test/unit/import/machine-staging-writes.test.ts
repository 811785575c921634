/**
 * What a step writes to staging (src/import/machine.ts save): the pages it read, at their place,
 * and not the pages the previous step already kept there (nothing when it read nothing). Driven
 * over the in-memory ports, with the rows of every staging write counted per step.
 */
import { beginRun } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { stagingCalls, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('the step that reads a page the previous one waited for writes that page alone, at its place', () => {
  // Page 3 waits 15 s, past the first step; page 20 waits 100 s, past the second.
  const list = refusingList(2500, (page, call) =>
    call > 0 ? undefined : page === 3 ? limited(15) : page === 20 ? limited(100) : undefined,
  );
  const w = world(list.fetch, [spec]);
  const calls = stagingCalls(w);
  const { steps } = timedDrive(w, 15_000);
  expect(steps.pop()?.status).toBe('done');
  expect(steps[1].status).toBe('running');
  expect(calls[1].writes).toEqual([{ at: 200, rows: 100 }]);
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(records(2500).map((r) => r.id));
});

test('a first step that reads nothing (its budget already spent) writes no staging', () => {
  const w = world(fakeList(records(250)).fetch, [spec]);
  expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t - 1).status).toBe('running');
  expect(w.staging.has('imp1')).toBe(false);
});
