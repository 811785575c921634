/**
 * Whether replace may rewrite a sheet, on the cases the record of what the import wrote must read
 * right: dates and numbers as Sheets gives them back, formulas and the analyst's columns left out
 * of what the import owns, another import's table, rows without an id, a digest of another size,
 * many edits at once, and which header row an adopted table is read by.
 */
import { adoption, digestOf, ownDigest, replaceRefusal } from '../../../src/import/replace';
import type { Cell } from '../../../src/table/cells';
import { ownedTable } from '../../helpers/fake-ports';

const fields = ['id', 'x'];
/** The verdict on the sheet `now` when the import recorded `written` there. */
const verdict = (written: Cell[][], now: Cell[][]) =>
  replaceRefusal(
    ownedTable(now, {}, fields, { import: 'imp1', digest: ownDigest(written, fields) }),
    { id: 'imp1', fields },
    'S',
  );

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

  test('a formula changed changes the digest', () => {
    const grid = (f: string) => [
      ['id', 'x'],
      ['a', { formula: f }],
    ];
    expect(digestOf(grid('=1+1'))).not.toBe(digestOf(grid('=2+2')));
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
    expect(ownDigest(sheet, ['id', 'x', undefined])).toBe(ownDigest(own, ['id', 'x', undefined]));
  });
});

describe("cells that are not this import's", () => {
  test("another import's table, its own cells only, is not this import's to rewrite", () => {
    const theirs = ownedTable(
      [
        ['id', 'x'],
        ['a', 'A'],
      ],
      {},
      fields,
      { import: 'imp2', digest: 'whatever' },
    );
    expect(replaceRefusal(theirs, { id: 'imp1', fields }, 'S')).toBe(
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
    expect(replaceRefusal(t, { id: 'imp1', fields }, 'S', 9)).toMatch(/\(A1 \(edited\), B1 \(edited\), A2, B2\)/);
  });

  test('a record of another size is not read: the sheet is refused with the edits too many to name', () => {
    const written: Cell[][] = [
      ['id', 'x'],
      ['a', 'A'],
    ];
    const t = ownedTable(
      [
        ['id', 'x'],
        ['a', 'B'],
      ],
      {},
      fields,
      { import: 'imp1', digest: `${ownDigest(written, fields)}.1` },
    );
    expect(replaceRefusal(t, { id: 'imp1', fields }, 'S')).toMatch(/\(many edited imported cells\)/);
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
    expect(verdict(written, now)).toMatch(/\(B3, B4, B5 and many edited imported cells\)/);
  });

  test('a sheet tagged by an earlier release and not edited since still belongs to the import (every tag stores the digest)', () => {
    const written: Cell[][] = [
      ['id', 'fullName'],
      ['lp_1', 'Ada'],
      ['lp_2', 'Grace'],
    ];
    // The digest of that table as the tag of a sheet written before this release holds it: the digest's form is
    // part of every saved sheet, so a change to it would make every import refuse the sheet it wrote.
    const stored =
      '0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.1ihfdyb.1k0azyg.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.1phae1p.1ueymnb.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.1iyqj5z.kqddd4.0.0.0.0.0.0.0.0.0.1.7oz7od.xcus0j.0.0.0.1.k9qir6.1wrdmvt.0.0.0.0.0.0.1.1rljp4r.tlsv9x.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.1iyqj5z.kqddd4.0.0.0.0.0.0.1.k9qir6.1wrdmvt.0.0.0.0.0.0.0.0.0.1.1phae1p.1ueymnb.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.1rljp4r.tlsv9x.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.7oz7od.xcus0j.1.1ihfdyb.1k0azyg.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.7oz7od.xcus0j.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.1phae1p.1ueymnb.1.1ihfdyb.1k0azyg.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.1iyqj5z.kqddd4.1.k9qir6.1wrdmvt.0.0.0.0.0.0.1.1rljp4r.tlsv9x.0.0.0.0.0.0.0.0.0.0.0.0';
    const sheet = ownedTable(written, {}, ['id', 'fullName'], { import: 'imp1', digest: stored });
    expect(replaceRefusal(sheet, { id: 'imp1', fields: ['id', 'fullName'] }, 'S')).toBeUndefined();
    // The same digest with its three parts in another order (a form this rule never writes): refused, in bounded time.
    const parts = stored.split('.');
    const third = parts.length / 3;
    const foreign = [...parts.slice(third), ...parts.slice(0, third)].join('.');
    const tagged = ownedTable(written, {}, ['id', 'fullName'], { import: 'imp1', digest: foreign });
    expect(replaceRefusal(tagged, { id: 'imp1', fields: ['id', 'fullName'] }, 'S')).toMatch(
      /^Replace stopped: "S" is not as the import left it/,
    );
  });

  test("a sheet recorded before columns were keyed by their records, its headers not its fields, is still the import's as recorded", () => {
    const adopted: Cell[][] = [
      ['ID', 'Full name'],
      ['lp_1', 'Ada'],
      ['lp_2', 'Grace'],
    ];
    // Such a tag keyed each column by its header's text: the digest of the grid read without the columns' records.
    const tag = { import: 'imp1', digest: digestOf(adopted) };
    const columns = ['id', 'fullName'];
    expect(ownDigest(adopted, columns)).not.toBe(tag.digest);
    expect(replaceRefusal(ownedTable(adopted, {}, columns, tag), { id: 'imp1', fields: columns }, 'S')).toBeUndefined();
    const edited = adopted.map((row, r) => (r === 2 ? ['lp_2', 'Grace H.'] : row));
    expect(replaceRefusal(ownedTable(edited, {}, columns, tag), { id: 'imp1', fields: columns }, 'S')).toMatch(
      /^Replace stopped: "S" is not as the import left it/,
    );
  });

  test('fifteen edited cells are each named in nearly every table, not taken for too many to name', () => {
    const tables = 100;
    let named = 0;
    for (let t = 0; t < tables; t++) {
      const written: Cell[][] = [['id', 'x'], ...Array.from({ length: 40 }, (_, i): Cell[] => [`r${t}-${i}`, `v${i}`])];
      const now = written.map((row, i) => (i >= 1 && i <= 15 ? [row[0], `${row[1]} edited`] : row));
      if (verdict(written, now)?.includes('(B2 (edited), B3 (edited), B4 (edited) and 12 more)')) named++;
    }
    expect(named).toBeGreaterThanOrEqual(80);
  });

  test('nine edited cells are each named, though some of their keys share a slot of the record', () => {
    // Among these nine edits' eighteen keys (old and new value), one slot of the record holds keys whose counts add
    // up to one: it looks like a single key, and only its check tells it is not one; read as one, every edit would
    // be lost among "many edited imported cells".
    const three = ['id', 'x', 'y'];
    const written: Cell[][] = [three, ...Array.from({ length: 20 }, (_, i) => [`p${i}`, `x${i}`, `y${i}`])];
    const edits = ['5,2', '1,2', '20,1', '15,1', '13,2', '7,2', '8,2', '1,1', '12,1'].map((at) =>
      at.split(',').map(Number),
    );
    const now = written.map((row) => [...row]);
    for (const [r, c] of edits) now[r][c] = `edit20_${r}_${c}`;
    const t = ownedTable(now, {}, three, { import: 'imp1', digest: ownDigest(written, three) });
    expect(replaceRefusal(t, { id: 'imp1', fields }, 'S', 99)).toContain(
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

  test("a field headed twice: only the first column is the import's", () => {
    expect(adoption(ownedTable([['id', 'x', 'X']]), fields).columns).toEqual(['id', 'x', undefined]);
  });
});
