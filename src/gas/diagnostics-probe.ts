/**
 * The Apps Script calls of Diagnostics (src/diagnostics.ts): a round trip through the cache
 * and through each properties store the add-in uses, the user's trigger handlers in this
 * project, where the service address comes from, and the dialog that shows the report. Every
 * probe leaves nothing behind: what it writes it removes.
 */
import { PROP } from './settings';

const PROBE_KEY = 'INVESTOR_DATA_DIAGNOSTICS_PROBE';

/** Whether an error is Apps Script refusing a call in this authorization mode (or for a missing scope). */
export function isPermissionError(e: unknown): boolean {
  return /You do not have permission to call|Authorization is required/i.test(
    e instanceof Error ? e.message : String(e),
  );
}

function token(): string {
  return Utilities.getUuid();
}

/** Writes a value to the document cache (the one the add-in's answers live in), reads it back, removes it. */
export function cacheRoundTrip(): boolean {
  const cache = CacheService.getDocumentCache() ?? CacheService.getScriptCache();
  const value = token();
  cache.put(PROBE_KEY, value, 60);
  const back = cache.get(PROBE_KEY);
  cache.remove(PROBE_KEY);
  return back === value;
}

export type PropertyStore = 'user' | 'document';

/** Reads the store, writes a probe value, reads it back, deletes it. */
export function propertiesRoundTrip(which: PropertyStore): { readable: boolean; writable: boolean } {
  const store =
    which === 'user'
      ? PropertiesService.getUserProperties()
      : (PropertiesService.getDocumentProperties() ?? PropertiesService.getScriptProperties());
  store.getKeys();
  const value = token();
  store.setProperty(PROBE_KEY, value);
  const back = store.getProperty(PROBE_KEY);
  store.deleteProperty(PROBE_KEY);
  return { readable: true, writable: back === value };
}

/** The handler of each of this user's triggers in this spreadsheet (an add-on may have one time-driven trigger per user and document). */
export function triggerHandlers(): string[] {
  return ScriptApp.getUserTriggers(SpreadsheetApp.getActiveSpreadsheet()).map((t) => t.getHandlerFunction());
}

/** Where the service address is set: this spreadsheet, or the deployment default in script properties. */
export function serviceAddressSource(): 'document properties' | 'script properties (deployment default)' | '' {
  if (PropertiesService.getDocumentProperties()?.getProperty(PROP.baseUrl)) return 'document properties';
  if (PropertiesService.getScriptProperties().getProperty(PROP.baseUrl))
    return 'script properties (deployment default)';
  return '';
}

/** Shows HTML in a modal dialog over the spreadsheet. */
export function showDialog(html: string, title: string): void {
  SpreadsheetApp.getUi().showModalDialog(HtmlService.createHtmlOutput(html).setWidth(640).setHeight(480), title);
}
