/**
 * Merge by id at its edges: when a sheet counts as empty (blank cells, or a formula showing
 * blank), where the header may be (trimmed, any case, within the first rows, never a partner's
 * row), which rows are a partner's (not text above the header, the first of a partner listed
 * twice), what a row without an id keeps and counts, which differences are logged (not a new
 * field's, not an analyst's formula's; a number is not the text of it, dates by their time; the
 * log's cap), and a record whose rows are shorter than the table (cells it lacks read blank).
 */
import { cellKey, HEADER_SEARCH_ROWS, MAX_CHANGES, mergeTables, norm } from '../../../src/import/ownership';
import type { Cell } from '../../../src/table/cells';
import { keptWhole, mergeRefusalOf as merging, ownedTable } from '../../helpers/fake-ports';

type Existing = NonNullable<Parameters<typeof mergeTables>[0]>;

/** The import's table with one partner, a, whose x is 1. */
const partnerA = () =>
  ownedTable(
    [
      ['id', 'x'],
      ['a', 1],
    ],
    {},
    ['id', 'x'],
  );

describe('a sheet counts as empty only when no cell holds a value or a formula', () => {
  test('a sheet of blank cells may be merged, and gets a fresh table', () => {
    const blank = ownedTable([
      ['', ''],
      ['', ''],
    ]);
    expect(merging(blank)).toBeUndefined();
    const r = mergeTables(blank, ['id', 'x'], [['a', 1]]);
    expect(r.grid).toEqual([
      ['id', 'x'],
      ['a', 1],
    ]);
    expect(r.changes).toEqual([]);
  });

  test("a sheet whose only content is a formula showing blank is the analyst's, and is refused", () => {
    const existing = ownedTable(
      [
        ['', ''],
        ['', ''],
      ],
      { '0,1': '=IF(FALSE,1,"")' },
    );
    expect(merging(existing)).toBeDefined();
  });

  test('a table with a blank row in it is merged, the blank row kept in its place', () => {
    const existing = ownedTable(
      [
        ['id', 'x'],
        ['', ''],
        ['a', 1],
      ],
      {},
      ['id', 'x'],
    );
    expect(mergeTables(existing, ['id', 'x'], [['a', 2]]).grid).toEqual([
      ['id', 'x'],
      ['', ''],
      ['a', 2],
    ]);
  });
});

describe('the header row', () => {
  test('a header cell is compared trimmed and in any case; a missing one reads as empty', () => {
    expect(norm('  ID ')).toBe('id');
    expect(norm(undefined)).toBe('');
    const existing = ownedTable(
      [
        [' ID ', 'x'],
        ['a', 1],
      ],
      {},
      ['id', 'x'],
    );
    expect(mergeTables(existing, ['id', 'x'], [['a', 2]]).grid).toEqual([
      [' ID ', 'x'],
      ['a', 2],
    ]);
  });

  test("a header the analyst renamed keeps their name and stays theirs; a blank one, or a new field's, gets the field's name", () => {
    const existing = ownedTable(
      [
        ['id', 'Ticket (EUR)', '', 'Notes'],
        ['a', 1, 'x1', 'call back'],
      ],
      {},
      ['id', 'x', 'y', undefined],
    );
    const r = mergeTables(existing, ['id', 'x', 'y', 'z'], [['a', 2, 'x2', 'z2']]);
    expect(r.grid).toEqual([
      ['id', 'Ticket (EUR)', 'y', 'Notes', 'z'],
      ['a', 2, 'x2', 'call back', 'z2'],
    ]);
    // The header row is no partner's row: the import's record holds none of it (its names are the analyst's to choose).
    expect([0, 1, 2, 4].map((c) => r.owns(0, c))).toEqual([false, false, false, false]);
    expect([0, 1, 2, 4].map((c) => r.owns(1, c))).toEqual([true, true, true, true]);
  });

  test('a header that is a formula of the analyst stays, as any formula of theirs, even one showing blank', () => {
    for (const [formula, shows] of [
      ['="Ticket"', 'Ticket'],
      ['=""', ''],
    ]) {
      const existing = ownedTable(
        [
          ['id', shows],
          ['a', 1],
        ],
        { '0,1': formula },
        ['id', 'x'],
      );
      const r = mergeTables(existing, ['id', 'x'], [['a', 2]]);
      expect(r.grid[0]).toEqual(['id', { formula }]);
    }
  });

  test('a record read without formula rows (none in the range) renames nothing: a header the analyst typed stays', () => {
    const existing = {
      ...ownedTable(
        [
          ['id', 'Ticket'],
          ['a', 1],
        ],
        {},
        ['id', 'x'],
      ),
      formulas: [],
    };
    expect(mergeTables(existing, ['id', 'x'], [['a', 2]]).grid[0]).toEqual(['id', 'Ticket']);
  });

  test('without "id" on the id column the merge is refused, saying what to do', () => {
    const existing = ownedTable(
      [
        ['name', 'x'],
        ['a', 1],
      ],
      {},
      ['id', 'x'],
    );
    expect(merging(existing)).toEqual({
      message:
        'Merge by id needs the header "id" on the import\'s id column of "S", in its first 2 rows; nothing was changed. Name that column "id" again.',
      offers: [],
    });
  });

  test('the id column swapped with another by cut and paste (cells moved, records not): the merge is refused', () => {
    const existing = ownedTable(
      [
        ['x', 'id'],
        [1, 'a'],
      ],
      {},
      ['id', 'x'],
    );
    expect(merging(existing)?.message).toContain('Merge by id needs the header "id" on the import\'s id column of "S"');
  });

  test(`the header is looked for in the first ${HEADER_SEARCH_ROWS} rows only`, () => {
    const notes = (n: number): Cell[][] => Array.from({ length: n }, (_, i) => [`note ${i}`, '']);
    const below = (n: number) => ownedTable([...notes(n), ['id', 'x'], ['a', 1]], {}, ['id', 'x']);
    expect(merging(below(HEADER_SEARCH_ROWS - 1))).toBeUndefined();
    expect(mergeTables(below(HEADER_SEARCH_ROWS - 1), ['id', 'x'], [['a', 2]]).grid.at(-1)).toEqual(['a', 2]);
    expect(merging(below(HEADER_SEARCH_ROWS))?.message).toContain(`in its first ${HEADER_SEARCH_ROWS} rows`);
  });

  test('a partner whose id reads "id" is a new partner, not the header row', () => {
    const r = mergeTables(
      partnerA(),
      ['id', 'x'],
      [
        ['a', 1],
        ['id', 5],
      ],
    );
    expect(r.grid).toEqual([
      ['id', 'x'],
      ['a', 1],
      ['id', 5],
    ]);
    expect(r.changes).toEqual([{ id: 'id', change: 'new partner', field: '', before: '', after: '' }]);
  });
});

describe("which rows are a partner's", () => {
  test("text above the header that reads like a partner's id is not that partner's row", () => {
    const existing = ownedTable(
      [
        ['lp-7', 'is our lead', ''],
        ['id', 'x', 'Notes'],
        ['lp-7', 1, 'n'],
      ],
      {},
      ['id', 'x'],
    );
    const r = mergeTables(existing, ['id', 'x'], [['lp-7', 2]]);
    expect(r.grid).toEqual([
      ['lp-7', 'is our lead', ''],
      ['id', 'x', 'Notes'],
      ['lp-7', 2, 'n'],
    ]);
    expect(r.changes).toEqual([{ id: 'lp-7', change: 'changed', field: 'x', before: 1, after: 2 }]);
    expect(keptWhole(r, 1)).toBe(0);
  });

  test('a partner listed twice takes its first listing', () => {
    const r = mergeTables(
      partnerA(),
      ['id', 'x'],
      [
        ['a', 2],
        ['b', 3],
        ['a', 9],
        ['b', 8],
      ],
    );
    expect(r.grid).toEqual([
      ['id', 'x'],
      ['a', 2],
      ['b', 3],
    ]);
  });
});

describe('rows without an id', () => {
  test('one with a value is kept and counted, unlogged; a blank one is neither', () => {
    const existing = ownedTable(
      [
        ['id', 'x'],
        ['a', 1],
        ['', ''],
        ['', 'note'],
      ],
      {},
      ['id', 'x'],
    );
    const r = mergeTables(existing, ['id', 'x'], [['a', 2]]);
    expect(r.grid).toEqual([
      ['id', 'x'],
      ['a', 2],
      ['', ''],
      ['', 'note'],
    ]);
    expect(r.changes).toEqual([{ id: 'a', change: 'changed', field: 'x', before: 1, after: 2 }]);
    expect(keptWhole(r)).toBe(1);
  });

  test('one whose only content is a formula showing blank is kept and counted', () => {
    const existing = ownedTable(
      [
        ['id', 'x'],
        ['a', 1],
        ['', ''],
      ],
      { '2,1': '=IF(FALSE,1,"")' },
      ['id', 'x'],
    );
    const r = mergeTables(existing, ['id', 'x'], [['a', 1]]);
    expect(r.grid[2]).toEqual(['', { formula: '=IF(FALSE,1,"")' }]);
    expect(keptWhole(r)).toBe(1);
  });

  test('a row too short to reach the id column has no id: kept and counted, unlogged', () => {
    const existing = ownedTable([['x', 'id'], [1, 'a'], ['note']], {}, ['x', 'id']);
    const r = mergeTables(existing, ['id', 'x'], [['a', 1]]);
    expect(r.grid).toEqual([
      ['x', 'id'],
      [1, 'a'],
      ['note', ''],
    ]);
    expect(r.changes).toEqual([]);
    expect(keptWhole(r)).toBe(1);
  });
});

describe('what the change log lists', () => {
  test('a field newly added is no change for a partner already there; a partner no longer listed gets a blank cell in it', () => {
    const existing = ownedTable(
      [
        ['id', 'x'],
        ['a', 1],
        ['b', 2],
      ],
      {},
      ['id', 'x'],
    );
    const r = mergeTables(existing, ['id', 'x', 'region'], [['a', 1, 'EU']]);
    expect(r.grid).toEqual([
      ['id', 'x', 'region'],
      ['a', 1, 'EU'],
      ['b', 2, ''],
    ]);
    expect(r.changes).toEqual([{ id: 'b', change: 'no longer active', field: '', before: '', after: '' }]);
  });

  test("an analyst's formula in an imported column is no change", () => {
    const existing = ownedTable(
      [
        ['id', 'x'],
        ['a', 0],
      ],
      { '1,1': '=1+1' },
      ['id', 'x'],
    );
    expect(mergeTables(existing, ['id', 'x'], [['a', 5]]).changes).toEqual([]);
  });

  test('a number is not the text of it; dates are the same when their times are', () => {
    expect(cellKey(1)).not.toBe(cellKey('1'));
    expect(cellKey(1)).toBe(cellKey(1));
    expect(cellKey('1')).toBe(cellKey('1'));
    expect(cellKey(new Date(Date.UTC(2024, 0, 1)))).not.toBe(cellKey(new Date(Date.UTC(2024, 0, 2))));
    expect(cellKey(new Date(Date.UTC(2024, 0, 1)))).toBe(cellKey(new Date(Date.UTC(2024, 0, 1))));
  });

  test(`the log stops at ${MAX_CHANGES} entries`, () => {
    const incoming: Cell[][] = Array.from({ length: MAX_CHANGES + 2 }, (_, i) => [`p${i}`, i]);
    const r = mergeTables(ownedTable([['id', 'x']], {}, ['id', 'x']), ['id', 'x'], incoming);
    expect(r.grid).toHaveLength(MAX_CHANGES + 3);
    expect(r.changes).toHaveLength(MAX_CHANGES);
    expect(r.changes.at(-1)?.id).toBe(`p${MAX_CHANGES - 1}`);
  });
});

describe('a record whose rows are shorter than the table', () => {
  test('formulas recorded for fewer rows: the rows past them have none', () => {
    const existing: Existing = {
      values: [
        ['id', 'x'],
        ['a', 1],
        ['b', 2],
        ['', ''],
      ],
      formulas: [['', '']],
      fields: ['id', 'x'],
    };
    const r = mergeTables(existing, ['id', 'x'], [['a', 5]]);
    expect(r.grid).toEqual([
      ['id', 'x'],
      ['a', 5],
      ['b', 2],
      ['', ''],
    ]);
    expect(r.changes.map((c) => `${c.id}:${c.change}`)).toEqual(['a:changed', 'b:no longer active']);
    expect(keptWhole(r)).toBe(1);
  });

  test("a short row reads blank in the analyst's cells it lacks too", () => {
    const existing: Existing = {
      values: [['id', 'x', 'Notes'], ['a']],
      formulas: [['', '', ''], ['']],
      fields: ['id', 'x', undefined],
    };
    expect(mergeTables(existing, ['id', 'x'], [['a', 'X']]).grid).toEqual([
      ['id', 'x', 'Notes'],
      ['a', 'X', ''],
    ]);
  });

  test('a short row reads blank in the cells it lacks', () => {
    const existing: Existing = {
      values: [['id', 'x', 'y'], ['a']],
      formulas: [['', '', ''], ['']],
      fields: ['id', 'x', 'y'],
    };
    const r = mergeTables(existing, ['id', 'x', 'y'], [['a', '', 'Y']]);
    expect(r.grid).toEqual([
      ['id', 'x', 'y'],
      ['a', '', 'Y'],
    ]);
    expect(r.changes).toEqual([{ id: 'a', change: 'changed', field: 'y', before: '', after: 'Y' }]);
  });
});
