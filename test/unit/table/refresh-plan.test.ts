import { findPieces, nextBlock, type Piece, rawSize, recoveryRuns } from '../../../src/table/refresh-plan';

const lp = (r: number) => `=LP_GET(A${r},"fullName")`;

describe("refresh planning: the add-in's formulas as rectangles", () => {
  test('runs down a column merge with the next column over the same rows; other formulas and values are left out', () => {
    const grid = [
      ['', lp(1), lp(1), '=SUM(A1:A3)'],
      ['', lp(2), lp(2), ''],
      ['', '', '', '=lp_find("x")'],
      ['=A1', lp(4), '', '=LP_FIND ("y")'],
    ];
    const pieces = findPieces(7, grid);
    expect(pieces).toEqual([
      {
        sheetId: 7,
        row: 1,
        col: 2,
        formulas: [
          [lp(1), lp(1)],
          [lp(2), lp(2)],
        ],
      },
      { sheetId: 7, row: 4, col: 2, formulas: [[lp(4)]] },
      { sheetId: 7, row: 3, col: 4, formulas: [['=lp_find("x")'], ['=LP_FIND ("y")']] },
    ]);
  });

  test("an empty sheet or one without the add-in's formulas has none", () => {
    expect(findPieces(1, [])).toEqual([]);
    expect(findPieces(1, [['=SUM(1)', 'LP_GET as text']])).toEqual([]);
  });
});

describe('refresh planning: blocks whose journal fits', () => {
  const column = (n: number, col = 1): Piece => ({
    sheetId: 1,
    row: 1,
    col,
    formulas: Array.from({ length: n }, (_, r) => [lp(r + 1)]),
  });
  const plain = (pieces: Piece[]) => JSON.stringify(pieces);

  test('pieces are taken while their text fits the budget; a first piece over it is cut by rows', () => {
    const queue = [column(10, 1), column(10, 2)];
    const size = rawSize(column(10).formulas);
    const both = nextBlock(queue, 2 * size, 1e9, plain);
    expect(both.pieces.map((p) => p.col)).toEqual([1, 2]);
    expect(both.raw).toBe(2 * size);
    expect(queue).toEqual([]);
    const big = [column(10)];
    const first = nextBlock(big, Math.floor(size / 2), 1e9, plain);
    expect(first.pieces[0].formulas).toHaveLength(5);
    expect(big[0]).toMatchObject({ row: 6, formulas: column(10).formulas.slice(5) });
  });

  test('a journal over its limit is halved, the rest going back to the front; one row too long is refused', () => {
    const queue = [column(8)];
    const block = nextBlock(queue, 1e9, 3 * plain([column(1)]).length, plain);
    expect(block.pieces[0].formulas.length).toBeLessThan(8);
    expect(block.journal.length).toBeLessThanOrEqual(3 * plain([column(1)]).length);
    expect(queue[0].row).toBe(1 + block.pieces[0].formulas.length);
    expect(() => nextBlock([column(1)], 1e9, 10, plain)).toThrow('too long to refresh safely');
  });
});

describe('refresh planning: what an interrupted refresh puts back', () => {
  test('only runs of cells still empty, down each column; a cell filled since is left as it is', () => {
    const p: Piece = {
      sheetId: 1,
      row: 5,
      col: 3,
      formulas: [
        [lp(1), lp(1)],
        [lp(2), lp(2)],
        [lp(3), lp(3)],
      ],
    };
    const formulas = [
      ['', ''],
      ['', '=MINE()'],
      ['', ''],
    ];
    const values = [
      ['', ''],
      ['typed', ''],
      ['', ''],
    ];
    expect(recoveryRuns(p, formulas, values)).toEqual([
      { sheetId: 1, row: 5, col: 3, formulas: [[lp(1)]] },
      { sheetId: 1, row: 7, col: 3, formulas: [[lp(3)]] },
      { sheetId: 1, row: 5, col: 4, formulas: [[lp(1)]] },
      { sheetId: 1, row: 7, col: 4, formulas: [[lp(3)]] },
    ]);
  });
});
