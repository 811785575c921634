/**
 * What a step writes to staging when its read ends too late to write the table (src/import/machine.ts
 * save), for a list of one page that came after the pages asked for behind it: page 1 alone. The
 * pages behind it are past the end of the list; a service that repeats its last page there (clamps)
 * answered them with rows, which are no part of the list and are not written. Driven over the
 * in-memory ports.
 */
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { idsBelowHeader, world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';
import { beginRun, continueRun } from '../../../src/import/machine';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('a one-page list whose page 1 came late and slow: staging holds page 1 alone, then the table is written', () => {
  // 50 partners, 100 a page at most; past the end the service repeats page 1. Page 1 is refused for 1 s at
  // first, then takes 20 s to answer; each other request takes 2.5 s.
  let asked = 0;
  const list = fakeList(records(50), {
    pastEnd: 'clamp',
    fail: (page) => (page === 1 && asked++ === 0 ? limited(1) : undefined),
    before: (page) => {
      if (page === 1 && asked > 0) w.clock.t += 20_000;
    },
  });
  const w = world(list.fetch, [spec], { msPerFetch: 2500 });
  const first = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 20_000);
  expect(first).toMatchObject({ status: 'running', rows: 50 });
  expect(list.asked.map((a) => a.page).filter((p) => p > 1).length).toBeGreaterThan(0);
  expect(w.tables.has('Partners')).toBe(false);
  expect(idsBelowHeader(w.staging.get('imp1'))).toEqual(records(50).map((r) => r.id));
  expect(continueRun('imp1', w.nextExecution(), w.clock.t + 20_000).status).toBe('done');
  expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(records(50).map((r) => r.id));
});
