/**
 * The add-in's settings in PropertiesService. The API key is the user's own (user properties;
 * custom functions see the spreadsheet owner's); the service address, cache lifetime and the
 * "refreshed at" mark belong to the spreadsheet (document properties), with script properties
 * as a deployment-wide default for the address.
 */

export const PROP = {
  apiKey: 'INVESTOR_DATA_API_KEY',
  baseUrl: 'INVESTOR_DATA_BASE_URL',
  cacheTtlSeconds: 'INVESTOR_DATA_CACHE_TTL_SECONDS',
  refreshedAt: 'INVESTOR_DATA_REFRESHED_AT',
} as const;

export const DEFAULT_TTL_SECONDS = 3600;

export interface Settings {
  apiKey: string;
  baseUrl: string;
  ttlSeconds: number;
  refreshedAt: number;
}

function documentProps(): GoogleAppsScript.Properties.Properties | null {
  return PropertiesService.getDocumentProperties();
}

export function readSettings(): Settings {
  const user = PropertiesService.getUserProperties().getProperties();
  const doc = documentProps()?.getProperties() ?? {};
  const script = PropertiesService.getScriptProperties().getProperties();
  const ttl = Number(doc[PROP.cacheTtlSeconds]);
  return {
    apiKey: user[PROP.apiKey] ?? '',
    baseUrl: doc[PROP.baseUrl] || script[PROP.baseUrl] || '',
    ttlSeconds: Number.isFinite(ttl) && ttl >= 0 ? ttl : DEFAULT_TTL_SECONDS,
    refreshedAt: Number(doc[PROP.refreshedAt]) || 0,
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
