/**
 * The hourly trigger of one user in one document (src/gas/triggers.ts), which runs as that user:
 * it starts the saved imports whose schedule that user owns and that are due, and carries on the
 * runs that user began and left unfinished, each with that user's key, fetch quota and mail
 * quota. Each import is on its own: one that cannot run (no usable key, the address not
 * confirmed, the spreadsheet busy) gets its failure in the run log and its status, and the others
 * run. A due slot moves on only when its run began; one that could not begin is tried again at
 * the next hourly run. Failures land in the run log and the import's status; the target sheet
 * keeps its last good data.
 */
import { ServiceError } from '../api/errors';
import { clientFor, EXECUTION_STARTED_AT } from '../gas/context';
import { recoverInterruptedRefresh } from '../gas/formulas';
import { importPorts } from '../gas/import-ports';
import { ensureDocumentCopy } from '../gas/settings';
import { loadImports, loadRun, saveImports } from '../gas/store';
import { ownsRun, ownsSchedule, tidyMine } from '../gas/mine';
import { syncTriggers, timerRan } from '../gas/triggers';
import { me } from '../gas/user';
import { beginRun, continueRun, notStarted, STEP_BUDGET_MS } from '../import/machine';
import { type ImportSpec, nextDue, type Person } from '../import/spec';

const deadline = EXECUTION_STARTED_AT + STEP_BUDGET_MS;

/** The next slot after the one due, not after now: an hourly run that fires a moment after the due time would otherwise skip every other. */
function moveSlot(importId: string, now: number): void {
  const imports = loadImports();
  const mine = imports.find((i) => i.id === importId);
  if (!mine?.schedule) return;
  let next = nextDue(mine.schedule, mine.nextDueAt ?? now);
  while (next <= now) next = nextDue(mine.schedule, next);
  mine.nextDueAt = next;
  saveImports(imports);
}

const NOT_RECORDED_REASON =
  "This import's schedule names you, but your own record of your schedules does not hold it as it stands (it was changed outside the sidebar), so it does not run with your key: save the schedule again in the sidebar.";

const BUSY_REASON =
  'Another import or refresh was writing to this spreadsheet, so this scheduled run could not begin; it is tried again at the next hourly run.';

/** Why a run could not begin or go on, with what to do; the error's own message for anything unforeseen. */
function reasonOf(e: unknown, user: Person, carryOn: boolean): string {
  const then = carryOn
    ? 'Start the import again once that is put right.'
    : 'The schedule is tried again at the next hourly run.';
  if (e instanceof ServiceError && e.code === 'NO_KEY')
    return `${user.email || 'The user who scheduled it'} has no API key saved: open Investor Data ▸ Settings and save it. ${then}`;
  return `${e instanceof Error ? e.message : String(e)} ${then}`;
}

/** One import's turn: carried on, or begun when due; a failure to begin is recorded, never thrown. */
function runOne(spec: ImportSpec, carryOn: boolean, user: Person, now: number): void {
  try {
    const ports = importPorts(clientFor('run'));
    const summary = carryOn ? continueRun(spec.id, ports, deadline) : beginRun(spec.id, 'schedule', ports, deadline);
    if (summary.busy) {
      if (!carryOn) notStarted(spec.id, 'schedule', importPorts(), BUSY_REASON);
      return;
    }
    if (!carryOn) moveSlot(spec.id, now);
  } catch (e) {
    notStarted(
      spec.id,
      carryOn ? (loadRun(spec.id)?.source ?? 'schedule') : 'schedule',
      importPorts(),
      reasonOf(e, user, carryOn),
    );
  }
}

export function runScheduledImports(): void {
  const user = me();
  const now = Date.now();
  timerRan(now);
  recoverInterruptedRefresh();
  // The hourly run keeps the document cache's copy of the settings alive for the formulas.
  ensureDocumentCopy();
  for (const spec of loadImports()) {
    const run = loadRun(spec.id);
    const running = run?.status === 'running';
    const due = !running && !!spec.schedule && (spec.nextDueAt ?? 0) <= now;
    if (running && ownsRun(run, user)) runOne(spec, true, user, now);
    else if (due && ownsSchedule(spec, user)) runOne(spec, false, user, now);
    else if (due && spec.schedule?.by.id === user.id)
      notStarted(spec.id, 'schedule', importPorts(), NOT_RECORDED_REASON);
  }
  const imports = loadImports();
  tidyMine(imports, new Map(imports.map((i) => [i.id, loadRun(i.id)])), user);
  syncTriggers(user);
}
