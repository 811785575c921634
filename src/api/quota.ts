/**
 * The quota guard: counts the URL fetches the add-in makes for one user and admits a batch's
 * requests only up to a safety margin below Apps Script's daily limit (the rest are refused), so the rest
 * of the day's quota is not burnt and cached copies can stand in (a QUOTA ServiceError falls
 * back). Google's rule: quotas are per user and reset 24 hours after the first request (not at
 * a fixed hour), 20,000 URL fetches for consumer accounts, 100,000 for Google Workspace.
 *
 * The count lives in a store every execution can update (in Apps Script the user cache; custom
 * functions see the owner's, whose quota they spend). Concurrent executions must not lose counts,
 * so the count is sharded: an execution adds to one slot, chosen at random when it starts, and
 * readers sum the slots; two executions lose an update only if they share a slot and interleave.
 * Each slot holds `windowStart:count:savedAt`; a slot whose window is over, or that is not of
 * this form, counts nothing, so a new window starts from zero. The cache keeps an item at most
 * 6 h, the window is 24 h: every execution that writes (an admission to its own slot, or a
 * refusal) also rewrites each live slot saved an hour ago or more, so the count of the whole
 * window stays in the cache as long as some fetch is asked for at least every 5 h (after a longer
 * pause the guard undercounts, and Google's own refusal still surfaces as QUOTA). No execution lasts an hour, so a slot saved an hour ago
 * belongs to none that is still running; rewriting it loses an update only if an execution that
 * has just drawn the same slot interleaves, the risk two executions sharing a slot already run.
 */
import { ServiceError } from './errors';
import { grouped } from './numbers';
import type { Admit } from './transport';

/** What the guard needs from a store: read several keys at once, write several at once. */
export interface QuotaStore {
  getAll(keys: readonly string[]): Record<string, string>;
  putAll(values: Record<string, string>, ttlSeconds: number): void;
}

export interface QuotaPolicy {
  /** Apps Script's URL fetch quota for this account (20,000 consumer, 100,000 Workspace). */
  dailyLimit: number;
  /** The fraction of the limit kept in reserve: batches stop at dailyLimit × (1 − reserve). */
  reserve: number;
}

export const DEFAULT_QUOTA_POLICY: QuotaPolicy = { dailyLimit: 20000, reserve: 0.1 };
export const QUOTA_WINDOW_MS = 24 * 3600_000;
/** CacheService's longest lifetime. */
const TTL_SECONDS = 21600;
/** A live slot saved this long ago is rewritten by the next execution that writes (longer than any execution runs). */
const RESAVE_AFTER_MS = 3600_000;
const slotKeys = Array.from({ length: 16 }, (_, i) => `fetches:${i}`);

export interface QuotaUsage {
  /** Fetches counted in the current window. */
  used: number;
  dailyLimit: number;
  /** The most the guard lets the window reach. */
  allowed: number;
  /** When the current window began and when it ends (absent before the first fetch). */
  windowStart?: number;
  resetsAt?: number;
}

export interface FetchBudgetOptions {
  store: QuotaStore;
  now: () => number;
  policy?: QuotaPolicy;
  random?: () => number;
}

/** Whole count of fetches the guard allows in a window. */
export function allowedFetches(policy: QuotaPolicy): number {
  return Math.floor(policy.dailyLimit * (1 - policy.reserve));
}

const count = (text: string | undefined): number => {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
};

function utcTime(ms: number): string {
  const d = new Date(ms);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${months[d.getUTCMonth()]} ${d.getUTCDate()}, ${hh}:${mm} UTC`;
}

export class FetchBudget {
  private readonly policy: QuotaPolicy;
  private readonly slot: number;

  constructor(private readonly options: FetchBudgetOptions) {
    this.policy = options.policy ?? DEFAULT_QUOTA_POLICY;
    this.slot = Math.min(slotKeys.length - 1, Math.floor((options.random ?? Math.random)() * slotKeys.length));
  }

  /** The live slots in one read: the window's start (the earliest live one), each slot's count and when it was saved. */
  private read(): { windowStart: number; slots: number[]; savedAt: number[] } {
    const values = this.options.store.getAll(slotKeys);
    const now = this.options.now();
    let windowStart = 0;
    const savedAt: number[] = [];
    const slots = slotKeys.map((k, i) => {
      const [start, n, saved] = (values[k] ?? '').split(':').map(count);
      savedAt[i] = saved;
      if (!start || !saved || now >= start + QUOTA_WINDOW_MS || start > now) return 0;
      if (!windowStart || start < windowStart) windowStart = start;
      return n ?? 0;
    });
    return { windowStart, slots, savedAt };
  }

  usage(): QuotaUsage {
    const { windowStart, slots } = this.read();
    const used = slots.reduce((a, b) => a + b, 0);
    const base = { used, dailyLimit: this.policy.dailyLimit, allowed: allowedFetches(this.policy) };
    return windowStart ? { ...base, windowStart, resetsAt: windowStart + QUOTA_WINDOW_MS } : base;
  }

  /** The count in words, for Diagnostics. */
  describeUsage(): string {
    const u = this.usage();
    const window =
      u.windowStart !== undefined && u.resetsAt !== undefined
        ? ` since ${utcTime(u.windowStart)} (the count resets by ${utcTime(u.resetsAt)})`
        : '';
    return `${grouped(u.used)} of ${grouped(u.dailyLimit)} counted by the add-in for you${window}; it stops asking at ${grouped(u.allowed)}. Google's own count also holds your other scripts' fetches`;
  }

  /**
   * Admits the first of `n` fetches about to be sent, as many as the window allows (reaching the
   * allowed count exactly is allowed), counts them, and refuses the rest with a QUOTA error.
   */
  admit: Admit = (n) => {
    if (n <= 0) return { admitted: 0 };
    const { windowStart, slots, savedAt } = this.read();
    const used = slots.reduce((a, b) => a + b, 0);
    const allowed = allowedFetches(this.policy);
    const admitted = Math.max(0, Math.min(n, allowed - used));
    const now = this.options.now();
    const start = windowStart || now;
    slots[this.slot] += admitted;
    const writes = slots.flatMap((c, i) =>
      (i === this.slot && admitted > 0) || (c > 0 && now - savedAt[i] >= RESAVE_AFTER_MS)
        ? [[slotKeys[i], `${start}:${c}:${now}`]]
        : [],
    );
    if (writes.length) this.options.store.putAll(Object.fromEntries(writes), TTL_SECONDS);
    if (admitted === n) return { admitted };
    const limit = grouped(this.policy.dailyLimit);
    const counted = `${grouped(used + admitted)} of ${limit} URL fetches used since ${utcTime(start)}`;
    const reserve = grouped(this.policy.dailyLimit - allowed);
    const refusal = new ServiceError(
      'QUOTA',
      `Daily fetch limit nearly reached: ${counted}, and this needs \
${grouped(n - admitted)} more; the add-in keeps the last ${reserve} in reserve. Cached values are shown where \
available; the count resets by ${utcTime(start + QUOTA_WINDOW_MS)}.`,
    );
    return { admitted, refusal };
  };
}
