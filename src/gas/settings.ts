/**
 * The add-in's settings in PropertiesService, arranged for shared spreadsheets. What spends or
 * exposes a user's key is the user's own (user properties; custom functions and the user's
 * triggers see the spreadsheet owner's): the key, the service address the key holder confirmed
 * for it, and the cache lifetime. The spreadsheet's service address and the "refreshed at" mark
 * belong to the document (document properties, which every editor can change; script properties
 * hold a deployment-wide default address). A key is sent only to the address its holder
 * confirmed: when an editor changes the document's address, the holder's key stays home until
 * the holder saves the new address themselves (src/gas/context.ts refuses).
 */

import { DEFAULT_QUOTA_POLICY } from '../api/quota';

export const PROP = {
  apiKey: 'INVESTOR_DATA_API_KEY',
  keyAddress: 'INVESTOR_DATA_KEY_ADDRESS',
  baseUrl: 'INVESTOR_DATA_BASE_URL',
  cacheTtlSeconds: 'INVESTOR_DATA_CACHE_TTL_SECONDS',
  refreshedAt: 'INVESTOR_DATA_REFRESHED_AT',
  dailyFetchLimit: 'INVESTOR_DATA_DAILY_FETCH_LIMIT',
} as const;

export const DEFAULT_TTL_SECONDS = 3600;

export interface Settings {
  apiKey: string;
  /** The service address the key's holder confirmed for it ('' when none yet). */
  keyAddress: string;
  baseUrl: string;
  ttlSeconds: number;
  refreshedAt: number;
  /** Apps Script's daily URL fetch quota for the account (script property; 20,000, or 100,000 on Workspace). */
  dailyFetchLimit: number;
}

function documentProps(): GoogleAppsScript.Properties.Properties | null {
  return PropertiesService.getDocumentProperties();
}

export function readSettings(): Settings {
  const user = PropertiesService.getUserProperties().getProperties();
  const doc = documentProps()?.getProperties() ?? {};
  // Script properties only hold a fallback address (a script with no document): read them only then.
  const baseUrl = doc[PROP.baseUrl] || PropertiesService.getScriptProperties().getProperty(PROP.baseUrl) || '';
  const ttlText = user[PROP.cacheTtlSeconds];
  const ttl = ttlText === undefined || ttlText === '' ? Number.NaN : Number(ttlText);
  return {
    apiKey: user[PROP.apiKey] ?? '',
    keyAddress: user[PROP.keyAddress] ?? '',
    baseUrl,
    ttlSeconds: Number.isFinite(ttl) && ttl >= 0 ? ttl : DEFAULT_TTL_SECONDS,
    refreshedAt: Number(doc[PROP.refreshedAt]) || 0,
    // Read only when something is about to be fetched: a warm formula never pays for it.
    get dailyFetchLimit(): number {
      const limit = Number(PropertiesService.getScriptProperties().getProperty(PROP.dailyFetchLimit));
      return limit > 0 ? Math.floor(limit) : DEFAULT_QUOTA_POLICY.dailyLimit;
    },
  };
}

export function saveUserProperty(name: string, value: string | null): void {
  const store = PropertiesService.getUserProperties();
  if (value === null) store.deleteProperty(name);
  else store.setProperty(name, value);
}

export function saveDocumentProperty(name: string, value: string | null): void {
  const store = documentProps() ?? PropertiesService.getScriptProperties();
  if (value === null) store.deleteProperty(name);
  else store.setProperty(name, value);
}

/** The secrets an answer or message must never show: the saved key, when it can be read. */
export function knownSecrets(): string[] {
  try {
    const key = readSettings().apiKey;
    return key ? [key] : [];
  } catch {
    return [];
  }
}
