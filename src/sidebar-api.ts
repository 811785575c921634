/**
 * Server endpoints the sidebar calls through google.script.run. Each returns a JSON-safe
 * answer, `{ ok: true, … }` or `{ ok: false, code, message }`, never a thrown stack. The API key
 * goes in once and never comes back: the sidebar only ever sees its last four characters.
 */
import { ServiceError } from './api/errors';
import { normaliseBaseUrl } from './api/url';
import { keyHint, keyProblem, redact, redactAndCut } from './api/redact';
import { knownKeys } from './known-key';
import { MAX_CACHE_SECONDS } from './api/memo';
import { clientFor } from './context';
import { refreshAllFormulas } from './menu';
import { PROP, readSettings, saveDocumentProperty, saveUserProperty } from './gas/settings';

export type Answer<T extends object = object> = ({ ok: true } & T) | { ok: false; code: string; message: string };

export function answer<T extends object>(body: () => T): Answer<T> {
  try {
    return { ok: true, ...body() };
  } catch (e) {
    const keys = knownKeys();
    if (e instanceof ServiceError) return { ok: false, code: e.code, message: redact(e.message, keys) };
    const text = e instanceof Error ? e.message : String(e);
    return { ok: false, code: 'INTERNAL', message: redactAndCut(text, keys, 300) };
  }
}

export interface SidebarState {
  hasKey: boolean;
  keyHint: string;
  baseUrl: string;
  ttlSeconds: number;
}

function state(): SidebarState {
  const s = readSettings();
  return { hasKey: !!s.apiKey, keyHint: s.apiKey ? keyHint(s.apiKey) : '', baseUrl: s.baseUrl, ttlSeconds: s.ttlSeconds };
}

export function getSidebarState(): Answer<SidebarState> {
  return answer(state);
}

export function saveApiKey(key: unknown): Answer<SidebarState> {
  return answer(() => {
    const text = typeof key === 'string' ? key.trim() : '';
    if (!text) throw new ServiceError('BAD_INPUT', 'Paste your API key first.');
    const problem = keyProblem(text);
    if (problem) throw new ServiceError('BAD_INPUT', `That key cannot be saved: ${problem}`);
    saveUserProperty(PROP.apiKey, text);
    return state();
  });
}

export function removeApiKey(): Answer<SidebarState> {
  return answer(() => {
    saveUserProperty(PROP.apiKey, null);
    return state();
  });
}

export function saveServiceUrl(url: unknown): Answer<SidebarState> {
  return answer(() => {
    saveDocumentProperty(PROP.baseUrl, normaliseBaseUrl(typeof url === 'string' ? url : ''));
    return state();
  });
}

export function saveCacheTtl(seconds: unknown): Answer<SidebarState> {
  return answer(() => {
    const n = typeof seconds === 'string' ? Number(seconds) : seconds;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_CACHE_SECONDS) {
      throw new ServiceError('BAD_INPUT', `Cache lifetime must be a whole number of seconds from 0 to ${MAX_CACHE_SECONDS}.`);
    }
    saveDocumentProperty(PROP.cacheTtlSeconds, String(n));
    return state();
  });
}

export function testConnection(): Answer<{ message: string; totalItems: number }> {
  return answer(() => {
    const s = readSettings();
    const outcome = clientFor('run', s).activePartnerPages([1], 1)[0];
    if (!outcome.ok) throw outcome.error;
    const host = s.baseUrl.replace(/^https?:\/\//, '').split('/')[0];
    const total = outcome.value.pagination.totalItems;
    return { message: `Connected to ${host}: ${total} active limited partners.`, totalItems: total };
  });
}

export function refreshFormulas(): Answer<{ count: number }> {
  return answer(() => ({ count: refreshAllFormulas() }));
}
