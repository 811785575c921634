/**
 * The one contract between the sidebar and the server: every endpoint the sidebar may call
 * through google.script.run, with its argument and answer types. The server's endpoints are
 * checked against it (src/index.ts), the sidebar's `call` accepts only these names and
 * arguments (sidebar/rpc.ts), and the tests drive endpoints through the same types, so a
 * misspelt endpoint or a wrong argument fails `tsc`. Answers are JSON-safe: times are
 * milliseconds, never Dates. Also here: `answer`, which turns an endpoint body into an Answer,
 * and `FieldError`, a refusal that names the settings field at fault (the sidebar ties the
 * message to that field).
 */
import { type ErrorCode, ServiceError } from './api/errors';
import { redact, redactAndCut } from './api/redact';
import type { RunSummary } from './import/run-state';
import type { AlertOn, FilterCondition, FilterOp, ImportMode, ImportSpec, Schedule, SortKey } from './import/spec';

export type { AlertOn, FilterCondition, FilterOp, ImportMode, RunSummary, Schedule, SortKey };

/** A failure names the settings field at fault when there is one. */
export type Answer<T extends object = object> =
  | ({ ok: true } & T)
  | { ok: false; code: string; message: string; field?: SettingField };

/** The fields of the sidebar a refusal can be about: the connection's settings, and a saved import's alert. */
export type SettingField = 'apiKey' | 'baseUrl' | 'ttlSeconds' | 'alert';

/** A refusal about one settings field: the Answer carries the field, so the sidebar can show the message there. */
export class FieldError extends ServiceError {
  constructor(
    readonly field: SettingField,
    message: string,
    code: ErrorCode = 'BAD_INPUT',
  ) {
    super(code, message);
  }
}

export interface SidebarState {
  hasKey: boolean;
  keyHint: string;
  baseUrl: string;
  ttlSeconds: number;
  /** The address the user's key is bound to; the key is sent nowhere else. */
  keyAddress: string;
  /** False when this spreadsheet's address is not the one the user's key is bound to (another editor changed it). */
  addressConfirmed: boolean;
  /** Why this spreadsheet's address cannot be used ('' when it can): then no key is asked for, nor sent, there. */
  addressProblem: string;
  /** The URL fetches counted in the current 24-hour quota window (src/api/quota.ts). */
  fetches: FetchUsage;
}

/**
 * A key just saved, and what the one request made with it showed: `accepted` by the service, or
 * `unchecked` (not sent, or the service could not be reached), with `note` saying which. A key the
 * service refused is not saved (a failed Answer about the field `apiKey`).
 */
export interface KeySaved extends SidebarState {
  check: 'accepted' | 'unchecked';
  note: string;
}

/** Only what the user changed: a missing field is left as it is. */
export interface SettingsChange {
  baseUrl?: string;
  ttlSeconds?: number;
}

export interface FetchUsage {
  used: number;
  dailyLimit: number;
  /** Where the quota guard stops: the limit minus its reserve. */
  allowed: number;
  /** When the count resets (ms; absent before the window's first fetch). */
  resetsAt?: number;
}

export interface ImportView extends ImportSpec {
  run: RunSummary;
  /** The filters and sort in words ("ticketSize ≥ 1000000 and region is Europe; sorted by firm"); '' for none. */
  shaped: string;
  /** The sheet its history is kept in; '' when it keeps none. */
  historySheet: string;
  /** Who owns the schedule: "you", their address, or "another editor"; '' when not scheduled. */
  scheduledBy: string;
  /** Whose key the schedule runs with: "your key", "their key", or why yours cannot serve; '' when not scheduled. */
  runsWith: string;
}

/** A field the filter editor offers, with the operators that fit its type. */
export interface FilterField {
  name: string;
  ops: FilterOp[];
}

/** How many active partners a filter keeps, counted on the partner snapshot. */
export interface MatchCount {
  matched: number;
  total: number;
  /** When the snapshot is a last good copy (the service failed): its time (ms). */
  staleSince?: number;
}

/**
 * What the sidebar's import form sends (checked on the server: src/import/spec.ts). Every setting
 * left out stays as saved (a new import takes the defaults); null removes an optional one.
 */
export interface ImportInput {
  id?: string | null;
  /** Needed for a new import. */
  sheetName?: string;
  fields?: string[];
  mode?: ImportMode;
  /** Conditions all kept partners meet; checked when saved, before any request. Null: none. */
  filters?: FilterCondition[] | null;
  /** Up to three keys; ties keep the service's order. Null: none. */
  sort?: SortKey[] | null;
  /** Sort by fit to a venture fund instead (best first), keeping the best `top` when given; null: none. */
  fit?: { fund: string; top?: number } | null;
  /** Keep each completed run's rows, with its time, in the sheet "<sheet> history": the last `keep` runs (1–100). Absent: as saved; null: none. */
  history?: { keep: number } | null;
  /** Email the user saving it after a run that found these changes (of these fields only, when given). Absent: as saved; null: none. Only its owner may change it. */
  alert?: { on: AlertOn[]; fields?: string[] } | null;
  /** Null (or false) stops Replace anyway on every run; absent: as saved. Only Replace anyway on a refused run turns it on. */
  replaceAnyway?: false | null;
}

export type CheckStatus = 'OK' | 'WARN' | 'FAIL' | 'SKIP' | 'INFO';

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

/** What Diagnostics found (src/entry/diagnostics.ts). */
export interface Diagnostics {
  /** NONE, LIMITED or FULL, as far as this execution could tell from what it was allowed to do. */
  authMode: string;
  checks: Check[];
  /** The plain-text report, free of secrets. */
  report: string;
}

/** The user's hourly trigger in this document (src/gas/triggers.ts), as the sidebar shows it. */
export interface TimerView {
  /** What it has to do for this user ('' when nothing: then there is none). */
  work: string;
  armed: boolean;
  /** When it last ran (ms). */
  ranAt?: number;
  /** It had stopped firing (an add-on disabled in this document) and was made anew just now. */
  rearmed: boolean;
}

/** The sidebar's state when it opens: the settings, the user's trigger, and why alerts are off for this user ('' when on). */
export interface SidebarOpened extends SidebarState {
  timer: TimerView;
  alertsOff: string;
}

export interface Endpoints {
  getSidebarState(): Answer<SidebarOpened>;
  /** Asks Google for the scopes alerts need (sending mail, the user's address): the consent prompt where not granted. */
  allowAlerts(): Answer<SidebarOpened>;
  /**
   * Saves the key. `sendTo` is the service address its owner confirmed, by name, for it in this
   * same action ("Send my key to <host>?"); null keeps the address confirmed before (none for a
   * first key). The key is checked with one request when it is bound to the spreadsheet's address.
   */
  saveApiKey(key: string, sendTo?: string | null): Answer<KeySaved>;
  /** Binds the saved key to `address`, which its owner confirmed by name; refused unless it is the spreadsheet's address now. */
  sendKeyTo(address: string): Answer<SidebarState>;
  removeApiKey(): Answer<SidebarState>;
  /** Saves what the user changed, all or nothing; binds no key to any address. */
  saveSettings(change: SettingsChange): Answer<SidebarState>;
  testConnection(): Answer<{ message: string; totalItems: number }>;
  /** count: formulas rewritten; found: formulas of the add-in (more than count when the time limit stopped it). */
  refreshFormulas(): Answer<{ count: number; found: number }>;
  listImports(): Answer<{
    imports: ImportView[];
    fields: string[];
    defaultFields: string[];
    filterFields: FilterField[];
    /** The address of the user asking ('' when the add-in may not know it): whose alerts they may change. */
    me: string;
    /** The stamp importsStamp gives for this state of the saved imports. */
    stamp: string;
  }>;
  /** A stamp of the saved imports and their runs: it changes whenever a setting, a run's state or its outcome does. */
  importsStamp(): Answer<{ stamp: string }>;
  /** Counts the partners `filters` keep, from the partner snapshot: no request when it is warm. */
  countMatches(filters: FilterCondition[]): Answer<MatchCount>;
  /** The commonest values of a field in the partner snapshot, most frequent first, for suggestions. */
  filterValues(field: string): Answer<{ values: string[] }>;
  saveImport(input: ImportInput): Answer<{ import: ImportView }>;
  deleteImport(id: string): Answer<{ deleted: string }>;
  scheduleImport(id: string, schedule: Schedule | null): Answer<{ import: ImportView }>;
  /**
   * Starts a run (or carries on the one running) with its first step, as long as its time allows.
   * `run`: an id for the run it starts, of the sidebar's choosing (8 to 64 letters, digits, - or _).
   */
  startImport(id: string, run?: string): Answer<RunSummary>;
  /** The next step of a run, as long as its time allows. */
  continueImport(id: string): Answer<RunSummary>;
  /** What the run is at: while a step runs, what it last showed (polled by the sidebar, so its bar moves within a step). */
  importStatus(id: string): Answer<RunSummary>;
  /**
   * Cancels the run: a step running it stops at its next round, then the run ends as cancelled.
   * `run`: the id startImport or replaceAnyway was given, asked to stop even before its run is saved.
   */
  cancelImport(id: string, run?: string): Answer<RunSummary>;
  /**
   * Runs the import rewriting its sheet even where it is not as the import left it; `keep`: for every later run too.
   * `run`: as for startImport.
   */
  replaceAnyway(id: string, keep: boolean, run?: string): Answer<RunSummary>;
  /** Lets the import own the table already in its sheet (typed by hand, or written before imports kept a record). */
  adoptTable(id: string): Answer<RunSummary>;
  getDiagnostics(): Answer<Diagnostics>;
}

export type EndpointName = keyof Endpoints;

/** Runs an endpoint body: its value as `{ ok: true, … }`, any failure as a short, redacted message. */
export function answer<T extends object>(body: () => T, secrets: () => readonly string[]): Answer<T> {
  try {
    return { ok: true, ...body() };
  } catch (e) {
    const known = secrets();
    if (e instanceof FieldError) return { ok: false, code: e.code, message: redact(e.message, known), field: e.field };
    if (e instanceof ServiceError) return { ok: false, code: e.code, message: redact(e.message, known) };
    const text = e instanceof Error ? e.message : String(e);
    return { ok: false, code: 'INTERNAL', message: redactAndCut(text, known, 300) };
  }
}
