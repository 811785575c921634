/**
 * Sidebar endpoints for settings (google.script.run): the key, the service address, the cache
 * lifetime, the connection test and "refresh all formulas". Each returns a JSON-safe Answer
 * (src/contract.ts), never a thrown stack. The API key goes in once and never comes back: the
 * sidebar only ever sees its last four characters. A key is bound to a service address only by
 * its owner's consent naming that address in the same action (saveApiKey's `sendTo`, sendKeyTo);
 * nothing else binds it, so an editor who changes the document's address gets no key by any
 * button its owner presses. A key is checked with one request when it is saved. The state also
 * carries the day's fetch count beside the daily limit (the quota guard's count).
 */
import { ServiceError } from '../api/errors';
import { MAX_CACHE_SECONDS } from '../api/memo';
import { keyHint, keyProblem, redact } from '../api/redact';
import type { RetryPolicy } from '../api/retry';
import { addressProblem, normaliseBaseUrl } from '../api/url';
import {
  type Answer,
  answer,
  type FetchUsage,
  FieldError,
  type KeySaved,
  type SidebarOpened,
  type SidebarState,
} from '../contract';
import { clientFor, shownAddress, memoFor } from '../gas/context';
import { recoverInterruptedRefresh, refreshAddinFormulas } from '../gas/formulas';
import { fetchBudget } from '../gas/http';
import { featureOff, requireFeature } from '../gas/scopes';
import { syncTriggers } from '../gas/triggers';
import { me } from '../gas/user';
import {
  ensureDocumentCopy,
  knownSecrets,
  PROP,
  readSettings,
  type Settings,
  saveDocumentProperty,
  saveUserProperty,
} from '../gas/settings';

/** A key check is one request: no second attempt. */
const NO_RETRY: Partial<RetryPolicy> = { retries: 0, retriesWithoutCopy: 0 };

function state(): SidebarState {
  const s = readSettings();
  return {
    hasKey: !!s.apiKey,
    keyHint: s.apiKey ? keyHint(s.apiKey) : '',
    baseUrl: s.baseUrl,
    ttlSeconds: s.ttlSeconds,
    keyAddress: s.keyAddress,
    addressConfirmed: !s.apiKey || s.keyAddress === s.baseUrl,
    addressProblem: s.baseUrl ? addressProblem(s.baseUrl) : '',
    fetches: fetchUsage(s),
  };
}

function fetchUsage(s: Settings): FetchUsage {
  const { used, dailyLimit, allowed, resetsAt } = fetchBudget(s.dailyFetchLimit).usage();
  return resetsAt === undefined ? { used, dailyLimit, allowed } : { used, dailyLimit, allowed, resetsAt };
}

/** The state when the sidebar opens: its user's trigger kept right (armed again when it stopped firing) and shown. */
function opened(): SidebarOpened {
  // Opening the sidebar puts back formulas a killed "Refresh all formulas" left erased.
  recoverInterruptedRefresh();
  ensureDocumentCopy();
  return { ...state(), timer: syncTriggers(me()), alertsOff: featureOff('alerts') };
}

export function getSidebarState(): Answer<SidebarOpened> {
  return answer(opened, knownSecrets);
}

export function allowAlerts(): Answer<SidebarOpened> {
  return answer(() => {
    requireFeature('alerts');
    return opened();
  }, knownSecrets);
}

/**
 * The address `sendTo` names, when it is the spreadsheet's address now: what its owner confirmed
 * by name in the sidebar. Anything else (another editor changed the address meanwhile) is refused.
 */
function confirmedAddress(sendTo: unknown, s: Settings): string {
  const named = typeof sendTo === 'string' ? sendTo : '';
  const address = named ? serviceAddress(named) : '';
  if (!address || address !== s.baseUrl) {
    const now = s.baseUrl ? `is now ${shownAddress(s.baseUrl)}` : 'has no service address';
    throw new FieldError(
      'baseUrl',
      `This spreadsheet ${now}, not ${named ? shownAddress(address) : 'the address you confirmed'}: nothing was sent, saved or changed. Check the service address and confirm it again.`,
    );
  }
  return address;
}

/** Why a key bound to `address` is not sent now (undefined: it is, to the spreadsheet's address). */
function notSentBecause(address: string, s: Settings): string | undefined {
  if (!s.baseUrl) return 'this spreadsheet has no service address yet';
  if (!address) return 'you have not confirmed an address for it';
  if (address !== s.baseUrl)
    return `it is bound to ${shownAddress(address)}, not to this spreadsheet's ${shownAddress(s.baseUrl)}`;
  return undefined;
}

/**
 * One request with the new key to the address it will be bound to (no retry; counted by the quota
 * guard like every fetch). A refusal by the service throws: the key is not saved. Any other
 * failure is a note: the key is saved unchecked, and the note says why.
 */
function checkKey(key: string, address: string, s: Settings): string | undefined {
  const trial: Settings = { ...s, apiKey: key, keyAddress: address, storedNamespace: '' };
  const outcome = clientFor('run', trial, memoFor(trial), false, NO_RETRY).activePartnerPages([1], 1)[0];
  if (outcome.ok) return undefined;
  const e = outcome.error;
  if (e.code === 'AUTH') {
    throw new FieldError(
      'apiKey',
      `The service at ${shownAddress(address)} refused this key${e.status ? ` (HTTP ${e.status})` : ''}, so it was not saved. Check the key and paste it again.`,
      'AUTH',
    );
  }
  return redact(`it could not be checked: ${e.message}`, [key]);
}

export function saveApiKey(key: unknown, sendTo?: unknown): Answer<KeySaved> {
  const text = typeof key === 'string' ? key.trim() : '';
  return answer(
    () => {
      if (!text) throw new FieldError('apiKey', 'Paste your API key first.');
      const problem = keyProblem(text);
      if (problem) throw new FieldError('apiKey', `That key cannot be saved: ${problem}`);
      const s = readSettings();
      // Bound to the address its owner confirmed in this action, or to the one confirmed before: never to whatever the document holds.
      const address = sendTo === undefined || sendTo === null ? s.keyAddress : confirmedAddress(sendTo, s);
      const unsent = notSentBecause(address, s);
      const unreached = unsent ? undefined : checkKey(text, address, s);
      saveUserProperty(PROP.apiKey, text);
      saveUserProperty(PROP.keyAddress, address || null);
      const note = unsent
        ? `Key saved, not checked: it is sent nowhere until you confirm this spreadsheet's service address for it (${unsent}).`
        : unreached
          ? `Key saved, but ${unreached}`
          : `Key saved and accepted by ${shownAddress(address)}.`;
      return { ...state(), check: unsent || unreached ? 'unchecked' : 'accepted', note };
    },
    () => [...knownSecrets(), text],
  );
}

export function sendKeyTo(address: unknown): Answer<SidebarState> {
  return answer(() => {
    const s = readSettings();
    if (!s.apiKey) throw new FieldError('apiKey', 'No API key is saved: paste your key first.', 'NO_KEY');
    saveUserProperty(PROP.keyAddress, confirmedAddress(address, s));
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

function cacheSeconds(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_CACHE_SECONDS) {
    throw new FieldError(
      'ttlSeconds',
      `Cache lifetime must be a whole number of seconds from 0 to ${MAX_CACHE_SECONDS}.`,
    );
  }
  return value;
}

function serviceAddress(value: unknown): string {
  try {
    return normaliseBaseUrl(typeof value === 'string' ? value : '');
  } catch (e) {
    throw new FieldError('baseUrl', e instanceof Error ? e.message : String(e));
  }
}

/**
 * Saves only what the user changed, after checking all of it (nothing is saved when one value is
 * refused; nothing is coerced). The service address is the document's; saving it binds no key to
 * it: each key holder confirms it for their own key (sendKeyTo, or saveApiKey's `sendTo`).
 */
export function saveSettings(change: unknown): Answer<SidebarState> {
  return answer(() => {
    if (typeof change !== 'object' || change === null || Array.isArray(change))
      throw new ServiceError('BAD_INPUT', 'Settings must be sent as { baseUrl?, ttlSeconds? }.');
    const c = change as Record<string, unknown>;
    const address = c.baseUrl === undefined ? undefined : serviceAddress(c.baseUrl);
    // The user's own setting: a colleague cannot make the owner's formulas spend the owner's quota.
    const seconds = c.ttlSeconds === undefined ? undefined : cacheSeconds(c.ttlSeconds);
    if (address !== undefined) saveDocumentProperty(PROP.baseUrl, address);
    if (seconds !== undefined) saveUserProperty(PROP.cacheTtlSeconds, String(seconds));
    return state();
  }, knownSecrets);
}

export function testConnection(): Answer<{ message: string; totalItems: number }> {
  return answer(() => {
    const s = readSettings();
    const outcome = clientFor('run', s).activePartnerPages([1], 1)[0];
    if (!outcome.ok && outcome.error.code === 'AUTH') {
      throw new FieldError(
        'apiKey',
        `The service at ${shownAddress(s.keyAddress)} refused your saved key${outcome.error.status ? ` (HTTP ${outcome.error.status})` : ''}. Paste the right key and save it.`,
        'AUTH',
      );
    }
    if (!outcome.ok) throw outcome.error;
    const total = outcome.value.pagination.totalItems;
    return { message: `Connected to ${shownAddress(s.baseUrl)}: ${total} active limited partners.`, totalItems: total };
  }, knownSecrets);
}

export function refreshFormulas(): Answer<{ count: number; found: number }> {
  return answer(() => {
    const r = refreshAddinFormulas();
    return { count: r.refreshed, found: r.found };
  }, knownSecrets);
}
