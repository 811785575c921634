/**
 * Sidebar endpoints for imports: saved imports (list, save, delete, schedule) and runs (start,
 * continue, status, cancel). The sidebar drives a run step by step, each step as long as
 * STEP_BUDGET_MS allows (most imports are one step), and moves its progress bar by polling the
 * status while a step runs; Cancel reaches a running step through its live record (live.ts). The
 * continuation trigger finishes a run the sidebar abandoned. Two explicit choices override the import's ownership rule: Replace anyway
 * (for one run, or kept for the import) and letting the import own a table it did not write.
 * Thin: checks in src/import/spec.ts, runs in src/import/machine.ts, Apps Script in src/gas.
 */
import { badInput, ServiceError } from '../api/errors';
import { fnv1a, timeId } from '../api/hash';
import { LP_FIELD_SPECS, LP_FIELDS } from '../api/records';
import {
  type Answer,
  answer,
  FieldError,
  type FilterField,
  type ImportView,
  type MatchCount,
  type RunSummary,
} from '../contract';
import { activePartners, clientFor, EXECUTION_STARTED_AT } from '../gas/context';
import { importPorts } from '../gas/import-ports';
import { releaseHistory } from '../gas/history';
import { ownsSchedule, recordSchedule } from '../gas/mine';
import { featureOff } from '../gas/scopes';
import { findSheet, releaseSheet } from '../gas/sheets';
import { knownSecrets, readSettings } from '../gas/settings';
import { deleteRun, loadImports, loadRun, saveImports } from '../gas/store';
import { syncTriggers } from '../gas/triggers';
import { me } from '../gas/user';
import {
  adoptTable as adopt,
  beginRun,
  cancelRun,
  continueRun,
  notStarted,
  runStatus,
  STEP_BUDGET_MS,
} from '../import/machine';
import { summarize } from '../import/run-state';
import {
  checkCoverage,
  checkSchedule,
  checkSpec,
  DEFAULT_IMPORT_FIELDS,
  type ImportSpec,
  nextDue,
  type Person,
} from '../import/spec';
import { checkFilters, commonValues, compileQuery, describeQuery, opsFor } from '../table/filter';
import { FIT_FIELDS } from '../table/match';

const view = (spec: ImportSpec, user: Person, keyReady = usableKey()): ImportView => ({
  ...spec,
  run: summarize(spec.id, loadRun(spec.id)),
  shaped: [
    describeQuery({ filters: spec.filters ?? [], sort: spec.sort ?? [] }),
    spec.fit ? `sorted by fit to fund ${spec.fit.fund}${spec.fit.top ? `, the best ${spec.fit.top}` : ''}` : '',
  ]
    .filter(Boolean)
    .join('; '),
  historySheet: spec.history?.sheet ?? '',
  scheduledBy: !spec.schedule
    ? ''
    : ownsSchedule(spec, user)
      ? 'you'
      : spec.schedule.by.id === user.id
        ? 'no one (changed outside the sidebar: save the schedule again)'
        : spec.schedule.by.email || 'another editor',
  runsWith: !spec.schedule
    ? ''
    : !ownsSchedule(spec, user)
      ? 'their key'
      : keyReady
        ? 'your key'
        : 'your key, which is not saved for this address: it cannot run until you save it (Settings)',
});

/** Whether the user has a key bound to this spreadsheet's service address: what a schedule of theirs runs with. */
function usableKey(): boolean {
  const s = readSettings();
  return !!s.apiKey && !!s.baseUrl && s.keyAddress === s.baseUrl;
}
/** The fields a filter can name, with their operators (a field no operator fits is left out). */
const FILTER_FIELDS: FilterField[] = LP_FIELD_SPECS.map((f) => ({ name: f.name, ops: [...opsFor(f.name)] })).filter(
  (f) => f.ops.length > 0,
);
const deadline = EXECUTION_STARTED_AT + STEP_BUDGET_MS;

function find(id: unknown): ImportSpec {
  const spec = loadImports().find((i) => i.id === id);
  if (!spec) throw badInput('That saved import no longer exists; reload the sidebar.');
  return spec;
}

/** The id the sidebar gives a run it starts (a random name of its own, src/import/machine.ts Start): letters, digits, - and _. */
const RUN_NAME = /^[A-Za-z0-9_-]{8,64}$/;

function runName(name: unknown): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== 'string' || !RUN_NAME.test(name))
    throw badInput('The sidebar named the run in a way the add-in does not take; reload the sidebar.');
  return name;
}

export function listImports(): Answer<{
  imports: ImportView[];
  fields: string[];
  defaultFields: string[];
  filterFields: FilterField[];
  me: string;
  stamp: string;
}> {
  return answer(() => {
    const user = me();
    const imports = loadImports();
    const keyReady = usableKey();
    return {
      imports: imports.map((spec) => view(spec, user, keyReady)),
      fields: [...LP_FIELDS, ...FIT_FIELDS],
      defaultFields: [...DEFAULT_IMPORT_FIELDS],
      filterFields: FILTER_FIELDS,
      me: user.email,
      stamp: stampOf(imports),
    };
  }, knownSecrets);
}

/** A stamp of the saved imports as stored and of each one's run by state and time. */
function stampOf(imports: readonly ImportSpec[]): string {
  const state = imports.map((spec) => {
    const run = loadRun(spec.id);
    return [spec, run?.status ?? '', run?.updatedAt ?? 0];
  });
  return fnv1a(JSON.stringify(state)).toString(36);
}

/**
 * What an open sidebar polls to see what it did not do itself (a scheduled run, another editor's
 * save): the stamp listImports also gives. Cheap: properties only.
 */
export function importsStamp(): Answer<{ stamp: string }> {
  return answer(() => ({ stamp: stampOf(loadImports()) }), knownSecrets);
}

/** The filter editor's live count: checked like a saved import's filters, counted on the partner snapshot. */
export function countMatches(filters: unknown): Answer<MatchCount> {
  return answer(() => {
    const checked = checkFilters(filters);
    const query = compileQuery({ filters: checked, sort: [] });
    // The records need only the fields the filters read.
    const list = activePartners(checked.map((c) => c.field));
    let matched = 0;
    for (const r of list.records) if (query.matches(r)) matched++;
    return {
      matched,
      total: list.records.length,
      ...(list.staleSince !== undefined ? { staleSince: list.staleSince } : {}),
    };
  }, knownSecrets);
}

/** Suggested values for a filter on `field`, from the partner snapshot. */
export function filterValues(field: unknown): Answer<{ values: string[] }> {
  return answer(() => {
    const known = FILTER_FIELDS.find((f) => f.name === field);
    if (!known) throw badInput(`Unknown field "${String(field).slice(0, 40)}"; see LP_FIELDS() for the field names.`);
    return { values: commonValues(activePartners([known.name]).records, known.name) };
  }, knownSecrets);
}

export function saveImport(input: unknown): Answer<{ import: ImportView }> {
  return answer(() => {
    const imports = loadImports();
    const user = me();
    const newId = () => timeId(Date.now(), Math.random, 'imp');
    // A refusal about the alert is shown at the alert's controls: everything else is checked first, without it.
    checkSpec(input && typeof input === 'object' ? { ...input, alert: undefined } : input, imports, newId, user);
    const spec = aboutAlert(() => checkSpec(input, imports, newId, user));
    // A run stages its rows in the shape of the settings it started with: they change between runs only.
    if (loadRun(spec.id)?.status === 'running')
      throw badInput('This import is running; wait for it to finish, or cancel it, before changing it.');
    const at = imports.findIndex((i) => i.id === spec.id);
    // A new or changed alert needs the scopes to send it; a user who declined them keeps every other setting.
    const off = spec.alert && spec.alert !== imports[at]?.alert ? featureOff('alerts') : '';
    if (off) throw new FieldError('alert', off);
    // An alert switched off leaves no record of the ids it listed.
    if (at >= 0 && imports[at].alert && !spec.alert) importPorts().listed?.remove(spec.id);
    if (at >= 0) imports[at] = spec;
    else imports.push(spec);
    saveImports(imports);
    return { import: view(spec, user) };
  }, knownSecrets);
}

/** Runs `check`; what it refuses is about the alert. */
function aboutAlert<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    throw e instanceof ServiceError ? new FieldError('alert', e.message, e.code) : e;
  }
}

export function deleteImport(id: unknown): Answer<{ deleted: string }> {
  return answer(() => {
    const spec = find(id);
    const user = me();
    // Deleting the import removes its alert too: only the alert's owner may, as only they may remove the alert.
    if (spec.alert && spec.alert.owner.toLowerCase() !== user.email.toLowerCase())
      throw badInput(`Only ${spec.alert.owner}, who saved this import's alert, can delete the import.`);
    if (loadRun(spec.id)?.status === 'running') cancelRun(spec.id, importPorts());
    saveImports(loadImports().filter((i) => i.id !== spec.id));
    recordSchedule({ id: spec.id, schedule: undefined });
    deleteRun(spec.id);
    importPorts().listed?.remove(spec.id);
    if (spec.history) releaseHistory(spec.history.sheet);
    const sheet = findSheet(spec.sheetName);
    if (sheet) releaseSheet(sheet);
    syncTriggers(user);
    return { deleted: spec.id };
  }, knownSecrets);
}

/**
 * The schedule saved by the user who saves it, who owns it from then on: their hourly trigger
 * runs it with their key. Refused when they have no key bound to this spreadsheet's address, and
 * when it would change what another user's alert watches.
 */
export function scheduleImport(id: unknown, schedule: unknown): Answer<{ import: ImportView }> {
  return answer(() => {
    const imports = loadImports();
    const spec = imports.find((i) => i.id === find(id).id) as ImportSpec;
    const user = me();
    const chosen = checkSchedule(schedule);
    const next = chosen ? { ...chosen, by: user } : undefined;
    checkCoverage(spec, { ...spec, schedule: next }, user);
    if (next) {
      const s = readSettings();
      if (!s.apiKey)
        throw badInput(
          'A schedule runs with the API key of whoever saves it, and you have none: save your key first (Settings), then the schedule.',
        );
      if (!s.baseUrl || s.keyAddress !== s.baseUrl)
        throw badInput(
          "A schedule runs with your API key, which is not bound to this spreadsheet's service address: confirm the address for your key (Settings), then save the schedule.",
        );
    }
    spec.schedule = next;
    spec.nextDueAt = next ? nextDue(next, Date.now()) : undefined;
    saveImports(imports);
    recordSchedule(spec);
    syncTriggers(user);
    return { import: view(spec, user) };
  }, knownSecrets);
}

function runStep(body: () => RunSummary): Answer<RunSummary> {
  return answer(() => {
    const summary = body();
    syncTriggers(me());
    return summary;
  }, knownSecrets);
}

/**
 * A step of a run the sidebar drives. One that cannot run at all (no key, the address not
 * confirmed for it) is a failed run like any other: its row in the run log and the import's
 * status say why and what to do, and the sheet keeps its data.
 */
function driven(
  id: unknown,
  run: unknown,
  body: (spec: ImportSpec, runId: string | undefined) => RunSummary,
): Answer<RunSummary> {
  return runStep(() => {
    const spec = find(id);
    const runId = runName(run);
    try {
      return body(spec, runId);
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      return notStarted(spec.id, loadRun(spec.id)?.source ?? 'sidebar', importPorts(), e.message);
    }
  });
}

/** Starts a run of import `id` (or carries on the one running); `run`: the id the sidebar gives the run it starts. */
export function startImport(id: unknown, run?: unknown): Answer<RunSummary> {
  return driven(id, run, (spec, runId) =>
    beginRun(spec.id, 'sidebar', importPorts(clientFor('run')), deadline, { runId }),
  );
}

export function continueImport(id: unknown): Answer<RunSummary> {
  return driven(id, undefined, (spec) => continueRun(spec.id, importPorts(clientFor('run')), deadline));
}

/** What the sidebar polls while a step of the run is in flight: the step's live progress, else the run as saved. */
export function importStatus(id: unknown): Answer<RunSummary> {
  return answer(() => runStatus(find(id).id, importPorts()), knownSecrets);
}

/** Cancels import `id`'s running run; `run`: the id the sidebar gave the run it started, which may not be saved yet. */
export function cancelImport(id: unknown, run?: unknown): Answer<RunSummary> {
  return runStep(() => cancelRun(find(id).id, importPorts(), runName(run)));
}

export function replaceAnyway(id: unknown, keep: unknown, run?: unknown): Answer<RunSummary> {
  return driven(id, run, (spec, runId) => {
    if (keep === true) {
      const imports = loadImports();
      (imports.find((i) => i.id === spec.id) as ImportSpec).replaceAnyway = true;
      saveImports(imports);
    }
    return beginRun(spec.id, 'sidebar', importPorts(clientFor('run')), deadline, { force: true, runId });
  });
}

export function adoptTable(id: unknown): Answer<RunSummary> {
  return runStep(() => adopt(find(id).id, importPorts()));
}
