/**
 * Letting the import own a table it did not write hands it the table: in the columns headed like
 * its fields, the header row and the partners' rows (those with an id). A title typed above the
 * header and a row without an id (a TOTAL row's label) are not the table: they stay the
 * analyst's, so the replace that follows stops and names them instead of dropping them; a table
 * with neither is replaced.
 */
import { adoptTable, beginRun } from '../../../src/import/machine';
import type { OutCell } from '../../../src/import/ports';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';

/** `sheet` typed by hand, refused, adopted, then replaced: the run and the sheet after it. */
function adoptThenReplace(sheet: OutCell[][]) {
  const w = world(fakeList(records(2)).fetch, [
    { id: 'imp1', sheetName: 'P', fields: ['id', 'fullName'], mode: 'replace' },
  ]);
  w.tables.set('P', sheet);
  const run = () => beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
  expect(run().message).toContain('holds cells the import did not write');
  adoptTable('imp1', w.nextExecution());
  return { done: run(), now: w.tables.get('P') };
}

const table: OutCell[][] = [
  ['id', 'fullName'],
  ['p0', 'Name 0'],
  ['p9', 'Name 9'],
];

describe('an adopted table is its header and its partners’ rows', () => {
  test('a title above the header is named by the next replace, not dropped', () => {
    const sheet = [['Fund III', ''], ...table];
    const { done, now } = adoptThenReplace(sheet.map((r) => [...r]));
    expect(done.status).toBe('failed');
    expect(done.message).toContain('(A1 (edited))');
    expect(now).toEqual(sheet);
  });

  test("a TOTAL row's label without an id is named by the next replace, not dropped", () => {
    const sheet = [...table, ['', 'Total: 2']];
    const { done, now } = adoptThenReplace(sheet.map((r) => [...r]));
    expect(done.status).toBe('failed');
    expect(done.message).toContain('(B4)');
    expect(now).toEqual(sheet);
  });

  test('a table of a header and partners is replaced', () => {
    const { done, now } = adoptThenReplace(table.map((r) => [...r]));
    expect(done.status).toBe('done');
    expect(now).toEqual([
      ['id', 'fullName'],
      ['p0', 'Name 0'],
      ['p1', 'Name 1'],
    ]);
  });
});
