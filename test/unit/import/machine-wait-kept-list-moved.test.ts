/**
 * A page the service asked to wait for is not asked for again before its time (src/import/machine.ts),
 * even when the read it was refused in ends because the list moved under it: the next read of the
 * list keeps the wait (a Retry-After is the run's, not the read's). Driven over the in-memory
 * ports, the time of every request recorded.
 */
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('a page refused for 60 s in a read the list moved under is asked for again 60 s later in the next read, not before', () => {
  // 1,000 partners; one is added just before page 2 is first served; page 5 is refused for 60 s at first.
  const times: number[] = [];
  let added = false;
  const list = fakeList(records(1000), {
    before: (page) => {
      if (page === 5) times.push(w.clock.t);
      if (page !== 2 || added) return;
      added = true;
      list.items = records(1001);
    },
    fail: (page) => (page === 5 && times.length === 1 ? limited(60) : undefined),
  });
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 20_000);
  expect(steps.length).toBeGreaterThan(2);
  expect(steps[steps.length - 1].status).toBe('done');
  expect(times.length).toBeGreaterThan(1);
  expect(times[1] - times[0]).toBeGreaterThanOrEqual(60_000);
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(records(1001).map((r) => r.id));
});
