/**
 * Retry policy: which failures are worth another attempt and how long to wait before it.
 * Exponential backoff with jitter, `Retry-After` honoured, and never a wait that would run
 * past the execution's deadline (a custom function has 30 s in all, a menu call 6 min).
 */

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** Delay before the first retry, in ms. */
  baseDelayMs: number;
  /** Growth of the delay per attempt. */
  factor: number;
  /** Upper bound of one computed delay, in ms. */
  maxDelayMs: number;
  /** Fraction of the delay randomised: 0 = none, 1 = anywhere in [0, delay]. */
  jitter: number;
  /** Longest `Retry-After` the client will wait for; a longer one fails at once with its hint. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 4,
  baseDelayMs: 400,
  factor: 2,
  maxDelayMs: 8000,
  jitter: 0.5,
  maxRetryAfterMs: 20000,
};

/** The wait before retry number `attempt` (1-based). `random` returns [0, 1). */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** (attempt - 1));
  const spread = raw * policy.jitter;
  return Math.round(raw - spread + spread * random());
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
