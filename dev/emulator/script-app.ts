/**
 * ScriptApp's time-driven triggers on the simulated clock: everyMinutes (1, 5, 10, 15 or 30),
 * everyHours, everyDays with atHour, everyWeeks, one-off after/at. Each trigger belongs to its
 * creator and to the document it was created in (the executing emulator's: a script can only
 * create triggers for the file it runs in). The runtime fires a document's triggers that fall due
 * when a test advances that document's clock. ScriptApp.AuthMode is the enum of auth.ts.
 *
 * A bound script: 20 triggers per user per script.
 *
 * An Editor add-on (https://developers.google.com/workspace/add-ons/concepts/editor-triggers,
 * "Installable trigger restrictions"; the hourly rule also in
 * https://developers.google.com/apps-script/guides/triggers/installable, "an add-on can use a
 * time-driven trigger once per hour at most"):
 * - one time-driven trigger per user per document: a second in the same document throws the
 *   message Google gives ("This add-on has created too many time-based triggers in this document
 *   for this Google user account"), while the same user may have one in each of two documents;
 * - nothing more frequent than hourly. Google's pages do not say how a one-off trigger (after, at)
 *   due within the hour is treated; the emulator treats one-offs as time-driven triggers under the
 *   same rule, so one due less than an hour from now is refused too;
 * - getProjectTriggers() lists the user's triggers in every document the add-on is used in (the
 *   project spans them: "gets all installable triggers associated with the current project and
 *   current user"), getUserTriggers(spreadsheet) only those in that spreadsheet ("owned by this
 *   user in the given spreadsheet, for this script or add-on only"), per
 *   https://developers.google.com/apps-script/reference/script/script-app;
 * - a document where the add-on is disabled keeps its triggers but they do not fire (runtime.ts,
 *   Emulator.setAddOnEnabled); nothing emails the user when a trigger's code throws (the emulator
 *   never sends such mail, in either mode).
 *
 * Granular consent (project.ts): getAuthorizationInfo, requireScopes and requireAllScopes answer
 * from the scopes the executing user has granted, as AuthorizationInfo
 * (https://developers.google.com/apps-script/reference/script/authorization-info) describes.
 */
import { AUTH_MODE, type EnumValue, enumValue } from './auth';
import type { Execution } from './execution';

export const MAX_TRIGGERS_PER_USER = 20;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface TriggerRecord {
  id: string;
  handler: string;
  user: string;
  /** The document (Emulator.documentId) the trigger was created in, and fires in. */
  documentId: string;
  periodMs?: number;
  atHour?: number;
  nextRunAt: number;
  oneOff: boolean;
}

export interface TriggerState {
  triggers: TriggerRecord[];
  nextId: number;
  addOn: boolean;
}

class TriggerView
  implements
    Pick<GoogleAppsScript.Script.Trigger, 'getUniqueId' | 'getHandlerFunction' | 'getEventType' | 'getTriggerSource'>
{
  constructor(readonly record: TriggerRecord) {}
  getUniqueId(): string {
    return this.record.id;
  }
  getHandlerFunction(): string {
    return this.record.handler;
  }
  getEventType(): GoogleAppsScript.Script.EventType {
    return 'CLOCK' as unknown as GoogleAppsScript.Script.EventType;
  }
  getTriggerSource(): GoogleAppsScript.Script.TriggerSource {
    return 'CLOCK' as unknown as GoogleAppsScript.Script.TriggerSource;
  }
}

type ClockBuilder = Pick<
  GoogleAppsScript.Script.ClockTriggerBuilder,
  'everyMinutes' | 'everyHours' | 'everyDays' | 'everyWeeks' | 'atHour' | 'after' | 'at' | 'create'
>;

class ClockTriggerBuilder implements ClockBuilder {
  private periodMs?: number;
  private hour?: number;
  private firstAt?: number;
  private oneOff = false;
  constructor(
    private readonly app: EmulatedScriptApp,
    private readonly handler: string,
  ) {}
  private self(): GoogleAppsScript.Script.ClockTriggerBuilder {
    return this as unknown as GoogleAppsScript.Script.ClockTriggerBuilder;
  }
  everyMinutes(n: number): GoogleAppsScript.Script.ClockTriggerBuilder {
    if (![1, 5, 10, 15, 30].includes(n))
      throw this.app.exec.makeError('Exception: The value passed to everyMinutes must be one of 1, 5, 10, 15 or 30.');
    this.periodMs = n * MINUTE;
    return this.self();
  }
  everyHours(n: number): GoogleAppsScript.Script.ClockTriggerBuilder {
    if (![1, 2, 4, 6, 8, 12].includes(n))
      throw this.app.exec.makeError('Exception: The value passed to everyHours must be one of 1, 2, 4, 6, 8 or 12.');
    this.periodMs = n * HOUR;
    return this.self();
  }
  everyDays(n: number): GoogleAppsScript.Script.ClockTriggerBuilder {
    if (!Number.isInteger(n) || n < 1) throw this.app.exec.makeError('Exception: Invalid argument: everyDays');
    this.periodMs = n * DAY;
    return this.self();
  }
  everyWeeks(n: number): GoogleAppsScript.Script.ClockTriggerBuilder {
    if (!Number.isInteger(n) || n < 1) throw this.app.exec.makeError('Exception: Invalid argument: everyWeeks');
    this.periodMs = n * 7 * DAY;
    return this.self();
  }
  atHour(hour: number): GoogleAppsScript.Script.ClockTriggerBuilder {
    if (!Number.isInteger(hour) || hour < 0 || hour > 23)
      throw this.app.exec.makeError('Exception: Invalid argument: hour');
    this.hour = hour;
    return this.self();
  }
  after(ms: number): GoogleAppsScript.Script.ClockTriggerBuilder {
    this.oneOff = true;
    this.firstAt = this.app.exec.clock.now() + Math.max(0, ms);
    return this.self();
  }
  at(date: GoogleAppsScript.Base.Date): GoogleAppsScript.Script.ClockTriggerBuilder {
    this.oneOff = true;
    this.firstAt = (date as unknown as Date).getTime();
    return this.self();
  }
  create(): GoogleAppsScript.Script.Trigger {
    const now = this.app.exec.clock.now();
    if (!this.oneOff && this.periodMs === undefined)
      throw this.app.exec.makeError(
        'Exception: Clock trigger needs a schedule (everyMinutes, everyHours, everyDays, everyWeeks, after or at).',
      );
    const tooOften = this.oneOff ? (this.firstAt as number) - now < HOUR : (this.periodMs as number) < HOUR;
    if (this.app.state.addOn && tooOften) {
      throw this.app.exec.makeError(
        'Exception: Add-ons can only create time-based triggers that run at most once per hour.',
      );
    }
    let next = this.firstAt ?? now + (this.periodMs as number);
    if (this.hour !== undefined && this.periodMs !== undefined && this.periodMs >= DAY) {
      const d = new Date(now);
      d.setUTCHours(this.hour, 0, 0, 0);
      next = d.getTime() <= now ? d.getTime() + DAY : d.getTime();
    }
    return this.app.add({
      handler: this.handler,
      periodMs: this.oneOff ? undefined : this.periodMs,
      atHour: this.hour,
      nextRunAt: next,
      oneOff: this.oneOff,
    });
  }
}

class TriggerBuilder {
  constructor(
    private readonly app: EmulatedScriptApp,
    private readonly handler: string,
  ) {}
  timeBased(): GoogleAppsScript.Script.ClockTriggerBuilder {
    return new ClockTriggerBuilder(this.app, this.handler) as unknown as GoogleAppsScript.Script.ClockTriggerBuilder;
  }
}

/** ScriptApp.AuthorizationStatus: shared by every execution, so `===` works across them. */
export const AUTHORIZATION_STATUS = Object.freeze({
  REQUIRED: enumValue('REQUIRED'),
  NOT_REQUIRED: enumValue('NOT_REQUIRED'),
});

/** The mode an AuthMode argument names (the enum value, or its name as text). */
function modeName(mode: unknown): string {
  if (typeof mode === 'string') return mode;
  return typeof (mode as EnumValue | null)?.name === 'function' ? (mode as EnumValue).name() : String(mode);
}

/**
 * ScriptApp.getAuthorizationInfo's answer for the executing user: which of the requested scopes
 * (the given ones, else the manifest's) they have granted. Only AuthMode.FULL asks the user for
 * anything ("no other authorization mode requires that users grant authorization"), so in any
 * other mode nothing is required. The authorization URL's form is the emulator's own.
 */
class AuthorizationInfoView {
  constructor(
    private readonly requested: readonly string[],
    private readonly missing: readonly string[],
  ) {}
  getAuthorizationStatus(): EnumValue {
    return this.missing.length ? AUTHORIZATION_STATUS.REQUIRED : AUTHORIZATION_STATUS.NOT_REQUIRED;
  }
  getAuthorizationUrl(): string | null {
    if (!this.missing.length) return null;
    return `https://script.google.com/macros/d/emulated-script/authorize?scope=${this.missing.map(encodeURIComponent).join('+')}`;
  }
  /** The requested scopes the user has granted ("returns the authorized scopes from the specified list"). */
  getAuthorizedScopes(): string[] {
    return this.requested.filter((s) => !this.missing.includes(s));
  }
}

type ScriptAppApi = Pick<
  GoogleAppsScript.Script.ScriptApp,
  | 'newTrigger'
  | 'getProjectTriggers'
  | 'getUserTriggers'
  | 'deleteTrigger'
  | 'getAuthorizationInfo'
  | 'requireScopes'
  | 'requireAllScopes'
>;

export class EmulatedScriptApp implements ScriptAppApi {
  readonly EventType = { CLOCK: 'CLOCK' };
  /** ScriptApp.AuthMode: the same enum objects the runtime puts in event arguments. */
  readonly AuthMode = AUTH_MODE;
  readonly AuthorizationStatus = AUTHORIZATION_STATUS as unknown as typeof GoogleAppsScript.Script.AuthorizationStatus;
  constructor(
    readonly exec: Execution,
    readonly state: TriggerState,
  ) {}

  newTrigger(functionName: string): GoogleAppsScript.Script.TriggerBuilder {
    this.exec.charge('ScriptApp.newTrigger');
    if (this.exec.readOnly) this.exec.deny('ScriptApp.newTrigger');
    return new TriggerBuilder(this, functionName) as unknown as GoogleAppsScript.Script.TriggerBuilder;
  }

  /** The executing user's triggers (in every document of the project). */
  private mine(): TriggerRecord[] {
    return this.state.triggers.filter((x) => x.user === this.exec.user);
  }

  /** Creates a time-driven trigger for the executing user in the executing document. */
  add(t: Omit<TriggerRecord, 'id' | 'user' | 'documentId'>): GoogleAppsScript.Script.Trigger {
    const documentId = this.exec.documentId;
    if (this.state.addOn) {
      if (this.mine().some((x) => x.documentId === documentId))
        throw this.exec.makeError(
          'Exception: This add-on has created too many time-based triggers in this document for this Google user account.',
        );
    } else if (this.mine().length >= MAX_TRIGGERS_PER_USER) {
      throw this.exec.makeError(
        'Exception: This script has too many triggers. Triggers must be deleted from the script before more can be added.',
      );
    }
    const record: TriggerRecord = {
      ...t,
      id: String(1000 + this.state.nextId++),
      user: this.exec.user,
      documentId,
    };
    this.state.triggers.push(record);
    return new TriggerView(record) as unknown as GoogleAppsScript.Script.Trigger;
  }

  private listed(call: string, keep: (t: TriggerRecord) => boolean): GoogleAppsScript.Script.Trigger[] {
    this.exec.charge(call);
    if (this.exec.readOnly) this.exec.deny(call);
    return this.mine()
      .filter(keep)
      .map((t) => new TriggerView(t) as unknown as GoogleAppsScript.Script.Trigger);
  }

  getProjectTriggers(): GoogleAppsScript.Script.Trigger[] {
    return this.listed('ScriptApp.getProjectTriggers', () => true);
  }

  /** The user's triggers in the given spreadsheet (its getId() names the document). */
  getUserTriggers(document: unknown): GoogleAppsScript.Script.Trigger[] {
    const id = (document as { getId?: unknown } | null)?.getId;
    if (typeof id !== 'function') {
      this.exec.charge('ScriptApp.getUserTriggers');
      throw this.exec.makeError('Exception: Invalid argument: document');
    }
    const documentId = String(id.call(document));
    return this.listed('ScriptApp.getUserTriggers', (t) => t.documentId === documentId);
  }

  deleteTrigger(trigger: GoogleAppsScript.Script.Trigger): void {
    this.exec.charge('ScriptApp.deleteTrigger');
    if (this.exec.readOnly) this.exec.deny('ScriptApp.deleteTrigger');
    const id = trigger.getUniqueId();
    this.state.triggers = this.state.triggers.filter((t) => t.id !== id);
  }

  /** The requested scopes (these, else the manifest's) the executing user has not granted, in this mode. */
  private missingScopes(
    authMode: unknown,
    scopes: readonly string[] | undefined,
  ): { requested: string[]; missing: string[] } {
    const requested = scopes ? scopes.map(String) : [...(this.exec.manifestScopes ?? [])];
    const granted = this.exec.grantedScopes;
    const asks = modeName(authMode) === 'FULL' && granted !== null;
    return { requested, missing: asks ? requested.filter((s) => !granted.has(s)) : [] };
  }

  getAuthorizationInfo(
    authMode: GoogleAppsScript.Script.AuthMode,
    oAuthScopes?: string[],
  ): GoogleAppsScript.Script.AuthorizationInfo {
    this.exec.charge('ScriptApp.getAuthorizationInfo');
    const { requested, missing } = this.missingScopes(authMode, oAuthScopes);
    return new AuthorizationInfoView(requested, missing) as unknown as GoogleAppsScript.Script.AuthorizationInfo;
  }

  /**
   * Ends the execution when the user has not granted every one of these scopes (Google then asks
   * the user for them). The first sentence is Google's message for an execution that lacks
   * authorization; the list of scopes after it is the emulator's, for tests to read.
   */
  requireScopes(authMode: GoogleAppsScript.Script.AuthMode, oAuthScopes: string[]): void {
    this.exec.charge('ScriptApp.requireScopes');
    if (!Array.isArray(oAuthScopes)) throw this.exec.makeError('Exception: Invalid argument: oAuthScopes');
    this.require(authMode, oAuthScopes);
  }

  requireAllScopes(authMode: GoogleAppsScript.Script.AuthMode): void {
    this.exec.charge('ScriptApp.requireAllScopes');
    this.require(authMode, undefined);
  }

  private require(authMode: unknown, scopes: readonly string[] | undefined): void {
    const { missing } = this.missingScopes(authMode, scopes);
    if (missing.length)
      throw this.exec.makeError(
        `Exception: Authorization is required to perform that action. Required permissions: ${missing.join(', ')}`,
      );
  }
}
