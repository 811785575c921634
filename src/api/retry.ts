/**
 * Retry policy as data, and the one function that applies it: which failure is worth another
 * attempt (the error's own `transient`), how long to wait (`Retry-After` when the service says,
 * otherwise exponential backoff with jitter), and when to give up (attempts used, or a wait
 * longer than the policy accepts). The client also never waits past its execution's deadline.
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

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * The wait before retry number `attempt` (1-based) after `error`, or undefined: do not retry.
 * With nothing to fall back on, the client tries harder (retriesWithoutCopy), since giving up
 * shows the analyst an error instead of a stale value.
 */
export function retryDelay(error: ServiceError, attempt: number, policy: RetryPolicy, random: () => number = Math.random, hasCopy = true): number | undefined {
  if (!error.transient || attempt > (hasCopy ? policy.retries : policy.retriesWithoutCopy)) return undefined;
  const wait = error.retryAfterMs ?? backoffDelay(attempt, policy, random);
  return wait > policy.maxRetryAfterMs ? undefined : wait;
}
