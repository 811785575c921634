/**
 * The add-in's menu: onOpen/onInstall add the "Investor Data" menu, whose items open the
 * sidebar or refresh every formula of the add-in in this spreadsheet.
 */
import { refreshAddinFormulas } from '../gas/formulas';
import { addMenu, openSidebar } from '../gas/ui';

export function onOpen(): void {
  addMenu('Investor Data', [
    { caption: 'Open sidebar', handler: 'showSidebar' },
    { caption: 'Settings', handler: 'showSidebar' },
    null,
    { caption: 'Refresh all formulas', handler: 'refreshAllFormulas' },
  ]);
}

export function onInstall(): void {
  onOpen();
}

export function showSidebar(): void {
  openSidebar('Sidebar', 'Investor Data');
}

/** Marks every cached answer stale and recalculates the add-in's formulas; returns how many. */
export function refreshAllFormulas(): number {
  return refreshAddinFormulas();
}
