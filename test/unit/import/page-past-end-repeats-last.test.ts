/**
 * A service that answers the page after the last with its last page again (clamping), asked to
 * confirm the end of a list whose total is a whole number of pages (src/import/machine.ts take):
 * that answer ends the list and brings no rows, so a record on the last page is counted once,
 * even one without a usable id, which is skipped and said so once.
 */
import type { ServiceRecord } from '../../../src/api/records';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { idsBelowHeader, world } from '../../helpers/fake-ports';
import { timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('the last page repeated past the end adds no row: a record without an id on it is skipped once', () => {
  // 200 partners in pages of 100; the one at 150 has no id.
  const items: ServiceRecord[] = records(200).map((r, i) => (i === 150 ? { fullName: r.fullName } : r));
  const list = fakeList(items, { pastEnd: 'clamp' });
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 20_000);
  expect(list.asked.map((a) => a.page)).toContain(3);
  const last = steps[steps.length - 1];
  expect(last.status).toBe('done');
  expect(last.message).toMatch(/ Skipped 1 listed record: /);
  expect(w.runs.get('imp1')?.pass).toBe(1);
  expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(items.flatMap((r) => (r.id === undefined ? [] : [r.id])));
});
