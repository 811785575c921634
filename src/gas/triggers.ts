/**
 * The add-in's time-driven triggers, within Google's limits (20 per user per script; add-ons at
 * most hourly): one hourly dispatcher that runs whatever saved import is due, and at most one
 * one-off continuation that picks up an import which stopped at the time limit, and, while
 * "Refresh all formulas" runs, one one-off repair that puts back what a killed refresh erased
 * about a minute later, whether or not anyone opens anything.
 */
import { loadImports, loadRun } from './store';

export const DISPATCHER = 'runScheduledImports';
export const CONTINUATION = 'continueImports';
export const REPAIR = 'repairInterruptedRefresh';
const CONTINUE_AFTER_MS = 60_000;
const REPAIR_AFTER_MS = 60_000;

function mine(handler: string): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getProjectTriggers().filter((t) => t.getHandlerFunction() === handler);
}

export function ensureDispatcher(): void {
  if (mine(DISPATCHER).length === 0) ScriptApp.newTrigger(DISPATCHER).timeBased().everyHours(1).create();
}

export function removeDispatcher(): void {
  for (const t of mine(DISPATCHER)) ScriptApp.deleteTrigger(t);
}

export function ensureContinuation(): void {
  if (mine(CONTINUATION).length === 0) ScriptApp.newTrigger(CONTINUATION).timeBased().after(CONTINUE_AFTER_MS).create();
}

/** Removes continuation triggers (the one that just fired, if its id is given, or all). */
export function clearContinuation(firedId?: string): void {
  for (const t of mine(CONTINUATION)) if (!firedId || t.getUniqueId() === firedId) ScriptApp.deleteTrigger(t);
}

/** Keeps the trigger set right: a dispatcher while any schedule exists, a continuation while any run is unfinished. */
export function syncTriggers(): void {
  const imports = loadImports();
  if (imports.some((i) => i.schedule)) ensureDispatcher();
  else removeDispatcher();
  if (imports.some((i) => loadRun(i.id)?.status === 'running')) ensureContinuation();
  else clearContinuation();
}

/** Arms the repair of a refresh that may be killed (none is added when one is already armed). */
export function ensureRefreshRepair(): void {
  if (mine(REPAIR).length === 0) ScriptApp.newTrigger(REPAIR).timeBased().after(REPAIR_AFTER_MS).create();
}

/** Disarms it: the refresh finished, or the repair ran (only the one that fired, if its id is given). */
export function clearRefreshRepair(firedId?: string): void {
  for (const t of mine(REPAIR)) if (!firedId || t.getUniqueId() === firedId) ScriptApp.deleteTrigger(t);
}
