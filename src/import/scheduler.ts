/**
 * Trigger handlers for imports: the hourly dispatcher starts every saved import whose schedule
 * is due (and carries on any run left unfinished); the continuation trigger carries on runs that
 * stopped at the time limit. Failures land in the run log and the import's last status; the
 * target sheet keeps its last good data.
 */
import { clearContinuation, ensureContinuation, ensureDispatcher, removeDispatcher } from '../gas/triggers';
import { loadImports, loadRun, saveImports } from '../gas/store';
import { beginRun, continueRun } from './engine';
import { nextDue } from './spec';

interface TriggerEvent {
  triggerUid?: string;
}

/** Keeps the trigger set right: a dispatcher while any schedule exists, a continuation while any run is unfinished. */
export function syncTriggers(): void {
  const imports = loadImports();
  if (imports.some((i) => i.schedule)) ensureDispatcher();
  else removeDispatcher();
  if (imports.some((i) => loadRun(i.id)?.status === 'running')) ensureContinuation();
  else clearContinuation();
}

export function continueImports(e?: TriggerEvent): void {
  if (e?.triggerUid) clearContinuation(e.triggerUid);
  for (const spec of loadImports()) if (loadRun(spec.id)?.status === 'running') continueRun(spec.id, 'schedule');
  syncTriggers();
}

export function runScheduledImports(): void {
  const now = Date.now();
  for (const spec of loadImports()) {
    const run = loadRun(spec.id);
    if (run?.status === 'running') continueRun(spec.id, 'schedule');
    else if (spec.schedule && (spec.nextDueAt ?? 0) <= now) {
      const imports = loadImports();
      const mine = imports.find((i) => i.id === spec.id);
      if (mine?.schedule) {
        mine.nextDueAt = nextDue(mine.schedule, now);
        saveImports(imports);
      }
      beginRun(spec.id, 'schedule');
    }
  }
  syncTriggers();
}

