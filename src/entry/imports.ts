/**
 * Sidebar endpoints for imports: saved imports (list, save, delete, schedule) and runs (start,
 * continue, status, cancel). The sidebar drives a run step by step (each step a short
 * execution), which is what moves its progress bar; the continuation trigger finishes a run the
 * sidebar abandoned. Thin: checks in src/import/spec.ts, runs in src/import/machine.ts, Apps
 * Script in src/gas.
 */
import { badInput } from '../api/errors';
import { LP_FIELDS } from '../api/records';
import { type Answer, answer, type ImportView, type RunSummary } from '../contract';
import { clientFor, EXECUTION_STARTED_AT } from '../gas/context';
import { importPorts } from '../gas/import-ports';
import { knownSecrets } from '../gas/settings';
import { deleteRun, loadImports, loadRun, saveImports } from '../gas/store';
import { syncTriggers } from '../gas/triggers';
import { beginRun, cancelRun, continueRun, STEP_BUDGET_MS } from '../import/machine';
import { summarize } from '../import/run-state';
import { checkSchedule, checkSpec, DEFAULT_IMPORT_FIELDS, type ImportSpec, nextDue } from '../import/spec';

const view = (spec: ImportSpec): ImportView => ({ ...spec, run: summarize(spec.id, loadRun(spec.id)) });
const deadline = EXECUTION_STARTED_AT + STEP_BUDGET_MS.sidebar;
/**
 * The first step of a sidebar run is short: it ends after the list's first page or first batch, so
 * the progress bar moves within seconds even on a slow service (at 3 s a request, a full step
 * would show nothing for 18 s); the steps after it take the whole budget.
 */
export const FIRST_STEP_MS = 6000;
const firstDeadline = Math.min(deadline, EXECUTION_STARTED_AT + FIRST_STEP_MS);

function find(id: unknown): ImportSpec {
  const spec = loadImports().find((i) => i.id === id);
  if (!spec) throw badInput('That saved import no longer exists; reload the sidebar.');
  return spec;
}

export function listImports(): Answer<{ imports: ImportView[]; fields: string[]; defaultFields: string[] }> {
  return answer(() => ({ imports: loadImports().map(view), fields: [...LP_FIELDS], defaultFields: [...DEFAULT_IMPORT_FIELDS] }), knownSecrets);
}

export function saveImport(input: unknown): Answer<{ import: ImportView }> {
  return answer(() => {
    const imports = loadImports();
    const spec = checkSpec(input, imports, () => `imp${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`);
    // A run stages its rows in the shape of the settings it started with: they change between runs only.
    if (loadRun(spec.id)?.status === 'running') throw badInput('This import is running; wait for it to finish, or cancel it, before changing it.');
    const at = imports.findIndex((i) => i.id === spec.id);
    if (at >= 0) imports[at] = spec;
    else imports.push(spec);
    saveImports(imports);
    return { import: view(spec) };
  }, knownSecrets);
}

export function deleteImport(id: unknown): Answer<{ deleted: string }> {
  return answer(() => {
    const spec = find(id);
    if (loadRun(spec.id)?.status === 'running') cancelRun(spec.id, importPorts());
    saveImports(loadImports().filter((i) => i.id !== spec.id));
    deleteRun(spec.id);
    syncTriggers();
    return { deleted: spec.id };
  }, knownSecrets);
}

export function scheduleImport(id: unknown, schedule: unknown): Answer<{ import: ImportView }> {
  return answer(() => {
    const imports = loadImports();
    const spec = imports.find((i) => i.id === find(id).id) as ImportSpec;
    spec.schedule = checkSchedule(schedule);
    spec.nextDueAt = spec.schedule ? nextDue(spec.schedule, Date.now()) : undefined;
    saveImports(imports);
    syncTriggers();
    return { import: view(spec) };
  }, knownSecrets);
}

function runStep(body: () => RunSummary): Answer<RunSummary> {
  return answer(() => {
    const summary = body();
    syncTriggers();
    return summary;
  }, knownSecrets);
}

export function startImport(id: unknown): Answer<RunSummary> {
  return runStep(() => {
    const spec = find(id);
    return beginRun(spec.id, 'sidebar', importPorts(clientFor('run')), firstDeadline);
  });
}

export function continueImport(id: unknown): Answer<RunSummary> {
  return runStep(() => {
    const spec = find(id);
    return continueRun(spec.id, importPorts(clientFor('run')), deadline);
  });
}

export function importStatus(id: unknown): Answer<RunSummary> {
  return answer(() => summarize(find(id).id, loadRun(find(id).id)), knownSecrets);
}

export function cancelImport(id: unknown): Answer<RunSummary> {
  return runStep(() => cancelRun(find(id).id, importPorts()));
}
