import { MergeRefused, mergeTables, repointFormula } from '../../../src/import/merge';
import { a1, analystCells, replaceRefusal } from '../../../src/import/replace';
import type { Cell } from '../../../src/table/cells';
import { checkSchedule, checkSheetName, checkSpec, nextDue } from '../../../src/import/spec';

describe('merge', () => {
  test('first import: header and rows, no change log', () => {
    expect(mergeTables(null, ['id', 'x'], [['a', 1]])).toEqual({ grid: [['id', 'x'], ['a', 1]], changes: [], kept: 0 });
  });

  test('analyst columns and formulas follow their partner; new and gone partners are logged', () => {
    const existing = {
      values: [['id', 'x', 'Notes', 'Calc'], ['a', 1, 'note a', 5], ['b', 2, 'note b', 6]],
      formulas: [['', '', '', ''], ['', '', '', '=B2*5'], ['', '', '', '=B3*3+$B$2']],
    };
    const r = mergeTables(existing, ['id', 'x'], [['c', 9], ['b', 3]]);
    expect(r.grid).toEqual([
      ['id', 'x', 'Notes', 'Calc'],
      ['c', 9, '', ''],
      ['b', 3, 'note b', { formula: '=B3*3+$B$2' }],
      ['a', 1, 'note a', { formula: '=B4*5' }],
    ]);
    expect(r.changes).toEqual([
      { id: 'c', change: 'new partner', field: '', before: '', after: '' },
      { id: 'b', change: 'changed', field: 'x', before: 2, after: 3 },
      { id: 'a', change: 'no longer active', field: '', before: '', after: '' },
    ]);
  });

  test('the id column is found by meaning: any case, below a title row, which stays as it was', () => {
    const existing = {
      values: [['Partners we track', '', ''], ['ID', 'X', 'Notes'], ['a', 1, 'note a']],
      formulas: [['', '=TODAY()', ''], ['', '', ''], ['', '', '']],
    };
    const r = mergeTables(existing, ['id', 'x'], [['b', 2], ['a', 3]]);
    expect(r.grid).toEqual([
      ['Partners we track', { formula: '=TODAY()' }, ''],
      ['id', 'x', 'Notes'],
      ['b', 2, ''],
      ['a', 3, 'note a'],
    ]);
    expect(r.changes.map((c) => `${c.id}:${c.change}`)).toEqual(['b:new partner', 'a:changed']);
  });

  test('a sheet with data but no id column is refused, not replaced', () => {
    const existing = { values: [['Name', 'Notes'], ['Ann', 'keep']], formulas: [['', ''], ['', '']] };
    expect(() => mergeTables(existing, ['id', 'x'], [['a', 1]])).toThrow(MergeRefused);
    expect(() => mergeTables(existing, ['id', 'x'], [['a', 1]])).toThrow('Merge by id needs an "id" column');
  });

  test('rows with a repeated id are kept with their notes, below the table, and logged', () => {
    const existing = {
      values: [['id', 'x', 'Notes'], ['a', 1, 'first'], ['a', 1, 'second note'], ['b', 2, 'b note']],
      formulas: [['', '', ''], ['', '', ''], ['', '', '=C2&"!"'], ['', '', '']],
    };
    const r = mergeTables(existing, ['id', 'x'], [['a', 1], ['b', 2]]);
    expect(r.grid).toEqual([
      ['id', 'x', 'Notes'], ['a', 1, 'first'], ['b', 2, 'b note'], ['a', 1, { formula: '=C2&"!"' }],
    ]);
    expect(r.changes).toEqual([{ id: 'a', change: 'repeated id (kept)', field: '', before: '', after: '' }]);
    expect(r.kept).toBe(1);
  });

  test('formula re-pointing touches only same-row relative references', () => {
    expect(repointFormula('=A5+B5*$C$5+C15+LOG10(5)+Sheet2!A5', 5, 9)).toBe('=A9+B9*$C$5+C15+LOG10(5)+Sheet2!A9');
  });
});

describe('saved import settings', () => {
  test('sheet names, fields, modes and schedules are checked', () => {
    expect(checkSheetName('  Partners ')).toBe('Partners');
    for (const bad of ['', 'a/b', 'x'.repeat(101), 'Investor Data log', '__staging_x', 42]) expect(() => checkSheetName(bad)).toThrow();
    const spec = checkSpec({ sheetName: 'P', fields: ['fullName'] }, [], () => 'id1');
    expect(spec).toMatchObject({ id: 'id1', fields: ['id', 'fullName'], mode: 'replace' });
    expect(() => checkSpec({ sheetName: 'P', fields: ['nope'] }, [], () => 'x')).toThrow('Unknown field: nope.');
    expect(() => checkSpec({ sheetName: 'P', mode: 'append' }, [], () => 'x')).toThrow('The mode is "replace" or "merge".');
    expect(() => checkSpec({ sheetName: 'p' }, [spec], () => 'id2')).toThrow('Another saved import already writes the sheet "p".');
    expect(checkSchedule(null)).toBeUndefined();
    expect(() => checkSchedule({ every: 'hours', hours: 3 })).toThrow('Refresh every 1, 2, 4, 6, 8 or 12 hours.');
    expect(() => checkSchedule({ every: 'day', atHour: 24 })).toThrow('The hour must be a whole number from 0 to 23.');
  });

  test('next due times', () => {
    const t = Date.UTC(2026, 10, 22, 8, 30);
    expect(nextDue({ every: 'hours', hours: 6 }, t)).toBe(t + 6 * 3_600_000);
    expect(new Date(nextDue({ every: 'day', atHour: 6 }, t)).toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(new Date(nextDue({ every: 'day', atHour: 9 }, t)).toISOString()).toBe('2026-11-22T09:00:00.000Z');
    expect(new Date(nextDue({ every: 'week', weekday: 1, atHour: 6 }, t)).toISOString()).toBe('2026-11-23T06:00:00.000Z');
  });
});

describe('replace: what the analyst added is named, never erased', () => {
  const fields = ['id', 'fullName'];
  /** The import writes `fields` now and wrote `rows` rows of `before` in this sheet. */
  const own = (rows?: number, before = fields) => ({ fields, wrote: rows === undefined ? [] : [{ fields: before, rows }] });
  const table = (values: unknown[][], formulas: Record<string, string> = {}) => ({
    values: values as Cell[][],
    formulas: values.map((row, r) => row.map((_, c) => formulas[`${r},${c}`] ?? '')),
  });
  const names = (t: ReturnType<typeof table>, o = own(2)) => analystCells(t, o);
  test('the table the import wrote, under an earlier field list or in another order, erases nothing', () => {
    expect(replaceRefusal(null, own(0), 'S')).toBeUndefined();
    expect(replaceRefusal(table([['', ''], ['', '']]), own(0), 'S')).toBeUndefined();
    expect(replaceRefusal(table([['id', 'fullName', 'upvotes'], ['a', 'A', 3], ['b', 'B', 4]]), own(2, ['id', 'fullName', 'upvotes']), 'S')).toBeUndefined();
    // A table from before runs kept what they wrote (or another saved import's, columns reordered): by name, down to the first row without an id.
    expect(replaceRefusal(table([['fullName', 'id'], ['A', 'a'], ['B', 'b']]), own(), 'S')).toBeUndefined();
  });
  test('a spilled formula right of the table is named first; its results, a notes column and a row below count too', () => {
    const t = table([
      ['id', 'fullName', '', '', 'Notes'],
      ['a', 'A', 'A', 'X', ''],
      ['b', 'B', 'B', 'Y', 'call'],
      ['', 'total 2', '', '', ''],
    ], { '1,2': '=LP_GET(A2:A3, "fullName,firm")' });
    expect(names(t)).toEqual({ places: ['C2 (a formula)', 'E1', 'D2'], count: 7, fieldColumns: [] });
    expect(replaceRefusal(t, own(2), 'S')).toBe('Replace would erase 7 cells of "S" that the import did not write (C2 (a formula), E1, D2 and 4 more). Import with merge by id to keep your columns beside their partners, import into another sheet, or move those cells.');
  });
  test('a line typed in the id column under the table, rows typed without an id, and a field-named column the import never wrote are the analyst\'s', () => {
    const t = table([['id', 'fullName', 'email'], ['a', 'A', 'ann@fund.example'], ['', 'Prospect'], ['Source: pulled by Ann', '', '']]);
    // Written 1 row: the line under it is the analyst's even in the id column.
    expect(names(t, own(1))).toEqual({ places: ['C1', 'C2', 'B3'], count: 4, fieldColumns: [] });
    // Adding "email" to the import does not make that column its own: only what it wrote here counts.
    expect(analystCells(t, { fields: [...fields, 'email'], wrote: [{ fields, rows: 1 }] }).count).toBe(4);
    // Without any record of what it wrote, a column headed by a field name may be an earlier import's: the message says so.
    expect(replaceRefusal(t, own(), 'S')).toMatch(/ If "email" is a column an earlier import wrote, delete it\.$/);
    expect(analystCells(table([['id', 'fullName'], ['a', 'A'], ['', ''], ['Source', '']]), own()).places).toEqual(['A4']);
  });
  test('a renamed header or a title row above the header makes those cells the analyst\'s', () => {
    expect(analystCells(table([['My title', ''], ['id', 'fullName'], ['a', 'A']]), own(2)).count).toBe(5);
    expect(analystCells(table([['id', 'Name'], ['a', 'A']]), own(1)).places).toEqual(['B1', 'B2']);
  });
  test('a sheet of 200,000 analyst cells is counted, and only the first three are named', () => {
    const big = table(Array.from({ length: 20_000 }, (_, r) => Array.from({ length: 10 }, (_, c) => `v${r}:${c}`)));
    expect(analystCells(big, own(0))).toEqual({ places: ['A1', 'B1', 'C1'], count: 200_000, fieldColumns: [] });
  });
  test('A1 names past Z', () => {
    expect([a1(0, 0), a1(1, 25), a1(2, 26), a1(9, 701), a1(0, 702)]).toEqual(['A1', 'Z2', 'AA3', 'ZZ10', 'AAA1']);
  });
});
