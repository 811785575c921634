/**
 * The add-in's menu and sidebar in Apps Script's UI services.
 */

export interface MenuItem {
  caption: string;
  handler: string;
}

/** Adds the menu; `null` items are separators. */
export function addMenu(title: string, items: ReadonlyArray<MenuItem | null>): void {
  const menu = SpreadsheetApp.getUi().createMenu(title);
  for (const item of items) {
    if (item) menu.addItem(item.caption, item.handler);
    else menu.addSeparator();
  }
  menu.addToUi();
}

export function openSidebar(file: string, title: string): void {
  SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutputFromFile(file).setTitle(title));
}
