/**
 * A page 1 that the service keeps refusing with a Retry-After (src/import/machine.ts): nothing
 * else is asked for meanwhile (page 1 places every other page), and the run fails once the longest
 * wait without a page has passed since it began. Driven step by step over the in-memory ports.
 */
import { GIVE_UP } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('a page 1 that never comes: no other page is asked for, and the run fails once the wait without a page is spent', () => {
  // Page 1 always waits 30 s.
  const list = refusingList(3000, (page) => (page === 1 ? limited(30) : undefined));
  const w = world(list.fetch, [spec]);
  const start = w.clock.t;
  const ends: number[] = [];
  const next = w.nextExecution.bind(w);
  w.nextExecution = () => {
    ends.push(w.clock.t);
    return next();
  };
  const { steps } = timedDrive(w, 20_000);
  ends.push(w.clock.t);
  ends.shift();
  expect(new Set(list.asked.map((a) => a.page))).toEqual(new Set([1]));
  expect(steps.map((s) => s.status).pop()).toBe('failed');
  const due = ends.findIndex((t) => t - start > GIVE_UP.withoutPageMs);
  expect(steps.length - 1).toBe(due);
});
