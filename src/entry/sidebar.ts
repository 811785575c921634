/**
 * Sidebar endpoints for settings (google.script.run): the key, the service address, the cache
 * lifetime, the connection test and "refresh all formulas". Each returns a JSON-safe Answer
 * (src/contract.ts), never a thrown stack. The API key goes in once and never comes back: the
 * sidebar only ever sees its last four characters. The state also carries the day's fetch count
 * beside the daily limit (the quota guard's count).
 */
import { ServiceError } from '../api/errors';
import { MAX_CACHE_SECONDS } from '../api/memo';
import { keyHint, keyProblem } from '../api/redact';
import { normaliseBaseUrl } from '../api/url';
import { type Answer, answer, type FetchUsage, type SidebarState } from '../contract';
import { clientFor, hostOf } from '../gas/context';
import { recoverInterruptedRefresh, refreshAddinFormulas } from '../gas/formulas';
import { fetchBudget } from '../gas/http';
import { ensureDocumentCopy, knownSecrets, PROP, readSettings, type Settings, saveDocumentProperty, saveUserProperty } from '../gas/settings';

function state(): SidebarState {
  const s = readSettings();
  return {
    hasKey: !!s.apiKey, keyHint: s.apiKey ? keyHint(s.apiKey) : '', baseUrl: s.baseUrl, ttlSeconds: s.ttlSeconds,
    keyAddress: s.keyAddress, addressConfirmed: !s.apiKey || s.keyAddress === s.baseUrl,
    fetches: fetchUsage(s),
  };
}

function fetchUsage(s: Settings): FetchUsage {
  const { used, dailyLimit, allowed, resetsAt } = fetchBudget(s.dailyFetchLimit).usage();
  return resetsAt === undefined ? { used, dailyLimit, allowed } : { used, dailyLimit, allowed, resetsAt };
}

export function getSidebarState(): Answer<SidebarState> {
  return answer(() => {
    // Opening the sidebar puts back formulas a killed "Refresh all formulas" left erased.
    recoverInterruptedRefresh();
    ensureDocumentCopy();
    return state();
  }, knownSecrets);
}

export function saveApiKey(key: unknown): Answer<SidebarState> {
  return answer(() => {
    const text = typeof key === 'string' ? key.trim() : '';
    if (!text) throw new ServiceError('BAD_INPUT', 'Paste your API key first.');
    const problem = keyProblem(text);
    if (problem) throw new ServiceError('BAD_INPUT', `That key cannot be saved: ${problem}`);
    saveUserProperty(PROP.apiKey, text);
    // The key is bound to the address in force when its holder saved it.
    saveUserProperty(PROP.keyAddress, readSettings().baseUrl);
    return state();
  }, knownSecrets);
}

export function removeApiKey(): Answer<SidebarState> {
  return answer(() => {
    saveUserProperty(PROP.apiKey, null);
    saveUserProperty(PROP.keyAddress, null);
    return state();
  }, knownSecrets);
}

export function saveServiceUrl(url: unknown): Answer<SidebarState> {
  return answer(() => {
    const address = normaliseBaseUrl(typeof url === 'string' ? url : '');
    saveDocumentProperty(PROP.baseUrl, address);
    // Whoever saves an address confirms it for their own key only; other users' keys stay bound to theirs.
    if (readSettings().apiKey) saveUserProperty(PROP.keyAddress, address);
    return state();
  }, knownSecrets);
}

export function saveCacheTtl(seconds: unknown): Answer<SidebarState> {
  return answer(() => {
    const n = typeof seconds === 'string' ? Number(seconds) : seconds;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_CACHE_SECONDS) {
      throw new ServiceError('BAD_INPUT', `Cache lifetime must be a whole number of seconds from 0 to ${MAX_CACHE_SECONDS}.`);
    }
    // The user's own setting: a colleague cannot make the owner's formulas spend the owner's quota.
    saveUserProperty(PROP.cacheTtlSeconds, String(n));
    return state();
  }, knownSecrets);
}

export function testConnection(): Answer<{ message: string; totalItems: number }> {
  return answer(() => {
    const s = readSettings();
    const outcome = clientFor('run', s).activePartnerPages([1], 1)[0];
    if (!outcome.ok) throw outcome.error;
    const total = outcome.value.pagination.totalItems;
    return { message: `Connected to ${hostOf(s.baseUrl)}: ${total} active limited partners.`, totalItems: total };
  }, knownSecrets);
}

export function refreshFormulas(): Answer<{ count: number; found: number }> {
  return answer(() => {
    const r = refreshAddinFormulas();
    return { count: r.refreshed, found: r.found };
  }, knownSecrets);
}
