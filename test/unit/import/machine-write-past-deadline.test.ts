/**
 * A run whose read ended too late to write its table leaves the writing to its next step
 * (src/import/machine.ts). That next step may itself start with no time left: the trigger
 * handlers (src/entry/triggers.ts) carry on every running import in one execution, each step
 * given the same deadline, so an import after one that used the budget starts past it. Such a step
 * must not start the write it has no time for (the execution would run past Apps Script's limit);
 * a later step with time writes. Driven over the in-memory ports with slow requests.
 */
import { beginRun, continueRun, writeMargin } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('a step that starts past its deadline with the read over leaves the write to a step with time for it', () => {
  // 250 partners in three pages of 4 s each, in 12 s; the read ends with too little time to write.
  const w = world(fakeList(records(250)).fetch, [spec], { msPerFetch: 4000 });
  const start = w.clock.t;
  expect(beginRun('imp1', 'sidebar', w.nextExecution(), start + 12_000 + writeMargin(250, 2) - 1).status).toBe(
    'running',
  );
  // The next step starts 10 s past its deadline (another import of the same execution used the budget).
  const late = continueRun('imp1', w.nextExecution(), w.clock.t - 10_000);
  expect({ status: late.status, written: w.tables.has('Partners') }).toEqual({ status: 'running', written: false });
  expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000).status).toBe('done');
});
