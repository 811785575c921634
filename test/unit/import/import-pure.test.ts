import { adoption, mergeTables, recordOf, refusal } from '../../../src/import/ownership';
import { columnName } from '../../../src/table/names';
import type { OwnedTable } from '../../../src/import/ports';
import type { Cell } from '../../../src/table/cells';
import { checkSchedule, checkSheetName, checkSpec, nextDue } from '../../../src/import/spec';
import { keptWhole, mergeRefusalOf as merging, ownedTable, recordFor } from '../../helpers/fake-ports';

describe('merge', () => {
  test('first import: header and rows, each column the field it holds, no change log', () => {
    const r = mergeTables(null, ['id', 'x'], [['a', 1]]);
    expect(r).toEqual({
      grid: [
        ['id', 'x'],
        ['a', 1],
      ],
      columns: ['id', 'x'],
      changes: [],
      owns: expect.any(Function),
    });
    // The rows it wrote are its own; the header row is no partner's (its names are the analyst's to choose).
    expect([r.owns(0, 0), r.owns(0, 1), r.owns(1, 0), r.owns(1, 1)]).toEqual([false, false, true, true]);
  });

  test('a listed partner is updated in its own row, a gone one keeps its row, a new one goes below; all are logged', () => {
    const existing = ownedTable(
      [
        ['id', 'x', 'Notes', 'Calc'],
        ['a', 1, 'note a', 5],
        ['b', 2, 'note b', 6],
      ],
      { '1,3': '=B2*5', '2,3': '=B3*3+$B$2' },
      ['id', 'x'],
    );
    const r = mergeTables(
      existing,
      ['id', 'x'],
      [
        ['c', 9],
        ['b', 3],
      ],
    );
    expect(r.grid).toEqual([
      ['id', 'x', 'Notes', 'Calc'],
      ['a', 1, 'note a', { formula: '=B2*5' }],
      ['b', 3, 'note b', { formula: '=B3*3+$B$2' }],
      ['c', 9, '', ''],
    ]);
    expect(r.columns).toEqual(['id', 'x', undefined, undefined]);
    expect(r.changes).toEqual([
      { id: 'c', change: 'new partner', field: '', before: '', after: '' },
      { id: 'b', change: 'changed', field: 'x', before: 2, after: 3 },
      { id: 'a', change: 'no longer active', field: '', before: '', after: '' },
    ]);
  });

  test('the header is the row where the import\'s id column reads "id", in any case, below a title row that stays as it was', () => {
    const existing = ownedTable(
      [
        ['Partners we track', '', ''],
        ['ID', 'X', 'Notes'],
        ['a', 1, 'note a'],
      ],
      { '0,1': '=TODAY()' },
      ['id', 'x'],
    );
    const r = mergeTables(
      existing,
      ['id', 'x'],
      [
        ['b', 2],
        ['a', 3],
      ],
    );
    // The headers as the analyst typed them ("ID", "X") stay.
    expect(r.grid).toEqual([
      ['Partners we track', { formula: '=TODAY()' }, ''],
      ['ID', 'X', 'Notes'],
      ['a', 3, 'note a'],
      ['b', 2, ''],
    ]);
    expect(r.changes.map((c) => `${c.id}:${c.change}`)).toEqual(['b:new partner', 'a:changed']);
  });

  test('a sheet with data but no column the import wrote is refused until the analyst lets the import own it; so is one whose id column is gone', () => {
    const typed = ownedTable([
      ['id', 'x', 'Notes'],
      ['a', 1, 'keep'],
    ]);
    expect(merging(typed)?.message).toContain('"S" holds a table the import did not write; nothing was changed.');
    const { columns } = adoption(typed, ['id', 'x']);
    expect(columns).toEqual(['id', 'x', undefined]);
    expect(merging({ ...typed, fields: columns })).toBeUndefined();
    expect(mergeTables({ ...typed, fields: columns }, ['id', 'x'], [['a', 2]]).grid).toEqual([
      ['id', 'x', 'Notes'],
      ['a', 2, 'keep'],
    ]);
    const gone = ownedTable([['x'], [1]], {}, [undefined, 'x']);
    expect(merging(gone)?.message).toContain('The id column the import wrote in "S" is gone');
    // What each refusal lets the analyst choose, recorded with it: only a table the import did not write may be let own.
    expect(merging(typed)?.offers).toEqual(['adopt']);
    expect(merging(gone)?.offers).toEqual([]);
  });

  test('a further row with a repeated id keeps its place and its cells, and is logged; only the first row is updated', () => {
    const existing = ownedTable(
      [
        ['id', 'x', 'Notes'],
        ['a', 1, 'first'],
        ['a', 1, 'second note'],
        ['b', 2, 'b note'],
      ],
      { '2,2': '=C2&"!"' },
      ['id', 'x'],
    );
    const r = mergeTables(
      existing,
      ['id', 'x'],
      [
        ['a', 5],
        ['b', 2],
      ],
    );
    expect(r.grid).toEqual([
      ['id', 'x', 'Notes'],
      ['a', 5, 'first'],
      ['a', 1, { formula: '=C2&"!"' }],
      ['b', 2, 'b note'],
    ]);
    expect(r.changes).toEqual([
      { id: 'a', change: 'changed', field: 'x', before: 1, after: 5 },
      { id: 'a', change: 'repeated id (kept)', field: '', before: '', after: '' },
    ]);
    expect(keptWhole(r)).toBe(1);
  });

  test('a TOTAL row (its label in the id column) keeps its place and its formulas, in imported columns too', () => {
    const existing = ownedTable(
      [
        ['id', 'x'],
        ['a', 1],
        ['b', 2],
        ['TOTAL', 3],
      ],
      { '3,1': '=SUM(B2:B3)' },
      ['id', 'x'],
    );
    const r = mergeTables(
      existing,
      ['id', 'x'],
      [
        ['b', 5],
        ['a', 1],
      ],
    );
    expect(r.grid).toEqual([
      ['id', 'x'],
      ['a', 1],
      ['b', 5],
      ['TOTAL', { formula: '=SUM(B2:B3)' }],
    ]);
  });

  test("the analyst's columns stay where they are, inserted between imported ones or moved; the import's columns are found wherever they are", () => {
    // The analyst moved x to the left of id and inserted "Score" between them; "Times 10" reads Score.
    const existing = ownedTable(
      [
        ['x', 'Score', 'id', 'Times 10'],
        [1, 7, 'a', 70],
        [2, 8, 'b', 80],
      ],
      { '1,3': '=B2*10', '2,3': '=B3*10' },
      ['x', undefined, 'id'],
    );
    const r = mergeTables(
      existing,
      ['id', 'x'],
      [
        ['b', 20],
        ['a', 10],
      ],
    );
    expect(r.grid).toEqual([
      ['x', 'Score', 'id', 'Times 10'],
      [10, 7, 'a', { formula: '=B2*10' }],
      [20, 8, 'b', { formula: '=B3*10' }],
    ]);
    expect(r.columns).toEqual(['x', undefined, 'id', undefined]);
  });

  test("a field newly added gets a new column, never the analyst's column of that name; a field no longer written leaves its column to the analyst", () => {
    const existing = ownedTable(
      [
        ['id', 'old', 'region'],
        ['a', 'o', 'my note'],
      ],
      {},
      ['id', 'old'],
    );
    const r = mergeTables(existing, ['id', 'region'], [['a', 'EU']]);
    expect(r.grid).toEqual([
      ['id', 'old', 'region', 'region'],
      ['a', 'o', 'my note', 'EU'],
    ]);
    expect(r.columns).toEqual(['id', undefined, undefined, 'region']);
  });

  test("an analyst's formula in an imported column is kept, not overwritten", () => {
    const r = mergeTables(
      ownedTable(
        [
          ['id', 'x'],
          ['a', 0],
        ],
        { '1,1': '=1+1' },
        ['id', 'x'],
      ),
      ['id', 'x'],
      [['a', 5]],
    );
    expect(r.grid[1]).toEqual(['a', { formula: '=1+1' }]);
  });
});

describe('merge by id never moves a row', () => {
  /** A table the analyst sorted by size, descending, with an analyst column reading another row. */
  const sorted = () =>
    ownedTable(
      [
        ['id', 'name', 'size', 'Note'],
        ['c', 'Cy', 30, ''],
        ['a', 'Al', 20, '20 below c'],
        ['b', 'Bo', 10, 'call Bo'],
        ['e', 'Ed', 5, ''],
      ],
      { '2,3': '=C3&" below "&A2' },
      ['id', 'name', 'size'],
    );

  test("the analyst's sort and every row stay: formulas reading other rows still read the same partners", () => {
    const r = mergeTables(
      sorted(),
      ['id', 'name', 'size'],
      [
        ['a', 'Al', 25],
        ['c', 'Cy', 30],
        ['d', 'Di', 40],
        ['e', 'Ed', 5],
      ],
    );
    expect(r.grid).toEqual([
      ['id', 'name', 'size', 'Note'],
      ['c', 'Cy', 30, ''],
      ['a', 'Al', 25, { formula: '=C3&" below "&A2' }],
      ['b', 'Bo', 10, 'call Bo'],
      ['e', 'Ed', 5, ''],
      ['d', 'Di', 40, ''],
    ]);
    expect(r.changes).toEqual([
      { id: 'a', change: 'changed', field: 'size', before: 20, after: 25 },
      { id: 'd', change: 'new partner', field: '', before: '', after: '' },
      { id: 'b', change: 'no longer active', field: '', before: '', after: '' },
    ]);
    expect(keptWhole(r)).toBe(1);
  });

  test("new partners go below the table's last row in the import's order; blank rows, rows without an id and a partner the filters now leave out keep their place", () => {
    const existing = ownedTable(
      [
        ['id', 'x'],
        ['a', 1],
        ['', ''],
        ['b', 2],
        ['', 3],
      ],
      { '4,1': '=SUM(B2:B4)' },
      ['id', 'x'],
    );
    const r = mergeTables(
      existing,
      ['id', 'x'],
      [
        ['z', 9],
        ['a', 1],
        ['y', 8],
      ],
      new Set(['b']),
    );
    expect(r.grid).toEqual([
      ['id', 'x'],
      ['a', 1],
      ['', ''],
      ['b', 2],
      ['', { formula: '=SUM(B2:B4)' }],
      ['z', 9],
      ['y', 8],
    ]);
    expect(r.changes.map((c) => `${c.id}:${c.change}`)).toEqual([
      'z:new partner',
      'y:new partner',
      'b:no longer matches',
    ]);
    expect(keptWhole(r)).toBe(2);
  });
});

describe('saved import settings', () => {
  test('sheet names, fields, modes and schedules are checked', () => {
    expect(checkSheetName('  Partners ')).toBe('Partners');
    for (const bad of ['', 'a/b', 'x'.repeat(101), 'Investor Data log', '__staging_x', 42])
      expect(() => checkSheetName(bad)).toThrow();
    const spec = checkSpec({ sheetName: 'P', fields: ['fullName'] }, [], () => 'id1');
    expect(spec).toMatchObject({ id: 'id1', fields: ['id', 'fullName'], mode: 'replace' });
    expect(() => checkSpec({ sheetName: 'P', fields: ['nope'] }, [], () => 'x')).toThrow('Unknown field: nope.');
    expect(() => checkSpec({ sheetName: 'P', mode: 'append' }, [], () => 'x')).toThrow(
      'The mode is "replace" or "merge".',
    );
    expect(() => checkSpec({ sheetName: 'p' }, [spec], () => 'id2')).toThrow(
      'Another saved import already writes the sheet "p".',
    );
    expect(checkSchedule(null)).toBeUndefined();
    expect(() => checkSchedule({ every: 'hours', hours: 3 })).toThrow('Refresh every 1, 2, 4, 6, 8 or 12 hours.');
    expect(() => checkSchedule({ every: 'day', atHour: 24 })).toThrow('The hour must be a whole number from 0 to 23.');
  });

  test('next due times', () => {
    const t = Date.UTC(2026, 10, 22, 8, 30);
    expect(nextDue({ every: 'hours', hours: 6 }, t)).toBe(t + 6 * 3_600_000);
    expect(new Date(nextDue({ every: 'day', atHour: 6 }, t)).toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(new Date(nextDue({ every: 'day', atHour: 9 }, t)).toISOString()).toBe('2026-11-22T09:00:00.000Z');
    expect(new Date(nextDue({ every: 'week', weekday: 1, atHour: 6 }, t)).toISOString()).toBe(
      '2026-11-23T06:00:00.000Z',
    );
  });
});

describe("replace rewrites a sheet if and only if it carries this import's tag and matches its record (current or pending)", () => {
  const fields = ['id', 'fullName'];
  const written = [
    ['id', 'fullName'],
    ['a', 'A'],
    ['b', 'B'],
  ];
  /** The sheet as the import recorded it (and, pending, `next`), then as it is now (`now`, with formulas and the columns' fields). */
  const sheet = (now: Cell[][], formulas: Record<string, string> = {}, next?: Cell[][]) => {
    const record = recordFor(written, fields);
    const pending = next ? recordFor(next, fields).written : [];
    return ownedTable(now, formulas, fields, { ...record, written: [...record.written, ...pending] });
  };
  const verdict = (t: OwnedTable | null) => refusal(t, { id: 'imp1', fields }, 'S')?.message;

  test('the table it wrote, as written, sorted, or with its columns moved, may be rewritten; so may a blank or missing sheet', () => {
    expect(verdict(null)).toBeUndefined();
    expect(
      verdict(
        ownedTable([
          ['', ''],
          ['', ''],
        ]),
      ),
    ).toBeUndefined();
    expect(verdict(sheet(written))).toBeUndefined();
    expect(
      verdict(
        sheet([
          ['id', 'fullName'],
          ['b', 'B'],
          ['a', 'A'],
        ]),
      ),
    ).toBeUndefined();
    // Moving a column moves its record.
    expect(
      verdict(
        ownedTable(
          [
            ['fullName', 'id'],
            ['B', 'b'],
            ['A', 'a'],
          ],
          {},
          ['fullName', 'id'],
          recordFor(written, fields),
        ),
      ),
    ).toBeUndefined();
  });

  test('an execution killed between writing and recording: the pending record makes the new table its own', () => {
    const next = [
      ['id', 'fullName'],
      ['c', 'C'],
    ];
    expect(verdict(sheet(next, {}, next))).toBeUndefined();
    expect(verdict(sheet(next))).toMatch(/^Replace stopped: "S" is not as the import left it/);
  });

  test('an edited imported value and an edited id are refused with the cell named; a cleared value and a deleted row are not', () => {
    expect(
      verdict(
        sheet([
          ['id', 'fullName'],
          ['a', 'A'],
          ['b', 'Corrected'],
        ]),
      ),
    ).toBe(
      'Replace stopped: "S" is not as the import left it (B3 (edited)). Undo those edits, import with merge by id, or choose Replace anyway.',
    );
    expect(
      verdict(
        sheet([
          ['id', 'fullName'],
          ['mine', 'A'],
          ['b', 'B'],
        ]),
      ),
    ).toMatch(/\(A2 \(edited\), B2 \(edited\)\)/);
    // A value cleared or a row deleted holds nothing of the analyst's: the import may write it back.
    expect(
      verdict(
        sheet([
          ['id', 'fullName'],
          ['a', ''],
          ['b', 'B'],
        ]),
      ),
    ).toBeUndefined();
    expect(
      verdict(
        sheet([
          ['id', 'fullName'],
          ['b', 'B'],
        ]),
      ),
    ).toBeUndefined();
  });

  test('formulas are named first, then edited imported cells, then cells outside the table (a notes column, a line below, rows without an id)', () => {
    const t = sheet(
      [
        ['id', 'fullName', '', '', 'Notes'],
        ['a', 'Ann', 'A', 'X', ''],
        ['b', 'B', 'B', 'Y', 'call'],
        ['', 'total 2', '', '', ''],
      ],
      { '1,2': '=LP_GET(A2:A3, "fullName,firm")' },
    );
    expect(verdict(t)).toBe(
      'Replace stopped: "S" is not as the import left it (C2 (a formula), B2 (edited), E1 and 5 more). Undo those edits, import with merge by id, or choose Replace anyway.',
    );
  });

  test('a renamed header is kept (the replace writes it again), a title row above the table is named', () => {
    expect(
      verdict(
        sheet([
          ['id', 'Name'],
          ['a', 'A'],
          ['b', 'B'],
        ]),
      ),
    ).toBeUndefined();
    expect(
      verdict(
        sheet([
          ['id', 'Name'],
          ['a', 'A'],
          ['b', 'Bea'],
        ]),
      ),
    ).toMatch(/\(B3 \(edited\)\)/);
    expect(verdict(sheet([['My title', ''], ...written]))).toMatch(/\(A1 \(edited\)/);
  });

  test("a table without this import's tag is the analyst's: typed by hand with the same headers, written before imports kept a record, or another import's", () => {
    const hand = ownedTable(written);
    expect(verdict(hand)).toBe(
      'Replace stopped: "S" holds cells the import did not write (A1, B1, A2 and 3 more). Let the import own this table, import into another sheet, or choose Replace anyway.',
    );
    expect(verdict({ ...hand, ...recordFor(written, fields, 'imp2') })).toMatch(/holds cells the import did not write/);
    // Once the analyst lets the import own it, it is the import's.
    const { grid, columns } = adoption(hand, fields);
    expect(verdict({ ...hand, fields: columns, ...recordFor(grid, columns) })).toBeUndefined();
  });

  test('a table with many edits names every one: the first three in the message, each of them in the list of all', () => {
    const many = [['id', 'fullName', 'Notes'], ...Array.from({ length: 100 }, (_, i) => [`x${i}`, `X${i}`, ''])];
    many[5][2] = 'mine';
    const refused = refusal(sheet(many), { id: 'imp1', fields }, 'S');
    expect(refused?.message).toMatch(/\(A2 \(edited\), B2 \(edited\), A3 \(edited\) and 199 more\)/);
    expect(refused?.all?.split(', ')).toHaveLength(202);
    expect(refused?.all).toMatch(/B101 \(edited\), C1, C6$/);
  });

  test('a sheet of 200,000 analyst cells is counted, and only the first three are named', () => {
    const big = ownedTable(
      Array.from({ length: 20_000 }, (_, r) => Array.from({ length: 10 }, (_, c) => `v${r}:${c}`)),
    );
    expect(verdict(big)).toMatch(/\(A1, B1, C1 and 199,997 more\)/);
  });

  test("the record holds each row's id and its cells' hashes: values swapped between rows are edits", () => {
    expect(recordOf(written, fields, (r) => r > 0).map((row) => row.split('|')[1])).toEqual(['a', 'b']);
    expect(
      verdict(
        sheet([
          ['id', 'fullName'],
          ['a', 'B'],
          ['b', 'A'],
        ]),
      ),
    ).toMatch(/\(B2 \(edited\), B3 \(edited\)\)/);
  });

  test('column names past Z', () => {
    expect([0, 25, 26, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
  });
});
