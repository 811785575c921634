/**
 * Which rows of the merged table the import wrote (mergeTables' `owns`), the rows whose cells its
 * record then owns: the first row of each partner still listed, and each new partner's row below
 * the table (the header row is no partner's: its names are the analyst's to choose). A title above the header, a partner no longer listed, a row without an id and
 * a further row of a repeated id are kept as the analyst has them, so they are never counted as
 * written, even when their id or their place looks like one of the import's rows.
 */
import { mergeTables } from '../../../src/import/ownership';
import { ownedTable } from '../../helpers/fake-ports';

/** A table the import wrote, under a title typed above it, then edited by the analyst. */
const existing = () =>
  ownedTable(
    [
      ['Fund III partners', ''],
      ['id', 'x'],
      ['a', 1],
      ['b', 2],
      ['', 'Total'],
      ['a', 9],
      ['c', 3],
    ],
    {},
    ['id', 'x'],
  );

describe('the rows a merge writes', () => {
  test('the first row of each listed partner and each new partner are written; every other row is kept', () => {
    const r = mergeTables(
      existing(),
      ['id', 'x'],
      [
        ['a', 10],
        ['c', 30],
        ['d', 4],
      ],
    );
    const rows = r.grid.map((row, k) => ({ id: row[0], wrote: r.owns(k, 0) && r.owns(k, 1) }));
    expect(rows).toEqual([
      { id: 'Fund III partners', wrote: false },
      { id: 'id', wrote: false },
      { id: 'a', wrote: true },
      { id: 'b', wrote: false },
      { id: '', wrote: false },
      { id: 'a', wrote: false },
      { id: 'c', wrote: true },
      { id: 'd', wrote: true },
    ]);
  });
});
