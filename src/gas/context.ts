/**
 * Builds the service client for the current execution from the saved settings, with the
 * Apps Script transport, clock and cache, and the deadline of this kind of execution.
 */
import { Client } from '../api/client';
import { ServiceError } from '../api/errors';
import { Memo } from '../api/memo';
import { gasCacheStore, gasCodec } from './cache';
import { CUSTOM_FUNCTION_LIMIT_MS, EXECUTION_LIMIT_MS, gasClock } from './clock';
import { urlFetchTransport } from './http';
import { readSettings, type Settings } from './settings';

/** When this execution began: the bundle's top-level code runs at the start of every execution. */
export const EXECUTION_STARTED_AT = Date.now();

export type ExecutionKind = 'formula' | 'run';

export function memoFor(s: Settings): Memo {
  return new Memo({
    store: gasCacheStore, codec: gasCodec, apiKey: s.apiKey, baseUrl: s.baseUrl,
    ttlMs: s.ttlSeconds * 1000, invalidatedBefore: s.refreshedAt, now: gasClock.now,
  });
}

export function clientFor(kind: ExecutionKind, settings: Settings = readSettings()): Client {
  if (!settings.apiKey) throw new ServiceError('NO_KEY', 'No API key: open Investor Data ▸ Settings and save your key.');
  if (!settings.baseUrl) throw new ServiceError('BAD_INPUT', 'No service address: open Investor Data ▸ Settings and set it.');
  const limit = kind === 'formula' ? CUSTOM_FUNCTION_LIMIT_MS : EXECUTION_LIMIT_MS;
  return new Client({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    transport: urlFetchTransport,
    clock: gasClock,
    memo: memoFor(settings),
    deadline: EXECUTION_STARTED_AT + limit,
    parallelism: 100,
  });
}
