/**
 * The emulator's runtime: loads the deployed bundle (dist/Code.js) unchanged into a fresh vm
 * context for every execution, as Apps Script runs top-level code on every call, with the
 * emulated services bound to that execution, and keeps what outlives an execution (workbook,
 * properties, caches, triggers, locks, fetch quota, the simulated clock) between them.
 *
 * An Emulator is one document. What belongs to the script project rather than the document
 * (triggers, script and user properties, each user's scope grants) is its ScriptProject
 * (project.ts): its own, or one shared with other Emulators, which are then other documents of
 * the same Editor add-on (`new ScriptProject({ addOn: true })`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { AUTH_MODE, AUTH_MODE_NAMES, type AuthModeName } from './auth';
import { CacheStore, EmulatedCacheService } from './cache';
import { type ConcurrentJob, type FormulaCell, runWave, type WaveHost, type WaveOptions } from './concurrent';
import { type ClockModel, defaultAuthMode, errorMessage, Execution, type Ledger, SimClock } from './execution';
import { compileMs, evaluateMs, ScriptCompiler } from './compile';
import { guard } from './guard';
import { EmulatedHtmlService } from './html';
import { EmulatedLockService, type LockState } from './lock';
import { EmulatedMailApp, type MailState, newMailState } from './mail';
import { isProjectScope, newDocumentId, ScriptProject } from './project';
import { EmulatedPropertiesService } from './properties';
import { createRealm, isDate } from './realm';
import { EmulatedScriptApp, type TriggerState } from './script-app';
import { EmulatedSpreadsheetApp } from './spreadsheet-app';
import { DAILY_FETCH_QUOTA, EmulatedUrlFetchApp, type FetchQuota, MAX_RESPONSE_BYTES } from './url-fetch';
import { EmulatedSession, EmulatedUtilities, loggers } from './utilities';
import type { ExecutionSite, PreparedExecution, RunOptions, RunResult } from './run-types';
import { Workbook } from './workbook';

export { ScriptProject, type ScriptProjectOptions } from './project';

export interface EmulatorOptions {
  distDir?: string;
  /** Script source to run instead of distDir/Code.js (for probes of the emulator itself). */
  code?: string;
  maxResponseBytes?: number;
  /** Fetch from hosts other than this machine (the workbench pointed at another service). Off by default: tests reach 127.0.0.1 only. */
  allowRemoteHosts?: boolean;
  owner?: string;
  timeZone?: string;
  /** An Editor add-on's rules (script-app.ts) for the project this Emulator makes; ignored with `project`. */
  addOn?: boolean;
  /**
   * The script project this document belongs to (project.ts): its triggers, script and user
   * properties and scope grants are shared with every Emulator given the same project. Default: a
   * project of its own (an add-on when `addOn`).
   */
  project?: ScriptProject;
  /** This document's id (a spreadsheet's getId(), a trigger's document). Default: a new unique id. */
  documentId?: string;
  /**
   * Scopes each user (by email) has granted of the manifest's; a user not named has granted them
   * all. Recorded in the project, as Emulator.grantScopes does.
   */
  userScopes?: Record<string, readonly string[]>;
  startTime?: number;
  fetchTimeoutMs?: number;
  /**
   * Charge every execution a load-independent time instead of the wall time that passed: the CPU
   * time of the bundle's own work, and each fetch at this model's cost (execution.ts, ClockModel;
   * url-fetch.ts, modelledFetchMs). For figures that must repeat on a busy machine (benchmarks).
   * Default: wall time, real requests charged what they took.
   */
  modelledClock?: ClockModel;
  /**
   * Told the URLs of every fetch and fetchAll batch as it is sent, with the execution's ledger:
   * benchmarks replay an execution's requests with no add-in code (its floor).
   */
  onFetch?: (ledger: Ledger, urls: string[]) => void;
  fetchQuota?: number;
  /** Mail recipients a day per user (default 100, a consumer account's). */
  mailQuota?: number;
  workbook?: Workbook;
  /**
   * The OAuth scopes the project is granted. Default: the manifest's `oauthScopes` (distDir/
   * appsscript.json), so a call the manifest does not cover fails as it would in Google; none
   * (nothing refused for a scope) when the script comes from `code` and no scopes are given.
   */
  oauthScopes?: readonly string[] | null;
  /** The manifest's urlFetchWhitelist (default: distDir/appsscript.json's; none when the script comes from `code`). */
  urlFetchWhitelist?: readonly string[] | null;
}

const DEFAULT_DIST = join(__dirname, '../../dist');

/**
 * Services Google refuses to custom functions, which never ask for authorisation: those that reach
 * a user's data. The custom-functions guide's list of services they may call names Cache, HTML
 * ("can generate HTML, but cannot display it"), JDBC, Language, Lock, Maps, Properties,
 * Spreadsheet (read only), URL Fetch, Utilities and XML: HtmlService's files can be read (the
 * bundle reads its deferred parts so), and nothing can be shown, since showing goes through
 * SpreadsheetApp.getUi(), which a custom function cannot call.
 */
const DENIED_IN_CUSTOM_FUNCTIONS = new Set(['ScriptApp', 'MailApp']);

function isAuthModeName(v: unknown): v is AuthModeName {
  return typeof v === 'string' && (AUTH_MODE_NAMES as readonly string[]).includes(v);
}

/** Event objects (`{ authMode: 'LIMITED', … }`) as the bundle sees them: authMode is the execution's mode, as ScriptApp.AuthMode's enum value. */
function withAuthModeEnum(args: unknown[], mode: AuthModeName): unknown[] {
  return args.map((a) => {
    if (!a || typeof a !== 'object' || !('authMode' in a)) return a;
    const event = a as Record<string, unknown>;
    event.authMode = AUTH_MODE[mode];
    return event;
  });
}

/** Every function member of a service asks the execution for permission before it runs. */
function authorized<T extends object>(impl: T, service: string, exec: Execution): T {
  return new Proxy(impl, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => {
        exec.authorize(service, prop);
        return (value as (...a: unknown[]) => unknown).apply(obj, args);
      };
    },
  });
}

/** A list field of the deployed manifest (distDir/appsscript.json), or null. */
function manifestList(distDir: string, field: 'oauthScopes' | 'urlFetchWhitelist'): string[] | null {
  const file = join(distDir, 'appsscript.json');
  if (!existsSync(file)) return null;
  const value = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[field];
  return Array.isArray(value) ? value.map(String) : null;
}

/** Plain host values from the bundle's realm: dates re-made, arrays and objects copied. */
export function exportValue(v: unknown): unknown {
  if (isDate(v)) return new Date((v as Date).getTime());
  if (Array.isArray(v)) return v.map(exportValue);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, exportValue(x)]));
  return v;
}

export class Emulator implements WaveHost {
  readonly clock: SimClock;
  readonly workbook: Workbook;
  readonly owner: string;
  readonly caches = new Map<string, CacheStore>();
  /**
   * Property stores by scope. With a project of its own this map is also the project's stores
   * (script and user ones too); with a shared project it holds this document's own stores and
   * the project's stores this Emulator has reached through store().
   */
  readonly properties: Map<string, Map<string, string>>;
  readonly project: ScriptProject;
  readonly documentId: string;
  /** The project's triggers (every document's). */
  readonly triggers: TriggerState;
  readonly locks: LockState = { heldUntil: new Map() };
  readonly quota: FetchQuota;
  /** Mail sent by every execution, and each user's daily recipient count (mail.ts). */
  readonly mail: MailState;
  readonly history: Ledger[] = [];
  private readonly script: vm.Script;
  private readonly scriptSource: string;
  private readonly distDir: string;
  private readonly manifestScopes: ReadonlySet<string> | null;
  private readonly fetchAllowlist: readonly string[] | null;
  private addOnEnabled = true;

  constructor(readonly options: EmulatorOptions = {}) {
    this.distDir = options.distDir ?? DEFAULT_DIST;
    this.scriptSource = options.code ?? readFileSync(join(this.distDir, 'Code.js'), 'utf8');
    this.script = new vm.Script(this.scriptSource, { filename: 'Code.js' });
    this.clock = new SimClock(options.startTime ?? Date.UTC(2026, 10, 23, 9, 0, 0));
    this.workbook = options.workbook ?? new Workbook();
    this.owner = options.owner ?? 'owner@example.com';
    this.documentId = options.documentId ?? newDocumentId();
    if (options.project) {
      this.project = options.project;
      this.properties = new Map();
      for (const [user, scopes] of Object.entries(options.userScopes ?? {})) this.project.grantScopes(user, scopes);
    } else {
      this.project = new ScriptProject({ addOn: options.addOn, userScopes: options.userScopes });
      this.properties = this.project.stores;
    }
    this.triggers = this.project.triggers;
    this.quota = { windowStart: 0, used: 0, limit: options.fetchQuota ?? DAILY_FETCH_QUOTA };
    this.mail = newMailState(options.mailQuota);
    const fromManifest = (field: 'oauthScopes' | 'urlFetchWhitelist') =>
      options.code === undefined ? manifestList(this.distDir, field) : null;
    const scopes = options.oauthScopes !== undefined ? options.oauthScopes : fromManifest('oauthScopes');
    this.manifestScopes = scopes ? new Set(scopes) : null;
    this.fetchAllowlist =
      options.urlFetchWhitelist !== undefined ? options.urlFetchWhitelist : fromManifest('urlFetchWhitelist');
  }

  /**
   * A property store, for tests and the workbench to read or seed ("script", "document",
   * "user:EMAIL"); script and user stores are the project's, shared by its documents.
   */
  store(scope: string): Map<string, string> {
    if (isProjectScope(scope)) {
      const shared = this.project.store(scope);
      this.properties.set(scope, shared);
      return shared;
    }
    let s = this.properties.get(scope);
    if (!s) this.properties.set(scope, (s = new Map()));
    return s;
  }

  /**
   * Records what `user` has granted of the manifest's scopes: these only, or (null) all of them,
   * in every document of the project (granular consent, project.ts).
   */
  grantScopes(user: string, scopes: readonly string[] | null): void {
    this.project.grantScopes(user, scopes);
  }

  /**
   * Enables or disables the add-on in this document (default enabled). While disabled, the
   * document's installable triggers stay but do not fire ("installable triggers created by an
   * add-on stop firing if the add-on is disabled in that document",
   * https://developers.google.com/workspace/add-ons/concepts/editor-triggers): advance() passes
   * them by, each recurring one moving on to its next slot, and a one-off whose time passes is
   * gone as if it had fired. Enabled again, they fire from their next slot.
   */
  setAddOnEnabled(enabled: boolean): void {
    this.addOnEnabled = enabled;
  }

  cache(scope: string): CacheStore {
    let c = this.caches.get(scope);
    if (!c) this.caches.set(scope, (c = new CacheStore()));
    return c;
  }

  /** Runs one global of the bundle as one execution. */
  run<T = unknown>(name: string, args: unknown[] = [], options: RunOptions = {}): RunResult<T> {
    let compiler: ScriptCompiler | undefined;
    const realm = createRealm(
      () => this.clock.now(),
      (text, compile) => {
        const value = compiler ? prepared.exec.uncharged(compile) : compile();
        compiler?.charge(text);
        return value;
      },
    );
    const prepared = this.prepare(name, args, options, {
      clock: this.clock,
      makeError: realm.error,
      makeDate: realm.date,
    });
    Object.assign(realm.context, prepared.globals);
    compiler = new ScriptCompiler(prepared.exec);
    let result: RunResult<T>;
    try {
      // Only a function the script defined runs: the global's own built-ins (eval, parseInt) are none of its functions.
      const builtIn = realm.context[name];
      const exec = prepared.exec;
      exec.compiled(exec.uncharged(() => compileMs(this.scriptSource)));
      // Under a clock model the top level is charged the code a fresh load of it runs (compile.ts, evaluateMs), not the run of a script compiled before.
      if (exec.fetchModel) {
        exec.evaluated(exec.uncharged(() => evaluateMs(this.scriptSource)));
        exec.uncharged(() => this.script.runInContext(realm.context));
      } else this.script.runInContext(realm.context);
      const fn = realm.context[name];
      if (typeof fn !== 'function' || fn === builtIn) throw new Error(`Script function not found: ${name}`);
      const value = fn(...prepared.args(realm.import(args)));
      result = { value: exportValue(value) as T, ledger: prepared.exec.ledger };
    } catch (e) {
      result = { error: errorMessage(e), ledger: prepared.exec.ledger };
    }
    return this.settle(prepared, result);
  }

  /**
   * Runs jobs as concurrent executions (concurrent.ts), at most `concurrency` at once (default
   * DEFAULT_CONCURRENCY), each in its own worker thread and on its own simulated clock from the
   * moment it starts; results in job order. The clock ends at the latest end.
   */
  runConcurrently(jobs: ConcurrentJob[], options: WaveOptions = {}): Promise<RunResult[]> {
    return runWave(this, jobs, options);
  }

  /** Recalculates formula cells concurrently: each a custom-function execution that sees its cell (activeCell). */
  recalculate(cells: FormulaCell[], options: WaveOptions = {}): Promise<RunResult[]> {
    return this.runConcurrently(
      cells.map((c) => ({
        name: c.name,
        args: c.args,
        options: { kind: 'custom-function', activeCell: { sheet: c.sheet, row: c.row, col: c.col } },
      })),
      options,
    );
  }

  /** The script source every execution runs (concurrent.ts sends it to its workers). */
  get source(): string {
    return this.scriptSource;
  }

  /** One execution before its code runs: its Execution on the site's clock, the globals the bundle sees (services bound to it), its locks. */
  prepare(name: string, args: unknown[], options: RunOptions, site: ExecutionSite): PreparedExecution {
    const { clock, makeError, makeDate } = site;
    const kind = options.kind ?? 'editor';
    const user = options.user ?? this.owner;
    const event = args.find((a): a is { authMode: unknown } => !!a && typeof a === 'object' && 'authMode' in a);
    const mode: AuthModeName =
      kind === 'custom-function'
        ? 'CUSTOM_FUNCTION'
        : (options.authMode ?? (isAuthModeName(event?.authMode) ? event.authMode : defaultAuthMode(kind)));
    const exec = new Execution(clock, kind, name, user, this.owner, makeError, options.killAfterMs, mode);
    exec.manifestScopes = this.manifestScopes;
    exec.grantedScopes = this.project.grantedScopes(user, this.manifestScopes);
    exec.documentId = this.documentId;
    exec.makeDate = makeDate;
    exec.activeCell = options.activeCell;
    if (this.options.modelledClock) exec.useModelledClock(this.options.modelledClock);
    const locks = new EmulatedLockService(exec, this.locks);
    const log = loggers(exec);
    const services: Record<string, object> = {
      UrlFetchApp: new EmulatedUrlFetchApp(
        exec,
        this.quota,
        this.options.fetchTimeoutMs ?? 60000,
        this.options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
        !this.options.allowRemoteHosts,
        this.fetchAllowlist,
        this.options.onFetch,
      ),
      CacheService: new EmulatedCacheService(exec, (scope) => this.cache(scope)),
      PropertiesService: new EmulatedPropertiesService(exec, (scope) => this.store(scope)),
      SpreadsheetApp: new EmulatedSpreadsheetApp(this.workbook, exec),
      ScriptApp: new EmulatedScriptApp(exec, this.triggers),
      MailApp: new EmulatedMailApp(exec, this.mail),
      LockService: locks,
      Utilities: new EmulatedUtilities(exec),
      Session: new EmulatedSession(exec, this.options.timeZone ?? 'Etc/UTC'),
      HtmlService: new EmulatedHtmlService(exec, this.distDir),
      Logger: log.Logger,
    };
    const globals: Record<string, object> = { console: log.console };
    for (const [service, impl] of Object.entries(services)) {
      globals[service] =
        kind === 'custom-function' && DENIED_IN_CUSTOM_FUNCTIONS.has(service)
          ? new Proxy({}, { get: (_, prop) => exec.deny(`${service}.${String(prop)}`) })
          : authorized(guard(impl, service), service, exec);
    }
    return { exec, globals, locks, mode, args: (a) => withAuthModeEnum(a, mode) };
  }

  /** Ends an execution: its locks released, its ledger closed and kept in history; past its limit the result is Google's timeout. */
  settle<T>(prepared: PreparedExecution, result: RunResult<T>): RunResult<T> {
    const { exec, locks } = prepared;
    locks.releaseAll();
    exec.finish();
    if (exec.ledger.timedOut) result = { error: 'Exceeded maximum execution time', ledger: exec.ledger };
    this.history.push(exec.ledger);
    return result;
  }

  /**
   * Advances the simulated clock, firing every time-driven trigger of this document that falls
   * due on the way (other documents of the project have clocks of their own); while the add-on is
   * disabled here (setAddOnEnabled) they fall due without running.
   */
  advance(ms: number): RunResult[] {
    const target = this.clock.now() + ms;
    const runs: RunResult[] = [];
    for (;;) {
      const due = this.triggers.triggers
        .filter((t) => t.documentId === this.documentId && t.nextRunAt <= target)
        .sort((a, b) => a.nextRunAt - b.nextRunAt)[0];
      if (!due) break;
      if (due.nextRunAt > this.clock.now()) this.clock.nowMs = due.nextRunAt;
      if (due.oneOff) this.triggers.triggers = this.triggers.triggers.filter((t) => t !== due);
      else due.nextRunAt += due.periodMs as number;
      if (!this.addOnEnabled) continue;
      runs.push(this.run(due.handler, [{ triggerUid: due.id, authMode: 'FULL' }], { kind: 'trigger', user: due.user }));
    }
    if (this.clock.now() < target) this.clock.nowMs = target;
    return runs;
  }

  /** Models another execution holding a lock ("script", "document" or "user:EMAIL") for `ms`. */
  holdLock(scope: string, ms: number): void {
    this.locks.heldUntil.set(scope, this.clock.now() + ms);
  }
}
