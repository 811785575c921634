/**
 * How "Refresh all formulas" measures and cuts its work (src/table/refresh-plan.ts): the size of
 * a grid of formulas and its number of cells; rectangles only across adjacent columns; a block
 * stops at its budget and leaves the rest queued in order; a journal exactly at its limit is
 * kept whole, one over it is halved (by pieces, then by rows) with the rest back at the front,
 * and a single row that cannot fit is refused with its place named; a single row over the text
 * budget is taken whole, leaving nothing empty behind; and what an interrupted refresh puts back
 * is only ever a formula of the journal.
 */
import { cellsOf, findPieces, nextBlock, type Piece, rawSize, recoveryRuns } from '../../../src/table/refresh-plan';

const lp = (r: number, c = 1) => `=LP_GET(A${r},"field${c}")`;
const piece = (rows: number, cols: number, at: Partial<Piece> = {}): Piece => ({
  sheetId: 1,
  row: 1,
  col: 1,
  formulas: Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => lp(r + 1, c + 1))),
  ...at,
});
const plain = (pieces: Piece[]) => JSON.stringify(pieces);

describe('size and cells', () => {
  test("a grid's size is its formula text plus three characters a cell", () => {
    expect(rawSize([['=A', '=BC'], ['=D']])).toBe(2 + 3 + (3 + 3) + (2 + 3));
    expect(rawSize([])).toBe(0);
  });

  test('a piece has rows times columns cells; one with no rows has none', () => {
    expect(cellsOf(piece(3, 2))).toBe(6);
    expect(cellsOf(piece(1, 4))).toBe(4);
    expect(cellsOf(piece(0, 0))).toBe(0);
  });
});

describe('rectangles', () => {
  test('the same rows in two columns with a column between them are two pieces', () => {
    const grid = [
      [lp(1), '', lp(1)],
      [lp(2), '', lp(2)],
    ];
    expect(findPieces(3, grid)).toEqual([
      { sheetId: 3, row: 1, col: 1, formulas: [[lp(1)], [lp(2)]] },
      { sheetId: 3, row: 1, col: 3, formulas: [[lp(1)], [lp(2)]] },
    ]);
  });
});

describe('blocks', () => {
  test('a block stops at its budget: the pieces that fit, the rest left queued as they were', () => {
    const pieces = [1, 2, 3].map((col) => piece(2, 1, { col }));
    const size = rawSize(pieces[0].formulas);
    const queue = [...pieces];
    const block = nextBlock(queue, 3 * size - 1, 1e9, plain);
    expect(block.pieces).toEqual(pieces.slice(0, 2));
    expect(block.raw).toBe(2 * size);
    expect(queue).toEqual(pieces.slice(2));
  });

  test('a journal exactly at its limit is kept whole', () => {
    const pieces = [piece(2, 1), piece(2, 1, { col: 2 })];
    const queue = [...pieces];
    const block = nextBlock(queue, 1e9, plain(pieces).length, plain);
    expect(block.pieces).toEqual(pieces);
    expect(block.journal).toBe(plain(pieces));
    expect(queue).toEqual([]);
  });

  test('a journal over its limit drops half its pieces back to the front of the queue, in order', () => {
    const pieces = [1, 2, 3, 4].map((col) => piece(1, 1, { col }));
    const later = piece(1, 1, { col: 9 });
    const queue = [...pieces, later];
    const block = nextBlock(queue, rawSize(pieces[0].formulas) * 4, plain(pieces.slice(0, 2)).length, plain);
    expect(block.pieces).toEqual(pieces.slice(0, 2));
    expect(queue).toEqual([...pieces.slice(2), later]);
  });

  test('a two-row piece over its journal limit is cut into its rows, the second queued alone', () => {
    const p = piece(2, 2, { row: 4, col: 2 });
    const queue = [p];
    const first = { ...p, formulas: p.formulas.slice(0, 1) };
    const block = nextBlock(queue, 1e9, plain([first]).length, plain);
    expect(block.pieces).toEqual([first]);
    expect(queue).toEqual([{ ...p, row: 5, formulas: p.formulas.slice(1) }]);
  });

  test('a single row whose journal cannot fit is refused, naming where it is', () => {
    expect(() => nextBlock([piece(1, 3, { row: 5, col: 3 })], 1e9, 10, plain)).toThrow(
      'The formulas at row 5, column 3 are too long',
    );
  });

  test('a two-row piece over the text budget is cut after its first row', () => {
    const p = piece(2, 3, { row: 7 });
    const queue = [p];
    const block = nextBlock(queue, rawSize(p.formulas) - 1, 1e9, plain);
    expect(block.pieces).toEqual([{ ...p, formulas: p.formulas.slice(0, 1) }]);
    expect(queue).toEqual([{ ...p, row: 8, formulas: p.formulas.slice(1) }]);
  });

  test('a single row over the text budget is taken whole and leaves nothing behind', () => {
    const wide = piece(1, 6);
    const next = piece(2, 1, { col: 8 });
    const queue = [wide, next];
    const block = nextBlock(queue, rawSize(wide.formulas) - 1, 1e9, plain);
    expect(block.pieces).toEqual([wide]);
    expect(queue).toEqual([next]);
  });
});

describe('what an interrupted refresh puts back', () => {
  test('a journalled cell without a formula is not written, so runs stop at it', () => {
    const p: Piece = { sheetId: 1, row: 2, col: 1, formulas: [[lp(1)], [''], [lp(3)]] };
    const empty = [[''], [''], ['']];
    expect(recoveryRuns(p, empty, empty)).toEqual([
      { sheetId: 1, row: 2, col: 1, formulas: [[lp(1)]] },
      { sheetId: 1, row: 4, col: 1, formulas: [[lp(3)]] },
    ]);
  });

  test('a journalled piece with no rows puts nothing back', () => {
    expect(recoveryRuns(piece(0, 0), [], [])).toEqual([]);
  });
});
