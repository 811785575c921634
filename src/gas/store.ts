/**
 * Saved imports and the state of their runs, in document properties (they belong to the
 * spreadsheet and must survive a closed sidebar or the end of an execution). Each run has its
 * own property, so a run's progress is one small write; nothing here holds the API key.
 */
import type { RunState } from '../import/run-state';
import type { ImportSpec } from '../import/spec';

const IMPORTS = 'INVESTOR_DATA_IMPORTS';
/** The shape of the saved imports: saved in another, they are read as none (the next save replaces them). */
export const IMPORTS_VERSION = 1;
const RUN_PREFIX = 'INVESTOR_DATA_RUN_';
/** A property holds 9 KB; leave room. */
const MAX_PROPERTY_CHARS = 8500;

function props(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties() ?? PropertiesService.getScriptProperties();
}

export function loadImports(): ImportSpec[] {
  const saved = JSON.parse(props().getProperty(IMPORTS) ?? 'null') as {
    version?: number;
    imports: ImportSpec[];
  } | null;
  return saved?.version === IMPORTS_VERSION ? saved.imports : [];
}

export function saveImports(imports: readonly ImportSpec[]): void {
  const text = JSON.stringify({ version: IMPORTS_VERSION, imports });
  if (text.length > MAX_PROPERTY_CHARS)
    throw new Error('Too many saved imports for one spreadsheet; delete some first.');
  props().setProperty(IMPORTS, text);
}

export function loadRun(importId: string): RunState | null {
  const text = props().getProperty(RUN_PREFIX + importId);
  // A run of another RUN_VERSION is read as it is: the machine starts it over, a summary shows no run.
  return text ? (JSON.parse(text) as RunState) : null;
}

export function saveRun(run: RunState): void {
  props().setProperty(RUN_PREFIX + run.importId, JSON.stringify(run));
}

export function deleteRun(importId: string): void {
  props().deleteProperty(RUN_PREFIX + importId);
}
