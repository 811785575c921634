/**
 * The add-in's menu and sidebar: onOpen/onInstall add the "Investor Data" menu, whose items
 * open the sidebar or refresh every formula of the add-in in this spreadsheet.
 */
import { saveDocumentProperty, PROP } from './gas/settings';
import { CUSTOM_FUNCTION_NAMES } from './names';

export function onOpen(): void {
  SpreadsheetApp.getUi()
    .createMenu('Investor Data')
    .addItem('Open sidebar', 'showSidebar')
    .addItem('Settings', 'showSidebar')
    .addSeparator()
    .addItem('Refresh all formulas', 'refreshAllFormulas')
    .addToUi();
}

export function onInstall(): void {
  onOpen();
}

export function showSidebar(): void {
  const html = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle('Investor Data');
  SpreadsheetApp.getUi().showSidebar(html);
}

const FORMULA_PATTERN = new RegExp(`\\b(${CUSTOM_FUNCTION_NAMES.join('|')})\\s*\\(`, 'i');

/**
 * Marks every cached answer stale and makes Sheets run the add-in's formulas again: each such
 * formula is cleared and written back, which is the only way a script can force a custom
 * function to recalculate with unchanged arguments. Returns how many formulas were refreshed.
 */
export function refreshAllFormulas(): number {
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
