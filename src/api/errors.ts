/**
 * The one error type of the service client, and the one rule for what a failure means. Every
 * failure, from a bad argument to a dead server, becomes a ServiceError with a stable code and a
 * message an analyst can act on; the code alone decides whether another attempt may succeed
 * (`transient`) and whether the last good copy may stand in for the answer (`fallsBack`).
 * Messages and URLs are redacted at construction, so a key can never leak through an error.
 */
import { redact, redactAndCut } from './redact';

export type ErrorCode =
  | 'AUTH'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'SERVER'
  | 'NETWORK'
  | 'BAD_RESPONSE'
  | 'MALFORMED'
  | 'BAD_INPUT'
  | 'QUOTA'
  | 'TIMEOUT'
  /** Not sent: the deadline came first (nothing is known of the service). */
  | 'UNSENT'
  | 'NO_KEY';

export interface ServiceErrorDetails {
  status?: number;
  url?: string;
  retryAfterMs?: number;
  /** When the answer that carried `Retry-After` came (clock ms): the wait counts from then. */
  answeredAt?: number;
  secrets?: readonly string[];
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status?: number;
  readonly url?: string;
  readonly retryAfterMs?: number;
  /** The time (clock ms) before which the service asked not to be asked again, when it said. */
  readonly retryAt?: number;

  constructor(code: ErrorCode, message: string, details: ServiceErrorDetails = {}) {
    // Most errors carry the add-in's own text; one built from an answer or a thrown error names its secrets.
    const secrets = details.secrets ?? [];
    super(redact(message, secrets));
    this.name = 'ServiceError';
    this.code = code;
    this.status = details.status;
    this.url = details.url === undefined ? undefined : redact(details.url, secrets);
    this.retryAfterMs = details.retryAfterMs;
    this.retryAt =
      details.retryAfterMs !== undefined && details.answeredAt !== undefined
        ? details.answeredAt + details.retryAfterMs
        : undefined;
  }

  /** Whether trying again later may succeed: the service was busy, down, slow or sent a broken answer. */
  get transient(): boolean {
    return TRANSIENT_CODES.has(this.code);
  }

  /** Whether the last good copy of the answer may be shown instead (marked stale). */
  get fallsBack(): boolean {
    return !FINAL_CODES.has(this.code);
  }
}

/**
 * Transient: 429, 5xx, timeouts, unreachable, not sent for lack of time, and answers that arrived
 * broken (a truncated body, a 200 without `data`, a list page without pagination). A transient
 * failure is retried (client), and a step that still meets one keeps what it has (import).
 */
export const TRANSIENT_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'RATE_LIMITED',
  'SERVER',
  'NETWORK',
  'TIMEOUT',
  'UNSENT',
  'MALFORMED',
]);
/** Answers that say something about the request itself: no stale copy may hide them. */
const FINAL_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['AUTH', 'NOT_FOUND', 'BAD_INPUT', 'NO_KEY']);

/** A request that was not sent because its deadline came first: asked again later, not a failure of the service. */
export function unsent(): ServiceError {
  return new ServiceError('UNSENT', 'Ran out of time before the data service answered; recalculate to load the rest.');
}

export function badInput(message: string): ServiceError {
  return new ServiceError('BAD_INPUT', message);
}

/** Any thrown value as a ServiceError (unknown failures are NETWORK, the transport's domain). */
export function toServiceError(e: unknown, secrets: readonly string[]): ServiceError {
  if (e instanceof ServiceError) return e;
  const text = e instanceof Error ? e.message : String(e);
  if (/Service invoked too many times|Bandwidth quota exceeded|quota/i.test(text)) {
    return new ServiceError(
      'QUOTA',
      'Daily URL fetch quota used up; cached values are shown where available. Try again tomorrow.',
      { secrets },
    );
  }
  if (/timed? ?out|timeout/i.test(text)) {
    return new ServiceError('TIMEOUT', 'The data service did not answer in time.', { secrets });
  }
  return new ServiceError('NETWORK', `Could not reach the data service: ${redactAndCut(text, secrets, 200)}`, {
    secrets,
  });
}
