/**
 * "Refresh all formulas" in Apps Script: marks every cached answer stale (the refreshed-at mark
 * in document properties) and makes Sheets run the add-in's formulas again by clearing and
 * rewriting them, the way a script can make a custom function recalculate with unchanged
 * arguments. It works in blocks of contiguous runs (rectangles of add-in formulas only: one
 * column's adjacent rows, merged with neighbouring columns that span the same rows), one
 * `setFormulas` call per run to clear and one to rewrite, so no other cell is ever written.
 *
 * A block's formulas are journalled in document properties (gzip + base64, in chunks under the
 * 9 KB a value may hold) before the block is cleared, and the journal is dropped once the block
 * is rewritten. An execution killed between the two (time limit,
 * closed tab) leaves the journal behind; `recoverInterruptedRefresh` puts those formulas back
 * about a minute later (a one-off trigger armed before the first block and disarmed at the end),
 * or sooner at the start of the next refresh, sidebar opening or trigger run, into cells that are still
 * empty (a cell the analyst filled meanwhile is left as it is). A call that fails with an error
 * puts its block back at once. A block that could not finish before the execution's deadline is
 * not started.
 */
import { CUSTOM_FUNCTION_NAMES } from '../table/names';
import { EXECUTION_STARTED_AT } from './context';
import { PROP, saveDocumentProperty } from './settings';
import { clearRefreshRepair, ensureRefreshRepair } from './triggers';

const FORMULA_PATTERN = new RegExp(`\\b(${CUSTOM_FUNCTION_NAMES.join('|')})\\s*\\(`, 'i');

/** Journal: a header (how many chunks) and its chunks, each under the 9 KB a property value may hold. */
export const JOURNAL_KEY = 'INVESTOR_DATA_REFRESH_JOURNAL';
const CHUNK_CHARS = 8000;
/** Journal per block, compressed: 12 chunks (96 KB of the store's 500 KB), about 28,000 fill-down formulas. */
const JOURNAL_CHARS = 12 * CHUNK_CHARS;
/** Journal characters per character of formula text to expect before the first block is measured (fill-down formulas: about 0.12). */
const FIRST_RATIO = 0.12;
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

/** How long a refresh waits for another refresh or an import step to let go of the document. */
const LOCK_WAIT_MS = 30_000;

function documentLock(): GoogleAppsScript.Lock.Lock {
  // The lock imports take too (src/gas/import-ports.ts): one writer of the sheets and of the journal at a time.
  return LockService.getDocumentLock() ?? LockService.getScriptLock();
}

/**
 * The whole refresh, holding the document lock: recover, mark stale, rewrite block by block; a
 * toast says what happened.
 */
export function refreshAddinFormulas(deadline = EXECUTION_STARTED_AT + EXECUTION_LIMIT_MS - SAFETY_MS): RefreshOutcome {
  const lock = documentLock();
  if (!lock.tryLock(LOCK_WAIT_MS)) throw new Error('An import or another Refresh all formulas is writing to this spreadsheet; try again when it has finished.');
  try {
    return refreshLocked(deadline);
  } finally {
    lock.releaseLock();
  }
}

function refreshLocked(deadline: number): RefreshOutcome {
  const recovered = recoverLocked();
  saveDocumentProperty(PROP.refreshedAt, String(Date.now()));
  const book = SpreadsheetApp.getActiveSpreadsheet();
  const pieces = findPieces(book);
  const found = pieces.reduce((n, p) => n + cells(p), 0);
  let refreshed = 0;
  const started = Date.now();
  let perCellMs = 0;
  const queue = pieces.slice();
  let ratio = FIRST_RATIO;
  const armed = queue.length > 0 && armRepair();
  while (queue.length) {
    // Never start a block that might not finish: estimate from the blocks done so far (first block: go).
    const block = nextBlock(queue, Math.floor((JOURNAL_CHARS * 0.9) / ratio));
    const n = block.pieces.reduce((k, p) => k + cells(p), 0);
    if (refreshed > 0 && Date.now() + perCellMs * n * 2 + 1000 > deadline) break;
    rewriteBlock(book, block);
    refreshed += n;
    perCellMs = (Date.now() - started) / refreshed;
    ratio = Math.max(block.journal.length / block.raw, 0.01);
  }
  if (armed) clearRefreshRepair();
  const plural = (k: number) => `${k} Investor Data formula${k === 1 ? '' : 's'}`;
  book.toast(
    refreshed === found ? `Refreshed ${plural(found)}.` : `Refreshed ${refreshed} of ${plural(found)} before the time limit; run Refresh all formulas again for the rest.`,
    'Investor Data',
  );
  return { found, refreshed, recovered };
}

/** Arms the repair trigger; false when it cannot be (20 triggers already): the next execution still repairs. */
function armRepair(): boolean {
  try {
    ensureRefreshRepair();
    return true;
  } catch {
    return false;
  }
}

function cells(p: Piece): number {
  return p.formulas.length * (p.formulas[0]?.length ?? 0);
}

/** Every add-in formula of every sheet as rectangles (one per run). */
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
    for (const { r1, r2, c1, c2 } of rects) pieces.push({ sheetId: id, row: r1 + 1, col: c1 + 1, formulas: grid.slice(r1, r2 + 1).map((row) => row.slice(c1, c2 + 1)) });
  }
  return pieces;
}

interface Block {
  pieces: Piece[];
  /** The encoded journal of these pieces, and the size of their formula text. */
  journal: string;
  raw: number;
}

function rawSize(rows: string[][]): number {
  return rows.reduce((n, row) => row.reduce((k, f) => k + f.length + 3, n), 0);
}

/**
 * Takes the next block off the front of the queue: pieces up to `rawBudget` characters of
 * formula text (a piece cut by rows where it does not fit), with its encoded journal. When the
 * journal is over JOURNAL_CHARS (formulas that compress worse than the last block's), the block
 * is halved and the rest goes back to the front of the queue.
 */
function nextBlock(queue: Piece[], rawBudget: number): Block {
  const take: Piece[] = [];
  let raw = 0;
  while (queue.length) {
    const p = queue[0];
    const size = rawSize(p.formulas);
    if (raw + size <= rawBudget) {
      take.push(queue.shift() as Piece);
      raw += size;
      continue;
    }
    if (!take.length) {
      // Cut the first piece to the rows that fit (at least one).
      let rows = 0;
      let used = 0;
      while (rows < p.formulas.length - 1 && used + rawSize([p.formulas[rows]]) <= rawBudget) used += rawSize([p.formulas[rows++]]);
      rows = Math.max(rows, 1);
      take.push({ ...p, formulas: p.formulas.slice(0, rows) });
      queue[0] = { ...p, row: p.row + rows, formulas: p.formulas.slice(rows) };
      raw = rawSize(take[0].formulas);
    }
    break;
  }
  for (;;) {
    const journal = encode({ pieces: take });
    if (journal.length <= JOURNAL_CHARS) return { pieces: take, journal, raw };
    if (take.length > 1) {
      queue.unshift(...take.splice(take.length >> 1));
    } else {
      const [p] = take;
      if (p.formulas.length < 2) throw new Error(`The formulas at row ${p.row}, column ${p.col} are too long to refresh safely; nothing was changed there.`);
      const half = p.formulas.length >> 1;
      queue.unshift({ ...p, row: p.row + half, formulas: p.formulas.slice(half) });
      take[0] = { ...p, formulas: p.formulas.slice(0, half) };
    }
    raw = take.reduce((n, p) => n + rawSize(p.formulas), 0);
  }
}

function encode(journal: Journal): string {
  return Utilities.base64Encode(Utilities.gzip(Utilities.newBlob(JSON.stringify(journal), 'application/json')).getBytes());
}

function decode(text: string): Journal {
  return JSON.parse(Utilities.ungzip(Utilities.newBlob(Utilities.base64Decode(text), 'application/x-gzip')).getDataAsString()) as Journal;
}

function sheetById(book: GoogleAppsScript.Spreadsheet.Spreadsheet): Map<number, GoogleAppsScript.Spreadsheet.Sheet> {
  return new Map(book.getSheets().map((s) => [s.getSheetId(), s]));
}

/** Journal, clear (one call per piece), flush, rewrite (one call per piece), drop the journal. */
function rewriteBlock(book: GoogleAppsScript.Spreadsheet.Spreadsheet, block: Block): void {
  const store = PropertiesService.getDocumentProperties();
  const chunks: Record<string, string> = {};
  const n = Math.ceil(block.journal.length / CHUNK_CHARS);
  for (let i = 0; i < n; i++) chunks[`${JOURNAL_KEY}_${i}`] = block.journal.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS);
  chunks[JOURNAL_KEY] = String(n);
  store.setProperties(chunks);
  const sheets = sheetById(book);
  const ranges = block.pieces.map((p) => {
    const sheet = sheets.get(p.sheetId) as GoogleAppsScript.Spreadsheet.Sheet;
    return sheet.getRange(p.row, p.col, p.formulas.length, p.formulas[0].length);
  });
  try {
    block.pieces.forEach((p, i) => ranges[i].setFormulas(p.formulas.map((row) => row.map(() => ''))));
    SpreadsheetApp.flush();
    block.pieces.forEach((p, i) => ranges[i].setFormulas(p.formulas));
  } catch (e) {
    // A call that failed (a protected range, a service error at Google): put the block back now, then say what failed.
    recoverLocked();
    throw e;
  }
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
 * nothing to do (one read of the document properties' keys). Skipped (0) while another execution holds
 * the document lock: a running refresh looks after its own journal.
 */
export function recoverInterruptedRefresh(): number {
  const keys = PropertiesService.getDocumentProperties().getKeys();
  if (!keys.some((k) => k.startsWith(JOURNAL_KEY))) return 0;
  const lock = documentLock();
  if (!lock.tryLock(0)) return 0;
  try {
    return recoverLocked();
  } finally {
    lock.releaseLock();
  }
}

function recoverLocked(): number {
  const store = PropertiesService.getDocumentProperties();
  const props = store.getProperties();
  const leftovers = Object.keys(props).filter((k) => k.startsWith(`${JOURNAL_KEY}_`));
  const header = props[JOURNAL_KEY];
  if (header === undefined && !leftovers.length) return 0;
  let recovered = 0;
  const n = Number(header);
  const text = Number.isInteger(n) && n > 0 ? Array.from({ length: n }, (_, i) => props[`${JOURNAL_KEY}_${i}`] ?? '').join('') : '';
  // Header and chunks are written in one setProperties call, so a journal with its header is whole.
  const journal = text ? decode(text) : null;
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
