/**
 * The one error type of the service client. Every failure, from a bad argument to a dead
 * server, becomes a ServiceError with a stable code and a message an analyst can act on.
 * Messages and URLs are redacted at construction, so a key can never leak through an error.
 */
import { redact } from './redact';

export type ErrorCode =
  | 'AUTH'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'SERVER'
  | 'NETWORK'
  | 'BAD_RESPONSE'
  | 'BAD_INPUT'
  | 'QUOTA'
  | 'TIMEOUT'
  | 'NO_KEY';

export interface ServiceErrorDetails {
  status?: number;
  url?: string;
  retryAfterMs?: number;
  secrets?: readonly string[];
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status?: number;
  readonly url?: string;
  readonly retryAfterMs?: number;

  constructor(code: ErrorCode, message: string, details: ServiceErrorDetails = {}) {
    super(redact(message, details.secrets));
    this.name = 'ServiceError';
    this.code = code;
    this.status = details.status;
    this.url = details.url === undefined ? undefined : redact(details.url, details.secrets);
    this.retryAfterMs = details.retryAfterMs;
  }

  /** Whether trying again later may succeed. */
  get retryable(): boolean {
    return this.code === 'RATE_LIMITED' || this.code === 'SERVER' || this.code === 'NETWORK' || this.code === 'TIMEOUT';
  }
}

export function badInput(message: string): ServiceError {
  return new ServiceError('BAD_INPUT', message);
}

/** Any thrown value as a ServiceError (unknown failures are NETWORK, the transport's domain). */
export function toServiceError(e: unknown, secrets: readonly string[] = []): ServiceError {
  if (e instanceof ServiceError) return e;
  const text = e instanceof Error ? e.message : String(e);
  if (/Service invoked too many times|Bandwidth quota exceeded|quota/i.test(text)) {
    return new ServiceError('QUOTA', 'Daily URL fetch quota used up; cached values are shown where available. Try again tomorrow.', { secrets });
  }
  if (/timed? ?out|timeout/i.test(text)) {
    return new ServiceError('TIMEOUT', 'The data service did not answer in time.', { secrets });
  }
  return new ServiceError('NETWORK', `Could not reach the data service: ${text.slice(0, 200)}`, { secrets });
}
