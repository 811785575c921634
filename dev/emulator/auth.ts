/**
 * Authorization modes (ScriptApp.AuthMode) and OAuth scopes. Every execution runs in one mode:
 * NONE (an add-on's onOpen in a document where it is installed but not yet used), LIMITED (the
 * onOpen/onEdit simple triggers of a bound script or an enabled add-on), CUSTOM_FUNCTION, or
 * FULL (menus, sidebars, installable triggers, onInstall, the editor). What each mode may call:
 *
 * - NONE: no service that needs authorization, no document, no properties, caches or locks;
 *   of the UI only menus (createMenu/createAddonMenu). Utilities, logging, HtmlService objects and
 *   ScriptApp's enums stay available.
 * - LIMITED: the bound document, menus, properties, caches, locks; nothing that needs a scope
 *   other than the current spreadsheet (no UrlFetchApp, no triggers, no dialogs or sidebars).
 * - FULL: everything the manifest's `oauthScopes` grant (when the project has a manifest) that
 *   the executing user has granted: with granular consent a user may grant some of an add-on's
 *   scopes and decline others (https://developers.google.com/apps-script/concepts/scopes), and a
 *   call needing a declined scope fails as one the manifest lacks. Session's getActiveUser and
 *   getEffectiveUser are the exception: without a granted userinfo.email their getEmail() is ''
 *   ("a blank string if security policies do not allow access to the user's email address",
 *   https://developers.google.com/apps-script/reference/base/user), as long as the manifest
 *   asks for the scope.
 *
 * A refused call throws Google's wording: `Exception: You do not have permission to call
 * UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request`
 * (without the "Required permissions" part where the member needs no scope).
 */

export type AuthModeName = 'NONE' | 'LIMITED' | 'FULL' | 'CUSTOM_FUNCTION';
export const AUTH_MODE_NAMES: readonly AuthModeName[] = ['NONE', 'LIMITED', 'FULL', 'CUSTOM_FUNCTION'];

/** An Apps Script enum value: compared by identity, printed as its name. */
export interface EnumValue {
  name(): string;
  toString(): string;
  toJSON(): string;
}

export function enumValue(name: string): EnumValue {
  return Object.freeze({ name: () => name, toString: () => name, toJSON: () => name });
}

/** ScriptApp.AuthMode: one object per mode, shared by every execution (so `===` works across them). */
export const AUTH_MODE: Readonly<Record<AuthModeName, EnumValue>> = Object.freeze(
  Object.fromEntries(AUTH_MODE_NAMES.map((n) => [n, enumValue(n)])) as Record<AuthModeName, EnumValue>,
);

export const SCOPE = {
  spreadsheetsCurrent: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  spreadsheets: 'https://www.googleapis.com/auth/spreadsheets',
  externalRequest: 'https://www.googleapis.com/auth/script.external_request',
  scriptApp: 'https://www.googleapis.com/auth/script.scriptapp',
  containerUi: 'https://www.googleapis.com/auth/script.container.ui',
  email: 'https://www.googleapis.com/auth/userinfo.email',
  sendMail: 'https://www.googleapis.com/auth/script.send_mail',
} as const;

/** Any one of these scopes allows the call. */
export type ScopeNeed = readonly string[];

const DOCUMENT: ScopeNeed = [SCOPE.spreadsheetsCurrent, SCOPE.spreadsheets];
const TRIGGERS = new Set(['newTrigger', 'getProjectTriggers', 'getUserTriggers', 'deleteTrigger']);
/** Services that need no scope but hold user or document data, which AuthMode.NONE may not touch. */
const DATA_SERVICES = new Set(['PropertiesService', 'CacheService', 'LockService']);

/** The scopes a top-level service member needs ([] = none). */
export function scopesFor(service: string, member: string): ScopeNeed {
  if (service === 'UrlFetchApp') return [SCOPE.externalRequest];
  if (service === 'MailApp') return [SCOPE.sendMail];
  if (service === 'ScriptApp' && TRIGGERS.has(member)) return [SCOPE.scriptApp];
  if (service === 'SpreadsheetApp' && member !== 'getUi') return DOCUMENT;
  if (readsEmail(service, member)) return [SCOPE.email];
  if (service === 'Ui' && /^show/.test(member)) return [SCOPE.containerUi];
  return [];
}

/** Members whose scope (userinfo.email) only hides the email when the user declined it (utilities.ts). */
export function readsEmail(service: string, member: string): boolean {
  return service === 'Session' && (member === 'getActiveUser' || member === 'getEffectiveUser');
}

function needText(need: ScopeNeed): string {
  return need.length === 1 ? need[0] : `(${need.join(' || ')})`;
}

/**
 * Why `Service.member` may not run in this mode with these granted scopes, or undefined when it
 * may. `granted` null means the project declares no scopes (every scope is granted on consent).
 */
export function refusal(
  mode: AuthModeName,
  service: string,
  member: string,
  granted: ReadonlySet<string> | null,
): string | undefined {
  if (mode === 'CUSTOM_FUNCTION') return undefined; // custom functions have their own rules (runtime.ts, readOnly)
  const need = scopesFor(service, member);
  const what = `${service}.${member}`;
  const denied = need.length
    ? `Exception: You do not have permission to call ${what}. Required permissions: ${needText(need)}`
    : `Exception: You do not have permission to call ${what}`;
  if (mode === 'NONE') {
    const menusOnly = service === 'Ui' && member !== 'createMenu' && member !== 'createAddonMenu';
    if (need.length || DATA_SERVICES.has(service) || menusOnly) return denied;
    return undefined;
  }
  if (mode === 'LIMITED') return need.length && need !== DOCUMENT ? denied : undefined;
  if (granted && need.length && !need.some((s) => granted.has(s))) return denied;
  return undefined;
}
