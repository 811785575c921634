/**
 * While every missing page waits for its Retry-After, a step sleeps until the page due first, not
 * the first in list order (src/import/machine.ts round): a later page refused for a shorter time is
 * asked for again as soon as its time comes. Driven over the in-memory ports with a step long
 * enough to hold both waits, the time of every request recorded.
 */
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test.each([
  [60, 10],
  [30, 5],
  [90, 45],
])('page 2 refused for %i s and page 3 for %i s: page 3 is asked for again when its own time comes', (two, three) => {
  const times = new Map<number, number[]>();
  const list = fakeList(records(300), {
    before: (page) => times.set(page, [...(times.get(page) ?? []), w.clock.t]),
    fail: (page) => {
      const asked = times.get(page)?.length ?? 0;
      if (asked !== 1) return undefined;
      return page === 2 ? limited(two) : page === 3 ? limited(three) : undefined;
    },
  });
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 200_000);
  expect(steps[steps.length - 1].status).toBe('done');
  const [first3, again3] = times.get(3) ?? [];
  const [first2, again2] = times.get(2) ?? [];
  expect(again3 - first3).toBeGreaterThanOrEqual(three * 1000);
  expect(again3 - first3).toBeLessThan(three * 1000 + 1000);
  expect(again2 - first2).toBeGreaterThanOrEqual(two * 1000);
  expect(w.tables.get('Partners')?.length).toBe(301);
});
