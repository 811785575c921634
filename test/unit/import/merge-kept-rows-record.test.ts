/**
 * What a merge by id records as the import's in the rows it keeps without writing them (a partner
 * the list no longer has), read from the sheet's record before the merge: all of them when the
 * sheet is as a write that ended before its record was completed left it (a table the analyst let
 * the import own), none when the sheet has no record of this import (its columns' fields
 * without a tag: a record sheet deleted, or the table written by another import), and, however many cells the analyst edited, each cell not edited. A replace that follows
 * shows it: it replaces rows the import owns and stops on the others, naming them.
 */
import { adoptTable, beginRun } from '../../../src/import/machine';
import type { OutCell } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { Killed, type World, world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'merge' };
const run = (w: World) => beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
const table = (w: World) => (w.tables.get('Partners') as OutCell[][]).map((r) => [...r]);

/** The same import switched to replace, and run: the run and the sheet before and after it. */
function replaceNext(w: World) {
  w.specs[0] = { ...w.specs[0], mode: 'replace' };
  const before = table(w);
  return { done: run(w), before, now: table(w) };
}

/** Partners p0 and p1 listed; p9 is a row of the sheet the list does not have. */
const sheet: OutCell[][] = [
  ['id', 'fullName'],
  ['p0', 'Name 0'],
  ['p9', 'Name 9'],
  ['p1', 'Name 1'],
];

describe('a merge into a sheet without a record of this import', () => {
  test("a table with its columns' fields but no record: the kept row stays the analyst's", () => {
    const w = world(fakeList(records(2)).fetch, [spec]);
    w.tables.set(
      'Partners',
      sheet.map((r) => [...r]),
    );
    w.columns.set('Partners', ['id', 'fullName']);
    expect(run(w).status).toBe('done');
    expect(table(w)).toEqual(sheet);
    const { done, before, now } = replaceNext(w);
    expect(done.status).toBe('failed');
    expect(done.message).toContain('A3');
    expect(done.message).toContain('B3');
    expect(now).toEqual(before);
  });
});

describe('a merge into a sheet as an interrupted adoption left it', () => {
  test('the rows the analyst let the import own stay its own: a replace after the merge replaces them', () => {
    const list = fakeList(records(2));
    const w = world(list.fetch, [spec]);
    w.tables.set(
      'Partners',
      sheet.map((r) => [...r]),
    );
    expect(run(w).message).toContain('holds a table the import did not write');
    // The adoption's execution ends right after the table is written, before its record is completed.
    const ports = w.nextExecution();
    const write = ports.target.write;
    ports.target.write = (...args) => {
      write(...args);
      w.kill();
    };
    expect(() => adoptTable('imp1', ports)).toThrow(Killed);
    expect(w.tags.get('Partners')?.pending).toBeDefined();
    expect(run(w).status).toBe('done');
    const { done, now } = replaceNext(w);
    expect(done.status).toBe('done');
    expect(now).toEqual([
      ['id', 'fullName'],
      ['p0', 'Name 0'],
      ['p1', 'Name 1'],
    ]);
  });
});

describe('a merge into a sheet with every imported name edited', () => {
  test('the merge is done; of the rows it kept, the edited cells are the analyst’s and the others stay the import’s', () => {
    const list = fakeList(records(50));
    const w = world(list.fetch, [spec]);
    expect(run(w).status).toBe('done');
    // Every name retyped: fifty cells differ from the record, each named.
    w.tables.set(
      'Partners',
      table(w).map((r, i) => (i === 0 ? r : [r[0], `${String(r[1])} (retyped)`])),
    );
    list.items = list.items.filter((p) => p.id !== 'p1');
    expect(run(w).status).toBe('done');
    expect(table(w)[2]).toEqual(['p1', 'Name 1 (retyped)']);
    const { done, before, now } = replaceNext(w);
    expect(done.status).toBe('failed');
    expect(done.message).toContain('(B3 (edited))');
    expect(now).toEqual(before);
  });
});
