/**
 * Sheet writes and reads for imports and logs, always whole blocks (one setValues per block,
 * never cell by cell). Every text cell goes through the shared cell-safety rule, so nothing the
 * service sends can become a formula; only formulas the analyst wrote are written as formulas.
 */
import { type Cell, safeText } from '../table/cells';
import { logLayout } from '../table/log-layout';
import type { OutCell } from '../import/merge';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export function book(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  return SpreadsheetApp.getActiveSpreadsheet();
}

export function findSheet(name: string): Sheet | null {
  return book().getSheetByName(name);
}

export function ensureSheet(name: string): Sheet {
  return findSheet(name) ?? book().insertSheet(name);
}

/** A sheet the add-in keeps for itself: created without taking the analyst away from the sheet they are on, hidden if asked. */
export function ensureSideSheet(name: string, hidden: boolean): Sheet {
  const existing = findSheet(name);
  if (existing) return existing;
  const active = book().getActiveSheet();
  const sheet = book().insertSheet(name);
  if (hidden) sheet.hideSheet();
  book().setActiveSheet(active);
  return sheet;
}

export function removeSheet(name: string): void {
  const sheet = findSheet(name);
  if (sheet) book().deleteSheet(sheet);
}

function toSheetCell(cell: OutCell): Cell {
  if (typeof cell === 'object' && cell !== null && 'formula' in cell) return cell.formula;
  return typeof cell === 'string' ? safeText(cell, 'sheet') : cell;
}

function ensureSize(sheet: Sheet, rows: number, cols: number): void {
  const maxRows = sheet.getMaxRows();
  if (rows > maxRows) sheet.insertRowsAfter(maxRows, rows - maxRows);
  const maxCols = sheet.getMaxColumns();
  if (cols > maxCols) sheet.insertColumnsAfter(maxCols, cols - maxCols);
}

/** Writes a block at (row, 1) in one call, growing the grid first if needed. */
export function writeBlock(sheet: Sheet, row: number, grid: readonly OutCell[][]): void {
  if (grid.length === 0) return;
  const width = Math.max(...grid.map((r) => r.length));
  ensureSize(sheet, row + grid.length - 1, width);
  const values = grid.map((r) => {
    const out = r.map(toSheetCell);
    while (out.length < width) out.push('');
    return out;
  });
  sheet.getRange(row, 1, values.length, width).setValues(values);
}

/**
 * Replaces a sheet's table in one setValues: the new grid, padded with blanks over whatever the
 * old table covered, so there is no moment at which the sheet is cleared but not yet written.
 */
export function replaceTable(sheet: Sheet, grid: readonly OutCell[][]): void {
  const rows = Math.max(grid.length, sheet.getLastRow());
  const cols = Math.max(...grid.map((r) => r.length), sheet.getLastColumn());
  const padded: OutCell[][] = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => grid[r]?.[c] ?? ''));
  writeBlock(sheet, 1, padded);
  sheet.setFrozenRows(1);
}

export function readTable(sheet: Sheet): { values: Cell[][]; formulas: string[][] } {
  if (sheet.getLastRow() === 0) return { values: [], formulas: [] };
  const range = sheet.getDataRange();
  return { values: range.getValues() as Cell[][], formulas: range.getFormulas() };
}

/** Formats the given 1-based columns below the header as date-times. */
export function formatDateColumns(sheet: Sheet, columns: readonly number[], rows: number): void {
  if (rows < 1) return;
  for (const c of columns) sheet.getRange(2, c, rows, 1).setNumberFormat('yyyy-mm-dd hh:mm');
}

/**
 * Appends rows to a log sheet, creating it (with the header) when absent. A sheet whose header row
 * is of an earlier layout keeps it: each value goes under its own column name (../table/log-layout.ts).
 */
export function appendLog(name: string, header: readonly string[], rows: readonly Cell[][]): void {
  if (rows.length === 0) return;
  const sheet = ensureSideSheet(name, false);
  const last = sheet.getLastRow();
  if (last === 0) {
    writeBlock(sheet, 1, [[...header], ...rows]);
    sheet.setFrozenRows(1);
    return;
  }
  const width = Math.max(1, sheet.getLastColumn());
  const layout = logLayout(sheet.getRange(1, 1, 1, width).getValues()[0], header);
  if (layout.added.length) sheet.getRange(1, width + 1, 1, layout.added.length).setValues([layout.added]);
  writeBlock(sheet, last + 1, rows.map((row) => layout.place(row)));
}
