/**
 * A run saved by an earlier release while page 1 waited, whose note (src/import/held.ts) marks pages
 * read ahead of page 1 as held in staging at a place of their own reckoning: page 1 now places every
 * page, so those are asked for again once it is in, while each page's wait is kept at its own page.
 * Driven over the in-memory ports.
 */
import { continueRun } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { idsBelowHeader, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('pages an earlier release held ahead of page 1 are asked for again; the wait of the page after them stays its own', () => {
  let refusals = 0;
  const firstAsked = new Map<number, number>();
  const list = fakeList(records(500), {
    fail: (page) => (page === 1 && refusals++ < 1 ? limited(30) : undefined),
    before: (page) => firstAsked.has(page) || firstAsked.set(page, w.clock.t),
  });
  const w = world(list.fetch, [spec], { msPerFetch: 10 });
  expect(timedDrive(w, 20_000, 1).steps[0].status).toBe('running');
  const run = w.runs.get('imp1');
  if (!run?.held) throw new Error('the first step left no note');
  const page1 = run.held.until;
  const page3 = page1 + 60_000;
  // As the earlier release saved it: page 2 held at the place its shape gave it, page 3 waiting for its own time.
  Object.assign(run, {
    held: {
      from: 1,
      marks: 'whw',
      until: page3,
      at: [page1, page3],
      shape: { size: 100, totalItems: 500, lastPage: 5 },
    },
  });
  w.clock.t = page1;
  const asked = list.asked.length;
  expect(continueRun('imp1', w.nextExecution(), page3 + 20_000).status).toBe('done');
  const after = list.asked.slice(asked);
  const at = (p: number) => after.findIndex((a) => a.page === p);
  expect(after.filter((a) => a.page === 2)).toHaveLength(1);
  expect(at(2)).toBeLessThan(at(3));
  expect(at(3)).toBe(after.length - 1);
  expect(firstAsked.get(3)).toBeGreaterThanOrEqual(page3);
  expect(w.runs.get('imp1')?.pass).toBe(1);
  expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(records(500).map((r) => r.id));
});
