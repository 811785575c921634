/**
 * "Refresh all formulas" in Apps Script: marks every cached answer stale (the refreshed-at mark
 * in document properties) and makes Sheets run the add-in's formulas again by clearing and
 * rewriting each of them, the only way a script can force a custom function to recalculate with
 * unchanged arguments.
 */
import { CUSTOM_FUNCTION_NAMES } from '../table/names';
import { PROP, saveDocumentProperty } from './settings';

const FORMULA_PATTERN = new RegExp(`\\b(${CUSTOM_FUNCTION_NAMES.join('|')})\\s*\\(`, 'i');

/** Returns how many formulas were refreshed. */
export function refreshAddinFormulas(): number {
  saveDocumentProperty(PROP.refreshedAt, String(Date.now()));
  const book = SpreadsheetApp.getActiveSpreadsheet();
  const found: Array<{ range: GoogleAppsScript.Spreadsheet.Range; formula: string }> = [];
  for (const sheet of book.getSheets()) {
    const lastRow = sheet.getLastRow();
    const lastCol = sheet.getLastColumn();
    if (lastRow === 0 || lastCol === 0) continue;
    const formulas = sheet.getRange(1, 1, lastRow, lastCol).getFormulas();
    formulas.forEach((row, r) => {
      row.forEach((formula, c) => {
        if (formula && FORMULA_PATTERN.test(formula)) found.push({ range: sheet.getRange(r + 1, c + 1), formula });
      });
    });
  }
  for (const f of found) f.range.setFormula('');
  SpreadsheetApp.flush();
  for (const f of found) f.range.setFormula(f.formula);
  book.toast(`Refreshed ${found.length} Investor Data formula${found.length === 1 ? '' : 's'}.`, 'Investor Data');
  return found.length;
}
