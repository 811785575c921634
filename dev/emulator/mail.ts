/**
 * MailApp as Google documents it: `sendEmail(message)`, `sendEmail(recipient, subject, body)`,
 * `sendEmail(recipient, subject, body, options)` and `sendEmail(to, replyTo, subject, body)`,
 * with the options that matter here (htmlBody, cc, bcc, name, replyTo, noReply), and
 * `getRemainingDailyQuota()`. The daily quota counts recipients (to, cc and bcc), per user, and
 * resets 24 hours after the first send of its window (100 a day on consumer accounts); a send
 * past it throws Google's "Service invoked too many times for one day: email." and sends nothing.
 * Every member needs the script.send_mail scope (auth.ts). Sent mail is kept, with the sender,
 * so tests and the workbench can read exactly what went out and to whom.
 */
import type { Execution } from './execution';

/** Recipients a day on a consumer account. */
export const DAILY_MAIL_RECIPIENTS = 100;
const WINDOW_MS = 24 * 3_600_000;

export interface SentMail {
  at: number;
  /** The account it was sent from: the user the execution runs as. */
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo?: string;
  name?: string;
  subject: string;
  body: string;
  htmlBody?: string;
}

export interface MailState {
  sent: SentMail[];
  /** Recipients allowed a day, per user. */
  limit: number;
  /** Per user: the start of the current 24-hour window and the recipients counted in it. */
  windows: Map<string, { start: number; used: number }>;
}

export function newMailState(limit = DAILY_MAIL_RECIPIENTS): MailState {
  return { sent: [], limit, windows: new Map() };
}

interface MessageOptions {
  to?: string;
  cc?: string;
  bcc?: string;
  subject?: string;
  body?: string;
  htmlBody?: string;
  name?: string;
  replyTo?: string;
  noReply?: boolean;
}

const ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

export class EmulatedMailApp implements Pick<GoogleAppsScript.Mail.MailApp, 'getRemainingDailyQuota'> {
  constructor(
    private readonly exec: Execution,
    private readonly state: MailState,
  ) {}

  private window(): { start: number; used: number } {
    const now = this.exec.clock.now();
    let w = this.state.windows.get(this.exec.user);
    if (!w || now >= w.start + WINDOW_MS) this.state.windows.set(this.exec.user, (w = { start: now, used: 0 }));
    return w;
  }

  getRemainingDailyQuota(): number {
    this.exec.charge('MailApp.getRemainingDailyQuota');
    const w = this.window();
    return Math.max(0, this.state.limit - w.used);
  }

  private list(field: string, value: unknown): string[] {
    if (value === undefined || value === null || value === '') return [];
    const out = String(value)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const a of out) if (!ADDRESS.test(a)) throw this.exec.makeError(`Exception: Invalid email: ${a}`);
    if (field === 'to' && out.length === 0) throw this.exec.makeError('Exception: Failed to send email: no recipient');
    return out;
  }

  sendEmail(...args: unknown[]): void {
    this.exec.charge('MailApp.sendEmail', 300);
    let m: MessageOptions;
    if (args.length === 1 && args[0] && typeof args[0] === 'object') m = args[0] as MessageOptions;
    else if (args.length === 3) m = { to: args[0] as string, subject: args[1] as string, body: args[2] as string };
    else if (args.length === 4 && args[3] && typeof args[3] === 'object')
      m = {
        ...(args[3] as MessageOptions),
        to: args[0] as string,
        subject: args[1] as string,
        body: args[2] as string,
      };
    else if (args.length === 4)
      m = { to: args[0] as string, replyTo: args[1] as string, subject: args[2] as string, body: args[3] as string };
    else
      throw this.exec.makeError('Exception: The parameters do not match the method signature for MailApp.sendEmail.');
    const to = this.list('to', m.to);
    const cc = this.list('cc', m.cc);
    const bcc = this.list('bcc', m.bcc);
    if (m.subject === undefined || m.subject === null)
      throw this.exec.makeError('Exception: Invalid argument: subject');
    const w = this.window();
    const count = to.length + cc.length + bcc.length;
    if (w.used + count > this.state.limit)
      throw this.exec.makeError('Exception: Service invoked too many times for one day: email.');
    w.used += count;
    this.state.sent.push({
      at: this.exec.clock.now(),
      from: this.exec.user,
      to,
      cc,
      bcc,
      subject: String(m.subject),
      body: String(m.body ?? ''),
      ...(m.htmlBody !== undefined ? { htmlBody: String(m.htmlBody) } : {}),
      ...(m.name !== undefined ? { name: String(m.name) } : {}),
      ...(m.replyTo !== undefined && !m.noReply ? { replyTo: String(m.replyTo) } : {}),
    });
  }
}
