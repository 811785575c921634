/**
 * The add-in's menu: onOpen/onInstall add the menu under Extensions (the add-on menu, which a
 * bound script gets too, captioned with the project's name), whose items open the sidebar,
 * refresh every formula of the add-in in this spreadsheet, or run Diagnostics.
 */
import { refreshAddinFormulas } from '../gas/formulas';
import { addMenu, type MenuItem, openSidebar } from '../gas/ui';

/** The event of the onOpen/onInstall simple triggers; only `authMode` matters, and the menu does not depend on it. */
export interface OpenEvent {
  authMode?: GoogleAppsScript.Script.AuthMode;
}

/** The menu: item captions and the globals they run (every one runs in AuthMode.FULL when clicked). */
export const MENU_ITEMS: ReadonlyArray<MenuItem | null> = [
  { caption: 'Open sidebar', handler: 'showSidebar' },
  { caption: 'Settings', handler: 'showSidebar' },
  null,
  { caption: 'Refresh all formulas', handler: 'refreshAllFormulas' },
  { caption: 'Diagnostics', handler: 'showDiagnostics' },
];

/**
 * Runs when the spreadsheet opens: in AuthMode.NONE (an Editor add-on installed by this user but
 * not yet used in this document), LIMITED (a bound script, or an add-on enabled here) or FULL
 * (from onInstall). NONE allows nothing but building menus, so the menu is the same in every
 * mode and built from nothing but the Ui: no properties, cache, document or network, whatever
 * `e.authMode` says. Anything that needs more waits for a menu click, which runs in FULL.
 */
export function onOpen(_e?: OpenEvent): void {
  addMenu(MENU_ITEMS);
}

/** Runs once when a user installs the Editor add-on (in AuthMode.FULL): the document is already open, so add the menu now. */
export function onInstall(e?: OpenEvent): void {
  onOpen(e);
}

export function showSidebar(): void {
  openSidebar('Sidebar', 'Investor Data');
}

/** Marks every cached answer stale and recalculates the add-in's formulas; returns how many were rewritten. */
export function refreshAllFormulas(): number {
  return refreshAddinFormulas().refreshed;
}
