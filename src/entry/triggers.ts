/**
 * Trigger handlers for imports: the hourly dispatcher starts every saved import whose schedule
 * is due (and carries on any run left unfinished); the continuation trigger carries on runs that
 * stopped at the time limit. Failures land in the run log and the import's last status; the
 * target sheet keeps its last good data.
 */
import { clientFor, EXECUTION_STARTED_AT } from '../gas/context';
import { recoverInterruptedRefresh } from '../gas/formulas';
import { importPorts } from '../gas/import-ports';
import { ensureDocumentCopy } from '../gas/settings';
import { loadImports, loadRun, saveImports } from '../gas/store';
import { clearContinuation, clearRefreshRepair, syncTriggers } from '../gas/triggers';
import { beginRun, continueRun, STEP_BUDGET_MS } from '../import/machine';
import { nextDue } from '../import/spec';

interface TriggerEvent {
  triggerUid?: string;
}

const deadline = EXECUTION_STARTED_AT + STEP_BUDGET_MS.schedule;

export function continueImports(e?: TriggerEvent): void {
  if (e?.triggerUid) clearContinuation(e.triggerUid);
  recoverInterruptedRefresh();
  for (const spec of loadImports())
    if (loadRun(spec.id)?.status === 'running') continueRun(spec.id, importPorts(clientFor('run')), deadline);
  syncTriggers();
}

export function runScheduledImports(): void {
  recoverInterruptedRefresh();
  // The hourly run keeps the document cache's copy of the settings alive for the formulas.
  ensureDocumentCopy();
  const now = Date.now();
  for (const spec of loadImports()) {
    const run = loadRun(spec.id);
    if (run?.status === 'running') continueRun(spec.id, importPorts(clientFor('run')), deadline);
    else if (spec.schedule && (spec.nextDueAt ?? 0) <= now) {
      const imports = loadImports();
      const mine = imports.find((i) => i.id === spec.id);
      if (mine?.schedule) {
        // The next slot after the one due, not after now: an hourly dispatcher that fires a moment
        // after the due time would otherwise find the next one not yet due and skip every other.
        let next = nextDue(mine.schedule, mine.nextDueAt ?? now);
        while (next <= now) next = nextDue(mine.schedule, next);
        mine.nextDueAt = next;
        saveImports(imports);
      }
      beginRun(spec.id, 'schedule', importPorts(clientFor('run')), deadline);
    }
  }
  syncTriggers();
}

/** The one-off repair armed by "Refresh all formulas": puts back what a killed refresh erased, then disarms itself. */
export function repairInterruptedRefresh(e?: TriggerEvent): void {
  clearRefreshRepair(e?.triggerUid);
  recoverInterruptedRefresh();
}
