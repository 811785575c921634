/**
 * "Refresh all formulas" as pure planning (src/gas/formulas.ts applies the plan): which cells of a
 * sheet hold the add-in's formulas, as rectangles (one column's adjacent rows, merged with
 * neighbouring columns that span the same rows); how to cut them into blocks whose journal fits
 * the document properties (the journal's encoding is a port: gzip + base64 in Apps Script); and,
 * after an interrupted refresh, which runs of a journalled rectangle are still empty and may be
 * written back (never a cell someone filled since).
 */
import { CUSTOM_FUNCTION_NAMES } from './names';

const FORMULA_PATTERN = new RegExp(`\\b(${CUSTOM_FUNCTION_NAMES.join('|')})\\s*\\(`, 'i');

/** A rectangle of add-in formulas (1-based row and column) on one sheet, by the sheet's id. */
export interface Piece {
  sheetId: number;
  row: number;
  col: number;
  formulas: string[][];
}

/** Pieces to journal, clear and rewrite together, with their encoded journal and the size of their formula text. */
export interface Block {
  pieces: Piece[];
  journal: string;
  raw: number;
}

/** Whether a cell's formula is one of the add-in's. */
export const isAddinFormula = (formula: string): boolean => !!formula && FORMULA_PATTERN.test(formula);

export function cellsOf(p: Piece): number {
  return p.formulas.length * (p.formulas[0]?.length ?? 0);
}

export function rawSize(rows: readonly string[][]): number {
  return rows.reduce((n, row) => row.reduce((k, f) => k + f.length + 3, n), 0);
}

interface Rect {
  r1: number;
  r2: number;
  c1: number;
  c2: number;
}

/** Runs of cells for which `take(r, c)` holds down each column (0-based, inclusive), in column order. */
function columnRuns(rows: number, cols: number, take: (r: number, c: number) => boolean): Rect[] {
  const runs: Rect[] = [];
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) {
      if (!take(r, c)) continue;
      let r2 = r;
      while (r2 + 1 < rows && take(r2 + 1, c)) r2++;
      runs.push({ r1: r, r2, c1: c, c2: c });
      r = r2;
    }
  }
  return runs;
}

/**
 * Every add-in formula of one sheet's formula grid as rectangles: runs down each column, merged
 * across columns over the same rows.
 */
export function findPieces(sheetId: number, grid: readonly string[][]): Piece[] {
  const open = new Map<string, Rect>();
  const rects: Rect[] = [];
  for (const run of columnRuns(grid.length, grid[0]?.length ?? 0, (r, c) => isAddinFormula(grid[r][c]))) {
    const prev = open.get(`${run.r1}:${run.r2}`);
    if (prev && prev.c2 === run.c1 - 1) prev.c2 = run.c1;
    else {
      open.set(`${run.r1}:${run.r2}`, run);
      rects.push(run);
    }
  }
  return rects.map(({ r1, r2, c1, c2 }) => ({
    sheetId,
    row: r1 + 1,
    col: c1 + 1,
    formulas: grid.slice(r1, r2 + 1).map((row) => row.slice(c1, c2 + 1)),
  }));
}

/**
 * Pieces off the front of the queue up to `rawBudget` characters of formula text (the first piece
 * cut by rows when it alone is over; a single row whole, never leaving a piece without rows).
 */
function takeWithin(queue: Piece[], rawBudget: number): Piece[] {
  const take: Piece[] = [];
  let raw = 0;
  while (queue.length && raw + rawSize(queue[0].formulas) <= rawBudget) {
    raw += rawSize(queue[0].formulas);
    take.push(queue.shift() as Piece);
  }
  if (take.length || !queue.length) return take;
  const p = queue[0];
  // A single row cannot be cut: it goes whole (nextBlock refuses it if its journal cannot fit).
  if (p.formulas.length < 2) return [queue.shift() as Piece];
  let rows = 0;
  for (let used = 0; rows < p.formulas.length - 1 && used + rawSize([p.formulas[rows]]) <= rawBudget; rows++) {
    used += rawSize([p.formulas[rows]]);
  }
  rows = Math.max(rows, 1);
  queue[0] = { ...p, row: p.row + rows, formulas: p.formulas.slice(rows) };
  return [{ ...p, formulas: p.formulas.slice(0, rows) }];
}

/**
 * Takes the next block off the front of the queue: pieces up to `rawBudget` characters of formula
 * text, with its journal encoded by `encode`. When the journal is over `maxJournal` characters
 * (formulas that compress worse than expected), the block is halved and the rest goes back to the
 * front of the queue; a single row that cannot fit is refused.
 */
export function nextBlock(
  queue: Piece[],
  rawBudget: number,
  maxJournal: number,
  encode: (pieces: Piece[]) => string,
): Block {
  const take = takeWithin(queue, rawBudget);
  for (;;) {
    const journal = encode(take);
    const raw = take.reduce((n, p) => n + rawSize(p.formulas), 0);
    if (journal.length <= maxJournal) return { pieces: take, journal, raw };
    if (take.length > 1) {
      queue.unshift(...take.splice(take.length >> 1));
      continue;
    }
    const [p] = take;
    if (p.formulas.length < 2) {
      const where = `The formulas at row ${p.row}, column ${p.col}`;
      throw new Error(`${where} are too long to refresh safely; nothing was changed there.`);
    }
    const half = p.formulas.length >> 1;
    queue.unshift({ ...p, row: p.row + half, formulas: p.formulas.slice(half) });
    take[0] = { ...p, formulas: p.formulas.slice(0, half) };
  }
}

/**
 * The formulas of a journalled piece to write back, as one-column runs (1-based row and column):
 * only into cells that are still empty now (`formulas` and `values` as the sheet holds them).
 */
export function recoveryRuns(p: Piece, formulas: readonly unknown[][], values: readonly unknown[][]): Piece[] {
  const empty = (r: number, c: number) => formulas[r][c] === '' && values[r][c] === '' && p.formulas[r][c] !== '';
  return columnRuns(p.formulas.length, p.formulas[0]?.length ?? 0, empty).map(({ r1, r2, c1 }) => ({
    sheetId: p.sheetId,
    row: p.row + r1,
    col: p.col + c1,
    formulas: p.formulas.slice(r1, r2 + 1).map((row) => [row[c1]]),
  }));
}
