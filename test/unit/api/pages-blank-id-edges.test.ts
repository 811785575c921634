/**
 * readList (LP_ACTIVE, LP_FIND's list, a filled-down column's read) skips and counts records
 * without a usable id (missing, null, blank or spaces): two pages in a row whose first and last
 * records have none are not taken for a repeat of each other (the cursor's page signature knows
 * such a record by its fields, src/api/pages.ts).
 */
import { readList } from '../../../src/api/pages';
import type { ServiceRecord } from '../../../src/api/records';
import { fakeList, records } from '../../helpers/fake-list';

const list = (missing: unknown): ServiceRecord[] =>
  records(400).map((r, i) => ([100, 199, 200, 299].includes(i) ? { ...r, id: missing } : r) as ServiceRecord);

test.each([[undefined], [null], [''], ['  ']])(
  'records whose id is %p at the edges of pages 2 and 3: the list reads complete, those 4 skipped',
  (missing) => {
    const read = readList(fakeList(list(missing)).fetch, { limit: 1000, batch: 20, passes: 2 });
    expect(read.verdict).toEqual({ complete: true });
    expect(read.records).toHaveLength(396);
  },
);
