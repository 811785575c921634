/**
 * ScriptApp's time-driven triggers on the simulated clock: everyMinutes (1, 5, 10, 15 or 30),
 * everyHours, everyDays with atHour, everyWeeks, one-off after/at; 20 triggers per user per
 * script; in add-on mode nothing more frequent than hourly. The runtime fires what is due when
 * a test advances the clock. ScriptApp.AuthMode is the enum of auth.ts.
 */
import { AUTH_MODE } from './auth';
import type { Execution } from './execution';

export const MAX_TRIGGERS_PER_USER = 20;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface TriggerRecord {
  id: string;
  handler: string;
  user: string;
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
    if (this.app.state.addOn && !this.oneOff && (this.periodMs as number) < HOUR) {
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

export class EmulatedScriptApp
  implements
    Pick<GoogleAppsScript.Script.ScriptApp, 'newTrigger' | 'getProjectTriggers' | 'getUserTriggers' | 'deleteTrigger'>
{
  readonly EventType = { CLOCK: 'CLOCK' };
  /** ScriptApp.AuthMode: the same enum objects the runtime puts in event arguments. */
  readonly AuthMode = AUTH_MODE;
  constructor(
    readonly exec: Execution,
    readonly state: TriggerState,
  ) {}

  newTrigger(functionName: string): GoogleAppsScript.Script.TriggerBuilder {
    this.exec.charge('ScriptApp.newTrigger');
    if (this.exec.readOnly) this.exec.deny('ScriptApp.newTrigger');
    return new TriggerBuilder(this, functionName) as unknown as GoogleAppsScript.Script.TriggerBuilder;
  }

  add(t: Omit<TriggerRecord, 'id' | 'user'>): GoogleAppsScript.Script.Trigger {
    const mine = this.state.triggers.filter((x) => x.user === this.exec.user);
    if (mine.length >= MAX_TRIGGERS_PER_USER) {
      throw this.exec.makeError(
        'Exception: This script has too many triggers. Triggers must be deleted from the script before more can be added.',
      );
    }
    const record: TriggerRecord = { ...t, id: String(1000 + this.state.nextId++), user: this.exec.user };
    this.state.triggers.push(record);
    return new TriggerView(record) as unknown as GoogleAppsScript.Script.Trigger;
  }

  getProjectTriggers(): GoogleAppsScript.Script.Trigger[] {
    this.exec.charge('ScriptApp.getProjectTriggers');
    if (this.exec.readOnly) this.exec.deny('ScriptApp.getProjectTriggers');
    return this.state.triggers
      .filter((t) => t.user === this.exec.user)
      .map((t) => new TriggerView(t) as unknown as GoogleAppsScript.Script.Trigger);
  }

  getUserTriggers(_document: unknown): GoogleAppsScript.Script.Trigger[] {
    return this.getProjectTriggers();
  }

  deleteTrigger(trigger: GoogleAppsScript.Script.Trigger): void {
    this.exec.charge('ScriptApp.deleteTrigger');
    if (this.exec.readOnly) this.exec.deny('ScriptApp.deleteTrigger');
    const id = trigger.getUniqueId();
    this.state.triggers = this.state.triggers.filter((t) => t.id !== id);
  }
}
