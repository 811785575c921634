/**
 * The one lock of the add-in's writers: the document lock, or the script lock where the script is
 * not bound to a spreadsheet (it has no document lock). Imports and "Refresh all formulas" take it,
 * so one execution at a time writes the sheets, the staging area and the refresh journal.
 */
export function documentLock(): GoogleAppsScript.Lock.Lock {
  return LockService.getDocumentLock() ?? LockService.getScriptLock();
}
