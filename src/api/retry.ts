/**
 * Retry policy as data, and the one function that applies it: which failure is worth another
 * attempt (the error's own `transient`), how long to wait (exponential backoff with jitter, or
 * the service's `Retry-After` when that is longer: the backoff is the floor, so a `Retry-After`
 * of 0, -1, a past date or garbage never makes a retry go out at once), and when to give up
 * (attempts used, or a wait longer than the policy accepts). The client also never waits past
 * its execution's deadline.
 */
import type { ServiceError } from './errors';

export interface RetryPolicy {
  /** Attempts after the first, when a last good copy can stand in if they all fail. */
  retries: number;
  /** Attempts after the first when there is no copy to fall back on (still bounded by the deadline). */
  retriesWithoutCopy: number;
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
  retriesWithoutCopy: 12,
  baseDelayMs: 400,
  factor: 2,
  maxDelayMs: 4000,
  jitter: 0.5,
  maxRetryAfterMs: 20000,
};

/** The wait before retry number `attempt` (1-based). `random` returns [0, 1). */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** (attempt - 1));
  const spread = raw * policy.jitter;
  return Math.round(raw - spread + spread * random());
}

/** An HTTP date (IMF-fixdate, RFC 850 or asctime): it starts with a day name. */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s/i;

/**
 * `Retry-After` as milliseconds from now, when it is a usable wait: positive delta-seconds, or an
 * HTTP date in the future. Anything else (0, -1, a past date, text `Date.parse` would still read
 * as some date) is no wait at all: undefined, and the backoff applies.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let wait: number;
  if (/^\d+(\.\d+)?$/.test(text)) wait = Math.round(Number(text) * 1000);
  else if (HTTP_DATE.test(text)) wait = Date.parse(text) - nowMs;
  else return undefined;
  return Number.isFinite(wait) && wait > 0 ? wait : undefined;
}

/**
 * The wait before retry number `attempt` (1-based) after `error`, or undefined: do not retry.
 * With nothing to fall back on, the client tries harder (retriesWithoutCopy), since giving up
 * shows the analyst an error instead of a stale value.
 */
export function retryDelay(
  error: ServiceError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
  hasCopy = true,
): number | undefined {
  if (!error.transient || attempt > (hasCopy ? policy.retries : policy.retriesWithoutCopy)) return undefined;
  const wait = Math.max(error.retryAfterMs ?? 0, backoffDelay(attempt, policy, random));
  return wait > policy.maxRetryAfterMs ? undefined : wait;
}
