/**
 * The scopes a user granted. Google lets a user grant an add-on's scopes one by one (granular
 * consent): the alert is the only feature that needs to send mail, and an alert's owner is the
 * only use of the user's address. Each is asked of Apps Script (getAuthorizationInfo with the
 * scope), never assumed from the manifest, so a user who declined one keeps everything else and
 * the sidebar says which feature is off and why.
 */
export const SCOPE = {
  sendMail: 'https://www.googleapis.com/auth/script.send_mail',
  email: 'https://www.googleapis.com/auth/userinfo.email',
} as const;

export type Feature = 'alerts';

/** The scopes each feature needs. */
const NEEDS: Record<Feature, readonly string[]> = { alerts: [SCOPE.sendMail, SCOPE.email] };

/** Whether the user this execution runs as granted `scopes`. */
export function granted(scopes: readonly string[]): boolean {
  // Google's signature takes the scopes to ask about (granular consent); the type package knows only the first argument.
  const ask = ScriptApp.getAuthorizationInfo as (
    mode: GoogleAppsScript.Script.AuthMode,
    scopes: string[],
  ) => GoogleAppsScript.Script.AuthorizationInfo;
  const info = ask(ScriptApp.AuthMode.FULL, [...scopes]);
  return info.getAuthorizationStatus() !== ScriptApp.AuthorizationStatus.REQUIRED;
}

/** Why `feature` is off for this user ('' when it is on). */
export function featureOff(feature: Feature): string {
  const missing = NEEDS[feature].filter((s) => !granted([s]));
  if (!missing.length) return '';
  const what = missing.map((s) => (s === SCOPE.sendMail ? 'send email as you' : 'see your email address'));
  return `Alerts are off: you have not allowed the add-in to ${what.join(' or ')}. Everything else works; choose Allow alerts to grant it.`;
}

/** Asks Google for the scopes `feature` needs (the consent prompt, where they are not granted yet). */
export function requireFeature(feature: Feature): void {
  ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, [...NEEDS[feature]]);
}
