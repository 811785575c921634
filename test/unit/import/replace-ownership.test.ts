/**
 * Whether replace may rewrite a sheet, on the cases the record of what the import wrote must read
 * right: dates and numbers as Sheets gives them back, formulas and the analyst's columns left out
 * of what the import owns, another import's table, rows without an id, a record of another
 * version, many edits at once, and which header row an adopted table is read by.
 */
import { adoption, RECORD_VERSION, recordOf, refusal } from '../../../src/import/ownership';
import type { Cell } from '../../../src/table/cells';
import { ownedTable, recordFor } from '../../helpers/fake-ports';

const fields = ['id', 'x'];
/** The verdict on the sheet `now` when the import recorded `written` there. */
const verdict = (written: Cell[][], now: Cell[][]) =>
  refusal(ownedTable(now, {}, fields, recordFor(written, fields)), { id: 'imp1', fields }, 'S')?.message;

describe('what the import wrote reads back as written', () => {
  test('a date read back to the second is as written; another date is an edit', () => {
    const at = Date.UTC(2024, 4, 1, 9, 30, 15);
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', new Date(at + 400)],
    ];
    expect(
      verdict(written, [
        ['id', 'x'],
        ['a', new Date(at)],
      ]),
    ).toBeUndefined();
    expect(
      verdict(written, [
        ['id', 'x'],
        ['a', new Date(at + 86_400_000)],
      ]),
    ).toMatch(/\(B2 \(edited\)\)/);
  });

  test('a number read back to 15 digits is as written; another number is an edit', () => {
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', 0.1 + 0.2],
    ];
    expect(
      verdict(written, [
        ['id', 'x'],
        ['a', 0.3],
      ]),
    ).toBeUndefined();
    expect(
      verdict(written, [
        ['id', 'x'],
        ['a', 0.4],
      ]),
    ).toMatch(/\(B2 \(edited\)\)/);
  });

  test("a formula over an imported cell is the analyst's, named as one", () => {
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', 4],
    ];
    const now = ownedTable(written, { '1,1': '=2*2' }, fields, recordFor(written, fields));
    expect(refusal(now, { id: 'imp1', fields }, 'S')?.message).toMatch(/\(B2 \(a formula\)\)/);
  });

  test("what the import owns leaves out formulas and the analyst's columns", () => {
    const sheet = [
      ['id', 'x', 'Notes'],
      ['a', { formula: '=2*2' }, 'call'],
      ['b', 'B', ''],
    ];
    const own = [
      ['id', 'x', ''],
      ['a', '', ''],
      ['b', 'B', ''],
    ];
    const all = () => true;
    expect(recordOf(sheet, ['id', 'x', undefined], all)).toEqual(recordOf(own, ['id', 'x', undefined], all));
  });

  test('the record holds a line for each row the import owns with an id, and a hash for each value it wrote there', () => {
    const sheet = [
      ['id', 'x', 'Notes'],
      ['a', 'A', 'call'],
      ['b', '', ''],
      ['c', { formula: '=2*2' }, ''],
      ['', 'no id', ''],
      ['d', 'D', ''],
    ];
    const owns = (r: number) => r > 0 && r !== 5;
    const lines = recordOf(sheet, ['id', 'x', undefined], owns).map((line) => line.split('|'));
    expect(lines.map(([hashes, id]) => [id, hashes.split('.').length])).toEqual([
      ['a', 2],
      ['b', 1],
      ['c', 1],
    ]);
  });
});

describe("cells that are not this import's", () => {
  test('a row the analyst copied below an imported one, the same partner and values, is theirs: each cell named', () => {
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', 'A'],
    ];
    const now = ownedTable([...written, ['a', 'A']], {}, fields, recordFor(written, fields));
    expect(refusal(now, { id: 'imp1', fields }, 'S')?.all).toBe('A3 (edited), B3 (edited)');
  });

  test('a header renamed below a title row the analyst inserted is named: the replace writes its header on the first row', () => {
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', 'A'],
    ];
    const now = ownedTable(
      [
        ['My list', ''],
        ['id', 'Amount'],
        ['a', 'A'],
      ],
      {},
      fields,
      recordFor(written, fields),
    );
    expect(refusal(now, { id: 'imp1', fields }, 'S')?.all).toBe('A1 (edited), B2 (edited)');
  });

  test("another import's table, its own cells only, is not this import's to rewrite", () => {
    const theirs = ownedTable(
      [
        ['id', 'x'],
        ['a', 'A'],
      ],
      {},
      fields,
      { tag: { import: 'imp2', version: RECORD_VERSION }, written: [] },
    );
    expect(refusal(theirs, { id: 'imp1', fields }, 'S')?.message).toBe(
      'Replace stopped: "S" holds cells the import did not write (A1 (edited), B1 (edited), A2 (edited) and 1 more). Let the import own this table, import into another sheet, or choose Replace anyway.',
    );
  });

  test('with the id column gone, the rows below the header are no longer imported rows', () => {
    const t = ownedTable(
      [
        ['name', 'x'],
        ['Ann', 'A'],
      ],
      {},
      ['name', 'x'],
    );
    expect(refusal(t, { id: 'imp1', fields }, 'S', 9)?.message).toMatch(/\(A1 \(edited\), B1 \(edited\), A2, B2\)/);
  });

  test("another import's record, or one of another version, makes no cell this import's: each is named", () => {
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', 'A'],
    ];
    for (const tag of [
      { import: 'imp2', version: RECORD_VERSION },
      { import: 'imp1', version: RECORD_VERSION - 1 },
    ]) {
      const t = ownedTable(written, {}, fields, { ...recordFor(written, fields), tag });
      expect(refusal(t, { id: 'imp1', fields }, 'S')?.all).toBe('A1 (edited), B1 (edited), A2 (edited), B2 (edited)');
    }
  });

  test('a record of another version is not read: the sheet is a table the import did not write', () => {
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', 'A'],
    ];
    const record = recordFor(written, fields);
    const t = ownedTable(written, {}, fields, { ...record, tag: { import: 'imp1', version: RECORD_VERSION - 1 } });
    expect(refusal(t, { id: 'imp1', fields }, 'S')?.message).toMatch(/holds cells the import did not write/);
  });

  test('one of two identical rows the import wrote deleted: nothing of the analyst is lost', () => {
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', 'A'],
      ['a', 'A'],
      ['b', 'B'],
    ];
    expect(
      verdict(written, [
        ['id', 'x'],
        ['a', 'A'],
        ['b', 'B'],
      ]),
    ).toBeUndefined();
  });

  test('the same note added on three rows without an id is named, not taken for nothing changed', () => {
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', 'A'],
    ];
    const now: Cell[][] = [...written, ['', 'TBD'], ['', 'TBD'], ['', 'TBD']];
    expect(verdict(written, now)).toMatch(/\(B3, B4, B5\)/);
  });

  test('fifteen edited cells are each named in every table', () => {
    const tables = 100;
    let named = 0;
    for (let t = 0; t < tables; t++) {
      const written: Cell[][] = [['id', 'x'], ...Array.from({ length: 40 }, (_, i): Cell[] => [`r${t}-${i}`, `v${i}`])];
      const now = written.map((row, i) => (i >= 1 && i <= 15 ? [row[0], `${row[1]} edited`] : row));
      if (verdict(written, now)?.includes('(B2 (edited), B3 (edited), B4 (edited) and 12 more)')) named++;
    }
    expect(named).toBe(tables);
  });

  test('nine edited cells in two columns are each named, in order', () => {
    const three = ['id', 'x', 'y'];
    const written: Cell[][] = [three, ...Array.from({ length: 20 }, (_, i) => [`p${i}`, `x${i}`, `y${i}`])];
    const edits = ['5,2', '1,2', '20,1', '15,1', '13,2', '7,2', '8,2', '1,1', '12,1'].map((at) =>
      at.split(',').map(Number),
    );
    const now = written.map((row) => [...row]);
    for (const [r, c] of edits) now[r][c] = `edit20_${r}_${c}`;
    const t = ownedTable(now, {}, three, recordFor(written, three));
    expect(refusal(t, { id: 'imp1', fields }, 'S', 99)?.message).toContain(
      '(B2 (edited), C2 (edited), C6 (edited), C8 (edited), C9 (edited), B13 (edited), C14 (edited), B16 (edited), B21 (edited))',
    );
  });
});

describe('adoption: the header row the columns are read from', () => {
  test('an empty sheet: no columns', () => {
    expect(adoption(ownedTable([]), fields).columns).toStrictEqual([]);
  });

  test('the first row with an "id" cell, below a title', () => {
    const t = ownedTable([
      ['My fund', '', ''],
      ['', '', ''],
      ['Notes', 'ID', 'x'],
      ['', 'a', 'A'],
    ]);
    expect(adoption(t, fields).columns).toEqual([undefined, 'id', 'x']);
  });

  test('an "id" cell past the rows a header is looked for in: the first row', () => {
    const t = ownedTable([['x', 'Notes'], ...Array.from({ length: 11 }, (): Cell[] => ['', '']), ['id', 'x']]);
    expect(adoption(t, fields).columns).toEqual(['x', undefined]);
  });

  test("the rows below the header row are the import's; the header and a title above it are not", () => {
    const t = ownedTable([
      ['', 'Fund list', ''],
      ['Notes', 'ID', 'x'],
      ['n', 'a', 'A'],
    ]);
    const { grid, columns, owns } = adoption(t, fields);
    expect(recordOf(grid, columns, owns).map((line) => line.split('|')[1])).toEqual(['a']);
  });

  test("a field headed twice: only the first column is the import's", () => {
    expect(adoption(ownedTable([['id', 'x', 'X']]), fields).columns).toEqual(['id', 'x', undefined]);
  });
});
