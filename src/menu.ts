/**
 * The add-in's menu and sidebar: onOpen/onInstall add the menu under Extensions (the add-on
 * menu, which a bound script gets too, captioned with the project's name), whose items open
 * the sidebar, refresh every formula of the add-in in this spreadsheet, or run Diagnostics.
 */
import { saveDocumentProperty, PROP } from './gas/settings';
import { CUSTOM_FUNCTION_NAMES } from './names';

/** The event of the onOpen/onInstall simple triggers; only `authMode` is read. */
export interface OpenEvent {
  authMode?: GoogleAppsScript.Script.AuthMode;
}

/** The menu: item captions and the globals they run (every one runs in AuthMode.FULL when clicked). */
export const MENU_ITEMS: ReadonlyArray<readonly [string, string] | null> = [
  ['Open sidebar', 'showSidebar'],
  ['Settings', 'showSidebar'],
  null,
  ['Refresh all formulas', 'refreshAllFormulas'],
  ['Diagnostics', 'showDiagnostics'],
];

/**
 * Runs when the spreadsheet opens: in AuthMode.NONE (an Editor add-on installed by this user but
 * not yet used in this document), LIMITED (a bound script, or an add-on enabled here) or FULL
 * (from onInstall). NONE allows nothing but building menus, so the menu is the same in every
 * mode and built from nothing but the Ui: no properties, cache, document or network, whatever
 * `e.authMode` says. Anything that needs more waits for a menu click, which runs in FULL.
 */
export function onOpen(_e?: OpenEvent): void {
  const menu = SpreadsheetApp.getUi().createAddonMenu();
  for (const item of MENU_ITEMS) {
    if (item) menu.addItem(item[0], item[1]);
    else menu.addSeparator();
  }
  menu.addToUi();
}

/** Runs once when a user installs the Editor add-on (in AuthMode.FULL): the document is already open, so add the menu now. */
export function onInstall(e?: OpenEvent): void {
  onOpen(e);
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
