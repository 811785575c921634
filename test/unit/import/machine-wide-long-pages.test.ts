/**
 * A round asks for as many pages as the step has time left to write (src/import/machine.ts round),
 * one at least: with every column chosen (47) and a service whose pages hold 1,000 partners, a round
 * of 20 pages would need about 25.7 s of writing, more than a sidebar step (20 s), so a round that
 * always asked for 20 would never go out after page 1 and the run would never end.
 */
import { LP_FIELDS } from '../../../src/api/records';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: [...LP_FIELDS], mode: 'replace' };

test('every column, pages of 1,000: a 25,000-partner import ends (done or failed) within 100 sidebar steps', () => {
  const list = fakeList(records(25_000), { cap: 1000 });
  const w = world(list.fetch, [spec], { msPerFetch: 50 });
  const { steps } = timedDrive(w, 20_000, 100);
  expect(new Set(list.asked.map((a) => a.page)).size).toBeGreaterThan(1);
  expect(steps[steps.length - 1].status).not.toBe('running');
});
