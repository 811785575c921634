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

import { Memo } from '../api/memo';
import { cache, gasCodec, readAlongWithNext } from './cache';

export const PROP = {
  apiKey: 'INVESTOR_DATA_API_KEY',
  keyAddress: 'INVESTOR_DATA_KEY_ADDRESS',
  baseUrl: 'INVESTOR_DATA_BASE_URL',
  cacheTtlSeconds: 'INVESTOR_DATA_CACHE_TTL_SECONDS',
  refreshedAt: 'INVESTOR_DATA_REFRESHED_AT',
  /** The formulas "Refresh all formulas" is rewriting (src/gas/formulas.ts), with chunks `…_0`, `…_1`: present only while it runs or after it was killed. */
  refreshJournal: 'INVESTOR_DATA_REFRESH_JOURNAL',
  dailyFetchLimit: 'INVESTOR_DATA_DAILY_FETCH_LIMIT',
  /** The key's cache namespace (a digest; Memo.storedNamespace), kept with it so formulas need not digest the key each time. */
  cacheNamespace: 'INVESTOR_DATA_CACHE_NAMESPACE',
} as const;

export const DEFAULT_TTL_SECONDS = 3600;

export interface Settings {
  apiKey: string;
  /** The service address the key's holder confirmed for it ('' when none yet). */
  keyAddress: string;
  baseUrl: string;
  ttlSeconds: number;
  refreshedAt: number;
  /** Apps Script's daily URL fetch quota for the account (script property; 20,000, or 100,000 on Workspace), when set (else the quota guard's default, src/api/quota.ts). */
  dailyFetchLimit: number | undefined;
  /** The key's cache namespace as stored with it ('' when none; the memo checks it was made for this key and address). */
  storedNamespace: string;
}

function documentProps(): GoogleAppsScript.Properties.Properties | null {
  return PropertiesService.getDocumentProperties();
}

/**
 * The document's settings (its service address, "refreshed at") are also kept in the document
 * cache under this key, written by whatever writes them (saveDocumentProperty) and when the
 * sidebar opens. A formula reads them along with its answers (one cache call instead of one more
 * properties call); without the copy it reads the properties. The copy holds no secret, and it
 * cannot send a key anywhere: a key only ever goes to the address its holder confirmed.
 */
export const DOCUMENT_COPY_KEY = 'investor-data:document-settings';
const DOCUMENT_COPY_SECONDS = 21600;

interface DocumentSettings {
  /** The document's own address ('' when it has none: then script properties' default applies). */
  address: string;
  refreshedAt: number;
}

/** The document's settings as this execution knows them (each execution starts the bundle afresh). */
let documentNow: DocumentSettings | undefined;

function fromDocumentProperties(): DocumentSettings {
  const doc = documentProps()?.getProperties() ?? {};
  return { address: doc[PROP.baseUrl] ?? '', refreshedAt: Number(doc[PROP.refreshedAt]) || 0 };
}

function parseCopy(text: string | undefined): DocumentSettings | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Partial<DocumentSettings>;
    return typeof v.address === 'string' && typeof v.refreshedAt === 'number'
      ? { address: v.address, refreshedAt: v.refreshedAt }
      : undefined;
  } catch {
    return undefined;
  }
}

function documentSettings(): DocumentSettings {
  documentNow ??= fromDocumentProperties();
  return documentNow;
}

/** Writes the document cache's copy from the document properties (after they changed, or when it is missing). */
export function writeDocumentCopy(): void {
  documentNow = fromDocumentProperties();
  cache().put(DOCUMENT_COPY_KEY, JSON.stringify(documentNow), DOCUMENT_COPY_SECONDS);
}

/** Puts the copy back when the cache lost it (it lives 6 hours at most) or when it no longer says what the properties say. */
export function ensureDocumentCopy(): void {
  const copy = parseCopy(cache().get(DOCUMENT_COPY_KEY) ?? undefined);
  const now = fromDocumentProperties();
  documentNow = now;
  if (copy?.address !== now.address || copy.refreshedAt !== now.refreshedAt)
    cache().put(DOCUMENT_COPY_KEY, JSON.stringify(now), DOCUMENT_COPY_SECONDS);
}

export function readSettings(): Settings {
  const user = PropertiesService.getUserProperties().getProperties();
  if (!documentNow) {
    readAlongWithNext(DOCUMENT_COPY_KEY, (text) => {
      documentNow ??= parseCopy(text);
    });
  }
  const ttlText = user[PROP.cacheTtlSeconds];
  const ttl = ttlText === undefined || ttlText === '' ? Number.NaN : Number(ttlText);
  return {
    apiKey: user[PROP.apiKey] ?? '',
    keyAddress: user[PROP.keyAddress] ?? '',
    storedNamespace: user[PROP.cacheNamespace] ?? '',
    // Script properties only hold a fallback address (a script with no document): read them only then.
    get baseUrl(): string {
      return documentSettings().address || PropertiesService.getScriptProperties().getProperty(PROP.baseUrl) || '';
    },
    ttlSeconds: Number.isFinite(ttl) && ttl >= 0 ? ttl : DEFAULT_TTL_SECONDS,
    get refreshedAt(): number {
      return documentSettings().refreshedAt;
    },
    // Read only when something is about to be fetched: a warm formula never pays for it.
    get dailyFetchLimit(): number | undefined {
      const limit = Number(PropertiesService.getScriptProperties().getProperty(PROP.dailyFetchLimit));
      return limit > 0 ? Math.floor(limit) : undefined;
    },
  };
}

export function saveUserProperty(name: string, value: string | null): void {
  const store = PropertiesService.getUserProperties();
  if (value === null) store.deleteProperty(name);
  else store.setProperty(name, value);
  if (name === PROP.apiKey || name === PROP.keyAddress) {
    const key = store.getProperty(PROP.apiKey);
    const address = store.getProperty(PROP.keyAddress);
    if (key && address) store.setProperty(PROP.cacheNamespace, Memo.storedNamespace(gasCodec, key, address));
    else store.deleteProperty(PROP.cacheNamespace);
  }
}

export function saveDocumentProperty(name: string, value: string | null): void {
  const store = documentProps() ?? PropertiesService.getScriptProperties();
  if (value === null) store.deleteProperty(name);
  else store.setProperty(name, value);
  if (name === PROP.baseUrl || name === PROP.refreshedAt) writeDocumentCopy();
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
