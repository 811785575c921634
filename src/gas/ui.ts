/**
 * The add-in's menu, sidebar and dialogs in Apps Script's UI services. The menu is the add-on
 * menu (Extensions ▸ the project's name), which a bound script gets too; it is built from the
 * Ui alone, so it works in every authorization mode.
 */

export interface MenuItem {
  caption: string;
  handler: string;
}

/** Adds the menu; `null` items are separators. */
export function addMenu(items: ReadonlyArray<MenuItem | null>): void {
  const menu = SpreadsheetApp.getUi().createAddonMenu();
  for (const item of items) {
    if (item) menu.addItem(item.caption, item.handler);
    else menu.addSeparator();
  }
  menu.addToUi();
}

export function openSidebar(file: string, title: string): void {
  SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutputFromFile(file).setTitle(title));
}
