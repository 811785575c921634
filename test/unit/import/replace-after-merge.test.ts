/**
 * A replace after a merge by id: the merge keeps rows it does not write (a partner no longer
 * listed, a row without an id, a title above the header), and what the analyst typed in them, in
 * the import's columns too, stays theirs. A later replace of the same import (the analyst switched
 * its mode) stops and names those cells instead of dropping them; the rows the import wrote, and
 * the rows it kept as it had written them, are its own and are replaced. A column is the import's
 * by its record: a header the analyst renamed is kept by both modes, and renaming or clearing it
 * changes no other cell's standing.
 */
import { beginRun } from '../../../src/import/machine';
import type { OutCell } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'merge' };
const run = (w: World) => beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
const table = (w: World) => w.tables.get('Partners') as OutCell[][];

/** A merged table of p0, p1, p2, `edit` made by the analyst, p1 then gone from the list, merged, and a replace asked for. */
function replaceAfterMerge(edit: (t: OutCell[][]) => OutCell[][]) {
  const list = fakeList(records(3));
  const w = world(list.fetch, [spec]);
  expect(run(w).status).toBe('done');
  w.tables.set('Partners', edit(table(w).map((r) => [...r])));
  list.items = list.items.filter((r) => r.id !== 'p1');
  expect(run(w).status).toBe('done');
  const merged = table(w).map((r) => [...r]);
  w.specs[0] = { ...w.specs[0], mode: 'replace' };
  return { done: run(w), merged, now: table(w), w };
}

describe("cells a merge kept but did not write stay the analyst's for a later replace", () => {
  test('a label typed in an imported column on a row without an id (a TOTAL row)', () => {
    const { done, merged, now } = replaceAfterMerge((t) => [...t, ['', 'Total']]);
    expect(done.status).toBe('failed');
    expect(done.message).toContain('(B5)');
    expect(now).toEqual(merged);
  });

  test('a note typed in an imported column of a partner the list no longer has', () => {
    const { done, merged, now } = replaceAfterMerge((t) => {
      t[2][1] = 'Call back in May';
      return t;
    });
    expect(done.status).toBe('failed');
    expect(done.message).toContain('B3');
    expect(now).toEqual(merged);
  });

  test('a title typed above the header', () => {
    const { done, merged, now } = replaceAfterMerge((t) => [['Fund III partners', ''], ...t]);
    expect(done.status).toBe('failed');
    expect(done.message).toContain('A1');
    expect(now).toEqual(merged);
  });

  test('a partner no longer listed, its row kept as the import wrote it, is replaced', () => {
    const { done, now } = replaceAfterMerge((t) => t);
    expect(done.status).toBe('done');
    expect(now).toEqual([
      ['id', 'fullName'],
      ['p0', 'Name 0'],
      ['p2', 'Name 2'],
    ]);
  });
});

describe("a column is the import's by its record, whatever its header says", () => {
  test('a header the analyst renamed, which the merge kept, the replace keeps too; renamed back, the field is the header again', () => {
    const { done, merged, now, w } = replaceAfterMerge((t) => {
      t[0][1] = 'Partner';
      return t;
    });
    expect(merged[0]).toEqual(['id', 'Partner']);
    expect(done.status).toBe('done');
    expect(now).toEqual([
      ['id', 'Partner'],
      ['p0', 'Name 0'],
      ['p2', 'Name 2'],
    ]);
    table(w)[0][1] = 'fullName';
    table(w)[1][1] = 'Ann';
    const again = run(w);
    expect([again.status, again.message]).toEqual(['failed', expect.stringContaining('(B2 (edited))')]);
    table(w)[1][1] = 'Name 0';
    expect(run(w).status).toBe('done');
    expect(table(w)[0]).toEqual(['id', 'fullName']);
  });

  test("an imported column's header cleared holds nothing to lose: the replace rewrites the sheet, the header back", () => {
    const list = fakeList(records(3));
    const w = world(list.fetch, [{ ...spec, mode: 'replace' }]);
    expect(run(w).status).toBe('done');
    table(w)[0][1] = '';
    const done = run(w);
    expect([done.status, done.message]).toEqual(['done', expect.stringContaining('Imported 3')]);
    expect(table(w)[0]).toEqual(['id', 'fullName']);
  });
});
