/**
 * Which partners LP_FIND's search (src/table/search.ts) counts as active when the service sends
 * the status as a list: a list holding ACTIVE alone is active; a list of several values is not,
 * even when its values, run together, would spell ACTIVE.
 */
import type { ServiceRecord } from '../../../src/api/records';
import { searchRecords } from '../../../src/table/search';

const lp = (id: string, activeStatus: unknown): ServiceRecord =>
  ({ id, fullName: `Ada ${id}`, activeStatus }) as ServiceRecord;
const ids = (records: ServiceRecord[]) => records.map((r) => r.id);

test('a status list holding ACTIVE alone is active, in any case', () => {
  expect(ids(searchRecords([lp('a', ['ACTIVE']), lp('b', ['active'])], 'ada'))).toEqual(['a', 'b']);
});

test('a status list of several values is not ACTIVE, even when they spell it run together', () => {
  const records = [lp('split', ['ACT', 'IVE']), lp('more', ['A', 'C', 'TIVE']), lp('kept', 'ACTIVE')];
  expect(ids(searchRecords(records, 'ada'))).toEqual(['kept']);
});
