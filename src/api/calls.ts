/**
 * What the service client (./client.ts) and its sending (./send.ts) share: the client's options
 * and state, a call, and an outcome. The sending is a module of its own so that a formula answered
 * from the cache never compiles it (scripts/build-lib.ts, DEFERRED_MODULES).
 */
import type { Health } from './health';
import type { Memo } from './memo';
import type { Operation, OperationName } from './operations';
import type { JsonValue } from './records';
import type { RetryPolicy } from './retry';
import type { Clock, Transport } from './transport';
import type { QueryValue } from './url';
import type { ServiceError } from './errors';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  transport: Transport;
  clock: Clock;
  memo?: Memo;
  /** What differs from the default retry policy (src/api/retry.ts DEFAULT_RETRY). */
  retry?: Partial<RetryPolicy>;
  /** Absolute time (clock ms) by which every call of this execution must have ended. */
  deadline?: number;
  /** Requests sent at once in one fetchAll. */
  parallelism?: number;
  random?: () => number;
  /** Memory of a hung service: while it says so, nothing is fetched (stale copies are served). */
  health?: Health;
}

export type Outcome<T> = { ok: true; value: T; staleSince?: number } | { ok: false; error: ServiceError };

export interface CallStats {
  fetches: number;
  retries: number;
  cacheHits: number;
  staleServed: number;
}

/** The path an operation is asked on now, the one remembered for later executions, and whether one has answered. */
export interface PathChoice {
  now: number;
  saved: number;
  known: boolean;
}

/** One request of an operation: its query, its id (calls by id), whether its answer is kept in the memo, and how its data is read. */
export interface Call<T> {
  op: Operation;
  query: Record<string, QueryValue>;
  id?: string;
  cache: boolean;
  read: (data: JsonValue | undefined, body: { [key: string]: JsonValue }) => T;
}

/** What a client keeps across its calls: its options, its figures, and the path each operation is asked on in this execution, the one the memo holds, and whether either has answered. */
export interface ClientState {
  options: ClientOptions;
  stats: CallStats;
  paths: Map<OperationName, PathChoice>;
}

/** The longest URL UrlFetchApp accepts. */
export const MAX_URL_LENGTH = 2082;
/** Time kept in hand at the deadline for writing results. */
export const DEADLINE_MARGIN_MS = 1500;

export function isMissing(value: unknown): value is { $missing: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $missing?: unknown }).$missing === 'string';
}

/** The execution's deadline less the margin kept for writing results (Infinity without one). */
export const deadlineOf = (options: ClientOptions): number => (options.deadline ?? Infinity) - DEADLINE_MARGIN_MS;
