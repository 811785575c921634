/**
 * "Refresh all formulas" in Apps Script: marks every cached answer stale (the refreshed-at mark
 * in document properties) and makes Sheets run the add-in's formulas again by clearing and
 * rewriting them, the way a script can make a custom function recalculate with unchanged
 * arguments. The plan (rectangles of add-in formulas only, blocks, what to put back) is pure
 * (src/table/refresh-plan.ts); this file applies it: one `setFormulas` call per rectangle to
 * clear and one to rewrite, so no other cell is ever written.
 *
 * A block's formulas are journalled in document properties (gzip + base64, in chunks under the
 * 9 KB a value may hold) before the block is cleared, and the journal is dropped once the block
 * is rewritten. An execution killed between the two (time limit,
 * closed tab) leaves the journal behind; `recoverInterruptedRefresh` puts those formulas back
 * within the hour (the user's hourly trigger, armed before the first block, src/gas/triggers.ts),
 * or sooner at the start of the next refresh, sidebar opening or trigger run, into cells that are still
 * empty (a cell the analyst filled meanwhile is left as it is). A call that fails with an error
 * puts its block back at once. A block that could not finish before the execution's deadline is
 * not started.
 */
import { grouped, plural } from '../api/numbers';
import { LOCK_WAIT_MS } from '../import/machine';
import type { Person } from '../import/spec';
import { type Block, cellsOf, findPieces, nextBlock, type Piece, recoveryRuns } from '../table/refresh-plan';
import { EXECUTION_LIMIT_MS } from './clock';
import { EXECUTION_STARTED_AT } from './context';
import { documentLock } from './lock';
import { PROP, saveDocumentProperty } from './settings';
import { REPAIR_WORK, syncTriggers } from './triggers';
import { me } from './user';

/** Journal: a header (how many chunks) and its chunks, each under the 9 KB a property value may hold. */
export const JOURNAL_KEY = PROP.refreshJournal;
const CHUNK_CHARS = 8000;
/** Journal per block, compressed: 12 chunks (96 KB of the store's 500 KB), about 28,000 fill-down formulas. */
const JOURNAL_CHARS = 12 * CHUNK_CHARS;
/** Journal characters per character of formula text to expect before the first block is measured (fill-down formulas: about 0.12). */
const FIRST_RATIO = 0.12;
/** A block is started only with this much of the execution's time left over. */
const SAFETY_MS = 30_000;

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

/**
 * The whole refresh, holding the document lock (an import step or another refresh may hold it for
 * up to LOCK_WAIT_MS): recover, mark stale, rewrite block by block; a toast says what happened.
 */
export function refreshAddinFormulas(deadline = EXECUTION_STARTED_AT + EXECUTION_LIMIT_MS - SAFETY_MS): RefreshOutcome {
  const lock = documentLock();
  if (!lock.tryLock(LOCK_WAIT_MS)) {
    const busy = 'An import or another Refresh all formulas is writing to this spreadsheet';
    throw new Error(`${busy}; try again when it has finished.`);
  }
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
  const pieces = book.getSheets().flatMap((sheet) => {
    const rows = sheet.getLastRow();
    const cols = sheet.getLastColumn();
    return rows && cols ? findPieces(sheet.getSheetId(), sheet.getRange(1, 1, rows, cols).getFormulas()) : [];
  });
  const found = pieces.reduce((n, p) => n + cellsOf(p), 0);
  let refreshed = 0;
  const started = Date.now();
  let perCellMs = 0;
  let ratio = FIRST_RATIO;
  const user = pieces.length > 0 ? armRepair() : undefined;
  while (pieces.length) {
    // Never start a block that might not finish: estimate from the blocks done so far (first block: go).
    const rawBudget = Math.floor((JOURNAL_CHARS * 0.9) / ratio);
    const block = nextBlock(pieces, rawBudget, JOURNAL_CHARS, (p) => encode({ pieces: p }));
    const n = block.pieces.reduce((k, p) => k + cellsOf(p), 0);
    if (refreshed > 0 && Date.now() + perCellMs * n * 2 + 1000 > deadline) break;
    rewriteBlock(book, block);
    refreshed += n;
    perCellMs = (Date.now() - started) / refreshed;
    ratio = Math.max(block.journal.length / block.raw, 0.01);
  }
  if (user) disarm(user);
  const formulas = (k: number) => plural(k, 'Investor Data formula');
  const left = `Refreshed ${grouped(refreshed)} of ${formulas(found)} before the time limit; run Refresh all formulas again for \
the rest.`;
  book.toast(refreshed === found ? `Refreshed ${formulas(found)}.` : left, 'Investor Data');
  return { found, refreshed, recovered };
}

/**
 * Arms the user's hourly trigger before the first block (the first journal write, a moment later,
 * is what it will find to do); undefined when it cannot be armed: the next execution still repairs.
 */
function armRepair(): Person | undefined {
  try {
    const user = me();
    syncTriggers(user, REPAIR_WORK);
    return user;
  } catch {
    return undefined;
  }
}

/** The refresh finished: the trigger stays only for the user's other work. */
function disarm(user: Person): void {
  try {
    syncTriggers(user);
  } catch {
    // The trigger is removed at its next run, which finds nothing to do.
  }
}

function encode(journal: Journal): string {
  const blob = Utilities.newBlob(JSON.stringify(journal), 'application/json');
  return Utilities.base64Encode(Utilities.gzip(blob).getBytes());
}

function decode(text: string): Journal {
  const blob = Utilities.newBlob(Utilities.base64Decode(text), 'application/x-gzip');
  return JSON.parse(Utilities.ungzip(blob).getDataAsString()) as Journal;
}

function sheetById(book: GoogleAppsScript.Spreadsheet.Spreadsheet): Map<number, GoogleAppsScript.Spreadsheet.Sheet> {
  return new Map(book.getSheets().map((s) => [s.getSheetId(), s]));
}

/** Journal, clear (one call per piece), flush, rewrite (one call per piece), drop the journal. */
function rewriteBlock(book: GoogleAppsScript.Spreadsheet.Spreadsheet, block: Block): void {
  const store = PropertiesService.getDocumentProperties();
  const chunks: Record<string, string> = {};
  const n = Math.ceil(block.journal.length / CHUNK_CHARS);
  for (let i = 0; i < n; i++)
    chunks[`${JOURNAL_KEY}_${i}`] = block.journal.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS);
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

/**
 * The journal left by an interrupted refresh, or null. Header and chunks are written in one call,
 * so a journal with its header is whole.
 */
function readJournal(props: Record<string, string>): Journal | null {
  const n = Number(props[JOURNAL_KEY]);
  if (!Number.isInteger(n) || n <= 0) return null;
  const text = Array.from({ length: n }, (_, i) => props[`${JOURNAL_KEY}_${i}`] ?? '').join('');
  return text ? decode(text) : null;
}

function recoverLocked(): number {
  const store = PropertiesService.getDocumentProperties();
  const props = store.getProperties();
  const leftovers = Object.keys(props).filter((k) => k.startsWith(`${JOURNAL_KEY}_`));
  const header = props[JOURNAL_KEY];
  if (header === undefined && !leftovers.length) return 0;
  let recovered = 0;
  const sheets = sheetById(SpreadsheetApp.getActiveSpreadsheet());
  for (const p of readJournal(props)?.pieces ?? []) {
    const sheet = sheets.get(p.sheetId);
    // A piece without rows holds nothing to put back.
    if (!sheet || !p.formulas[0]?.length) continue;
    const range = sheet.getRange(p.row, p.col, p.formulas.length, p.formulas[0].length);
    // Runs of still-empty cells down each column: never over what someone typed since.
    for (const run of recoveryRuns(p, range.getFormulas(), range.getValues())) {
      sheet.getRange(run.row, run.col, run.formulas.length, 1).setFormulas(run.formulas);
      recovered += run.formulas.length;
    }
  }
  if (header !== undefined) store.deleteProperty(JOURNAL_KEY);
  for (const k of leftovers) store.deleteProperty(k);
  return recovered;
}
