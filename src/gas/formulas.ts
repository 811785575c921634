/**
 * "Refresh all formulas" in Apps Script: marks every cached answer stale (the refreshed-at mark
 * in document properties) and makes Sheets run the add-in's formulas again by clearing and
 * rewriting them, the way a script can make a custom function recalculate with unchanged
 * arguments. It works in blocks of contiguous runs (rectangles of add-in formulas only: one
 * column's adjacent rows, merged with neighbouring columns that span the same rows), one
 * `setFormulas` call per run to clear and one to rewrite, so no other cell is ever written.
 *
 * A block's formulas are journalled in document properties before the block is cleared and the
 * journal is dropped once it is rewritten. An execution killed between the two (time limit,
 * closed tab) leaves the journal behind; `recoverInterruptedRefresh` puts those formulas back
 * at the start of the next refresh, sidebar opening or trigger run, into cells that are still
 * empty (a cell the analyst filled meanwhile is left as it is). A block that could not finish
 * before the execution's deadline is not started.
 */
import { CUSTOM_FUNCTION_NAMES } from '../table/names';
import { EXECUTION_STARTED_AT } from './context';
import { PROP, saveDocumentProperty } from './settings';

const FORMULA_PATTERN = new RegExp(`\\b(${CUSTOM_FUNCTION_NAMES.join('|')})\\s*\\(`, 'i');

/** Journal: a header (how many chunks) and its chunks, each under the 9 KB a property value may hold. */
export const JOURNAL_KEY = 'INVESTOR_DATA_REFRESH_JOURNAL';
const CHUNK_CHARS = 8000;
/** Journal text per block (8 chunks): about 2,500 fill-down formulas. */
const BLOCK_CHARS = 8 * CHUNK_CHARS;
/** Menu and sidebar executions have 6 minutes; a block is started only with this much of it left over. */
const EXECUTION_LIMIT_MS = 360_000;
const SAFETY_MS = 30_000;

/** A rectangle of add-in formulas (1-based row and column) on one sheet, by the sheet's id. */
interface Piece {
  sheetId: number;
  row: number;
  col: number;
  formulas: string[][];
}

interface Journal {
  pieces: Piece[];
}

export interface RefreshOutcome {
  /** Formulas found. */
  found: number;
  /** Formulas rewritten (less than found only when the deadline stopped it). */
  refreshed: number;
  /** Formulas put back from the journal of an interrupted refresh. */
  recovered: number;
}

/** The whole refresh: recover, mark stale, rewrite block by block; a toast says what happened. */
export function refreshAddinFormulas(deadline = EXECUTION_STARTED_AT + EXECUTION_LIMIT_MS - SAFETY_MS): RefreshOutcome {
  const recovered = recoverInterruptedRefresh();
  saveDocumentProperty(PROP.refreshedAt, String(Date.now()));
  const book = SpreadsheetApp.getActiveSpreadsheet();
  const pieces = findPieces(book);
  const found = pieces.reduce((n, p) => n + cells(p), 0);
  let refreshed = 0;
  const started = Date.now();
  let perCellMs = 0;
  for (const block of blocks(pieces)) {
    const n = block.reduce((k, p) => k + cells(p), 0);
    // Never start a block that might not finish: estimate from the blocks done so far (first block: go).
    if (refreshed > 0 && Date.now() + perCellMs * n * 2 + 1000 > deadline) break;
    rewriteBlock(book, block);
    refreshed += n;
    perCellMs = (Date.now() - started) / refreshed;
  }
  const plural = (k: number) => `${k} Investor Data formula${k === 1 ? '' : 's'}`;
  book.toast(
    refreshed === found ? `Refreshed ${plural(found)}.` : `Refreshed ${refreshed} of ${plural(found)} before the time limit; run Refresh all formulas again for the rest.`,
    'Investor Data',
  );
  return { found, refreshed, recovered };
}

function cells(p: Piece): number {
  return p.formulas.length * (p.formulas[0]?.length ?? 0);
}

/** Every add-in formula of every sheet as rectangles, each small enough for one journal. */
function findPieces(book: GoogleAppsScript.Spreadsheet.Spreadsheet): Piece[] {
  const pieces: Piece[] = [];
  for (const sheet of book.getSheets()) {
    const lastRow = sheet.getLastRow();
    const lastCol = sheet.getLastColumn();
    if (lastRow === 0 || lastCol === 0) continue;
    const grid = sheet.getRange(1, 1, lastRow, lastCol).getFormulas();
    const ours = (r: number, c: number) => !!grid[r][c] && FORMULA_PATTERN.test(grid[r][c]);
    // Runs down each column, then runs over the same rows in adjacent columns merged into one rectangle.
    const open = new Map<string, { r1: number; r2: number; c1: number; c2: number }>();
    const rects: Array<{ r1: number; r2: number; c1: number; c2: number }> = [];
    for (let c = 0; c < lastCol; c++) {
      for (let r = 0; r < lastRow; r++) {
        if (!ours(r, c)) continue;
        let r2 = r;
        while (r2 + 1 < lastRow && ours(r2 + 1, c)) r2++;
        const key = `${r}:${r2}`;
        const prev = open.get(key);
        if (prev && prev.c2 === c - 1) prev.c2 = c;
        else {
          const rect = { r1: r, r2, c1: c, c2: c };
          open.set(key, rect);
          rects.push(rect);
        }
        r = r2;
      }
    }
    const id = sheet.getSheetId();
    for (const { r1, r2, c1, c2 } of rects) {
      // Split tall rectangles by rows so that each piece fits in one block's journal.
      let start = r1;
      let chars = 0;
      for (let r = r1; r <= r2 + 1; r++) {
        const rowChars = r <= r2 ? journalText(grid[r].slice(c1, c2 + 1)).length : 0;
        if (r > r2 || (r > start && chars + rowChars > BLOCK_CHARS / 2)) {
          pieces.push({ sheetId: id, row: start + 1, col: c1 + 1, formulas: grid.slice(start, r).map((row) => row.slice(c1, c2 + 1)) });
          start = r;
          chars = 0;
        }
        chars += rowChars;
      }
    }
  }
  return pieces;
}

/** Pieces packed greedily into blocks whose journal fits BLOCK_CHARS. */
function blocks(pieces: Piece[]): Piece[][] {
  const out: Piece[][] = [];
  let block: Piece[] = [];
  let chars = 0;
  for (const p of pieces) {
    const size = journalText(p).length;
    if (block.length && chars + size > BLOCK_CHARS) {
      out.push(block);
      block = [];
      chars = 0;
    }
    block.push(p);
    chars += size;
  }
  if (block.length) out.push(block);
  return out;
}

/** JSON with every non-ASCII character escaped, so that its length in characters is its size in bytes. */
function journalText(v: unknown): string {
  return JSON.stringify(v).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sheetById(book: GoogleAppsScript.Spreadsheet.Spreadsheet): Map<number, GoogleAppsScript.Spreadsheet.Sheet> {
  return new Map(book.getSheets().map((s) => [s.getSheetId(), s]));
}

/** Journal, clear (one call per piece), flush, rewrite (one call per piece), drop the journal. */
function rewriteBlock(book: GoogleAppsScript.Spreadsheet.Spreadsheet, block: Piece[]): void {
  const store = PropertiesService.getDocumentProperties();
  const text = journalText({ pieces: block } satisfies Journal);
  const chunks: Record<string, string> = {};
  const n = Math.ceil(text.length / CHUNK_CHARS);
  for (let i = 0; i < n; i++) chunks[`${JOURNAL_KEY}_${i}`] = text.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS);
  chunks[JOURNAL_KEY] = String(n);
  store.setProperties(chunks);
  const sheets = sheetById(book);
  const ranges = block.map((p) => {
    const sheet = sheets.get(p.sheetId) as GoogleAppsScript.Spreadsheet.Sheet;
    return sheet.getRange(p.row, p.col, p.formulas.length, p.formulas[0].length);
  });
  block.forEach((p, i) => ranges[i].setFormulas(p.formulas.map((row) => row.map(() => ''))));
  SpreadsheetApp.flush();
  block.forEach((p, i) => ranges[i].setFormulas(p.formulas));
  dropJournal(store, n);
}

/** Header first: a journal without its header is never replayed, only swept. */
function dropJournal(store: GoogleAppsScript.Properties.Properties, n: number): void {
  store.deleteProperty(JOURNAL_KEY);
  for (let i = 0; i < n; i++) store.deleteProperty(`${JOURNAL_KEY}_${i}`);
}

/**
 * Puts back the formulas of a refresh that was killed between clearing and rewriting a block,
 * into the cells of that block that are still empty; returns how many. Cheap when there is
 * nothing to do (one read of the document properties).
 */
export function recoverInterruptedRefresh(): number {
  const store = PropertiesService.getDocumentProperties();
  const props = store.getProperties();
  const leftovers = Object.keys(props).filter((k) => k.startsWith(`${JOURNAL_KEY}_`));
  const header = props[JOURNAL_KEY];
  if (header === undefined && !leftovers.length) return 0;
  let recovered = 0;
  const n = Number(header);
  const text = Number.isInteger(n) && n > 0 ? Array.from({ length: n }, (_, i) => props[`${JOURNAL_KEY}_${i}`] ?? '').join('') : '';
  let journal: Journal | null = null;
  try {
    journal = text ? (JSON.parse(text) as Journal) : null;
  } catch {
    journal = null; // A torn journal cannot be replayed; the header is written last in one call, so this does not happen.
  }
  if (journal) {
    const sheets = sheetById(SpreadsheetApp.getActiveSpreadsheet());
    for (const p of journal.pieces) {
      const sheet = sheets.get(p.sheetId);
      if (!sheet) continue;
      const rows = p.formulas.length;
      const cols = p.formulas[0].length;
      const range = sheet.getRange(p.row, p.col, rows, cols);
      const formulas = range.getFormulas();
      const values = range.getValues();
      const empty = (r: number, c: number) => formulas[r][c] === '' && values[r][c] === '' && p.formulas[r][c] !== '';
      // Write back runs of still-empty cells down each column: never over what someone typed since.
      for (let c = 0; c < cols; c++) {
        for (let r = 0; r < rows; r++) {
          if (!empty(r, c)) continue;
          let r2 = r;
          while (r2 + 1 < rows && empty(r2 + 1, c)) r2++;
          sheet.getRange(p.row + r, p.col + c, r2 - r + 1, 1).setFormulas(p.formulas.slice(r, r2 + 1).map((row) => [row[c]]));
          recovered += r2 - r + 1;
          r = r2;
        }
      }
    }
  }
  if (header !== undefined) store.deleteProperty(JOURNAL_KEY);
  for (const k of leftovers) store.deleteProperty(k);
  return recovered;
}
