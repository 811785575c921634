/**
 * Builds the service client for the current execution from the saved settings, with the
 * Apps Script transport, clock and cache, and the deadline of this kind of execution.
 */
import { Client } from '../api/client';
import type { Transport } from '../api/transport';
import { ServiceError } from '../api/errors';
import { timeId } from '../api/hash';
import { cacheHealth } from '../api/health';
import { Memo } from '../api/memo';
import type { Neighbours } from '../api/lookup-cache';
import { PartnerLookup } from '../api/partners';
import type { ServiceRecord } from '../api/records';
import type { Outcome } from '../api/client';
import type { RetryPolicy } from '../api/retry';
import { shownServiceAddress } from '../api/url';
import { gasCacheStore, gasCodec } from './cache';
import { CUSTOM_FUNCTION_LIMIT_MS, EXECUTION_LIMIT_MS, gasClock } from './clock';
import { guardedUrlFetch } from './http';
import { readSettings, type Settings } from './settings';

/** When this execution began: the bundle's top-level code runs at the start of every execution. */
export const EXECUTION_STARTED_AT = Date.now();

export type ExecutionKind = 'formula' | 'run';

export function memoFor(s: Settings): Memo {
  return new Memo({
    // The address the key was confirmed for: the only one anything is asked of (and the same as the document's, or nothing is served).
    store: gasCacheStore,
    codec: gasCodec,
    apiKey: s.apiKey,
    baseUrl: s.keyAddress || s.baseUrl,
    ttlMs: s.ttlSeconds * 1000,
    invalidatedBefore: () => s.refreshedAt,
    now: gasClock.now,
    stored: s.storedNamespace,
  });
}

/** Throws unless the spreadsheet's service address is set and is the one the key's holder confirmed. */
export function confirmAddress(settings: Settings): void {
  if (!settings.baseUrl)
    throw new ServiceError('BAD_INPUT', 'No service address: open Investor Data ▸ Settings and set it.');
  if (settings.keyAddress !== settings.baseUrl) throw unconfirmedAddress(settings);
}

/**
 * `confirmLater`: the caller confirms the address itself once it has read the cache (which reads
 * the document's settings along with it), and before anything it found is shown; a fetch
 * confirms it first in any case. `retry`: the client's retry policy when not the default.
 */
export function clientFor(
  kind: ExecutionKind,
  settings: Settings = readSettings(),
  memo: Memo = memoFor(settings),
  confirmLater = false,
  retry?: Partial<RetryPolicy>,
): Client {
  if (!settings.apiKey)
    throw new ServiceError('NO_KEY', 'No API key: open Investor Data ▸ Settings and save your key.');
  if (!confirmLater || !settings.keyAddress) confirmAddress(settings);
  const limit = kind === 'formula' ? CUSTOM_FUNCTION_LIMIT_MS : EXECUTION_LIMIT_MS;
  const health = cacheHealth(memo, gasClock.now);
  // Built at the first fetch: a formula answered from the cache never reads the quota settings.
  let guarded: Transport | undefined;
  return new Client({
    // A key goes only to the address its holder confirmed.
    baseUrl: settings.keyAddress,
    apiKey: settings.apiKey,
    transport: {
      fetchAll: (requests, until) => {
        confirmAddress(settings);
        return health.around(() => (guarded ??= guardedUrlFetch(settings.dailyFetchLimit)).fetchAll(requests, until));
      },
    },
    clock: gasClock,
    memo,
    health,
    deadline: EXECUTION_STARTED_AT + limit,
    parallelism: 100,
    retry,
  });
}

/** A lookup whose address is confirmed after its first cache read (which brings the document's settings along). */
function withPartnerLookup<T>(use: (lookup: PartnerLookup) => T, fields?: readonly string[]): T {
  const settings = readSettings();
  const memo = memoFor(settings);
  const client = clientFor('formula', settings, memo, true);
  const token = timeId(EXECUTION_STARTED_AT);
  let out: T;
  try {
    out = use(new PartnerLookup({ client, memo, clock: gasClock, token, fields }));
  } catch (e) {
    confirmAddress(settings);
    throw e;
  }
  confirmAddress(settings);
  return out;
}

/**
 * Limited partners for a formula: per-id answers, the shared snapshot, neighbours fetched together
 * (src/api/partners.ts); a record holds `fields` at least (every field when absent).
 */
export function lookupPartners(
  ids: readonly string[],
  neighbours?: () => Neighbours | undefined,
  fields?: readonly string[],
): Outcome<ServiceRecord>[] {
  return withPartnerLookup((lookup) => lookup.lookup(ids, neighbours), fields);
}

/**
 * Every active partner for a formula, from the shared snapshot (read now when there is none
 * fresh); a record holds `fields` at least (every field when absent).
 */
export function activePartners(fields?: readonly string[]): { records: ServiceRecord[]; staleSince?: number } {
  return withPartnerLookup((lookup) => lookup.activeRecords(), fields);
}

/** A service address as messages name it: host, port and path, or a refused address with its unusual characters made visible (src/api/url.ts). */
export const shownAddress = shownServiceAddress;

/**
 * The spreadsheet's service address is not the one the key's holder saved the key for (another
 * editor changed it, or the key predates it): the key is not sent anywhere until its holder
 * confirms the new address in the sidebar.
 */
export function unconfirmedAddress(s: Settings): ServiceError {
  const before = s.keyAddress ? `was saved for ${shownAddress(s.keyAddress)}` : 'was saved before any service address';
  return new ServiceError(
    'AUTH',
    `The service address of this spreadsheet is ${shownAddress(s.baseUrl)}, but the API key ${before}; the key is not sent. If the new address is right, the key's owner confirms it in Investor Data ▸ Settings ("Send my key to ${shownAddress(s.baseUrl)}").`,
  );
}
