/**
 * The table LP_FIND and LP_FILTER return (src/table/rows.ts, partnerListTable): the id first,
 * then the chosen fields in the analyst's order with the id not repeated, a header row on
 * request, a "stale since" column on every row when the list is a last good copy, and text
 * returned as it is (a formula's result is never parsed, so it gets no quote).
 */
import { type FieldSpec, LP_FIELD_SPECS } from '../../../src/api/records';
import { partnerListTable, STALE_HEADER } from '../../../src/table/rows';

const spec = (name: string) => LP_FIELD_SPECS.find((f) => f.name === name) as FieldSpec;
const records = [
  { id: 'lp-1', firm: 'Acme', ticketSize: 250000 },
  { id: 'lp-2', firm: '=HYPERLINK("x")', ticketSize: '1000' },
];

test('the id comes first, then the chosen fields in their order, the id not repeated', () => {
  expect(partnerListTable(records, [spec('ticketSize'), spec('id'), spec('firm')], undefined, true)).toEqual([
    ['id', 'ticketSize', 'firm'],
    ['lp-1', 250000, 'Acme'],
    ['lp-2', 1000, '=HYPERLINK("x")'],
  ]);
});

test('no chosen fields: the id column alone; no headers: the rows alone', () => {
  expect(partnerListTable(records, [], undefined, false)).toEqual([['lp-1'], ['lp-2']]);
  expect(partnerListTable([], [spec('firm')], undefined, true)).toEqual([['id', 'firm']]);
});

test('a last good copy: every row ends with the time it was fetched, under "stale since"', () => {
  const at = Date.UTC(2024, 1, 29, 12);
  const table = partnerListTable(records, [spec('firm')], at, true);
  expect(table[0]).toEqual(['id', 'firm', STALE_HEADER]);
  expect(table.slice(1).map((row) => row.slice(0, 2))).toEqual([
    ['lp-1', 'Acme'],
    ['lp-2', '=HYPERLINK("x")'],
  ]);
  expect(table.slice(1).map((row) => (row[2] as Date).getTime())).toEqual([at, at]);
});
