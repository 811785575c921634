/**
 * dist/appsscript.json from appsscript.json, with two checks. Least privilege: the manifest's
 * oauthScopes must be exactly the scopes the bundle's Apps Script calls need (a scope nothing
 * uses, or a call no scope covers, fails the build). Add-on allowlist: `ADDON_URL_ALLOWLIST`
 * (comma-separated https prefixes) becomes `urlFetchWhitelist`, which Google requires for a
 * versioned deployment (what an Editor add-on is published from) and then enforces on every
 * fetch; each prefix must follow Google's rules (https, a full domain, a non-empty path).
 */
import { BuildError } from './build-lib';

export interface Manifest {
  timeZone?: string;
  runtimeVersion?: string;
  oauthScopes?: string[];
  urlFetchWhitelist?: string[];
  [field: string]: unknown;
}

const AUTH = 'https://www.googleapis.com/auth/';

/** Each scope the add-in may ask for, and the calls in dist/Code.js that need it. */
export const SCOPE_USES: ReadonlyArray<{ scope: string; use: RegExp; why: string }> = [
  {
    scope: `${AUTH}spreadsheets.currentonly`,
    use: /\bSpreadsheetApp\.(getActive|flush)/,
    why: 'the spreadsheet the add-in runs in',
  },
  { scope: `${AUTH}script.external_request`, use: /\bUrlFetchApp\.fetch/, why: 'requests to the data service' },
  {
    scope: `${AUTH}script.container.ui`,
    use: /\.show(Sidebar|ModalDialog|ModelessDialog)\(/,
    why: 'the sidebar and dialogs',
  },
  {
    scope: `${AUTH}script.scriptapp`,
    use: /\bScriptApp\.(newTrigger|getProjectTriggers|deleteTrigger)/,
    why: 'scheduled imports (triggers)',
  },
  {
    scope: `${AUTH}script.send_mail`,
    use: /\bMailApp\.(sendEmail|getRemainingDailyQuota)/,
    why: 'alert emails about changed partners',
  },
  {
    scope: `${AUTH}userinfo.email`,
    use: /\bSession\.get(Effective|Active)User/,
    why: "the address an alert is sent to (its owner's, recorded when saved)",
  },
];

/** Broader scopes that would also work and must not be asked for. */
const TOO_BROAD = [`${AUTH}spreadsheets`, `${AUTH}drive`, `${AUTH}drive.file`, `${AUTH}script.external_request.all`];

/** `text`: everything the bundle can run (build-lib.ts, unpackedText: Code.js and its deferred parts' text). */
export function checkScopes(manifest: Manifest, text: string): void {
  const declared = manifest.oauthScopes;
  if (!Array.isArray(declared))
    throw new BuildError(
      'appsscript.json must list oauthScopes (explicit, least-privilege scopes; Google would otherwise infer broad ones).',
    );
  const broad = declared.filter((s) => TOO_BROAD.includes(s));
  if (broad.length)
    throw new BuildError(`appsscript.json asks for broader scopes than the add-in needs: ${broad.join(', ')}.`);
  for (const { scope, use, why } of SCOPE_USES) {
    const used = use.test(text);
    if (used && !declared.includes(scope)) throw new BuildError(`appsscript.json lacks ${scope}, which ${why} need.`);
    if (!used && declared.includes(scope))
      throw new BuildError(`appsscript.json asks for ${scope} (${why}) but dist/Code.js never needs it.`);
  }
  const unknown = declared.filter((s) => !SCOPE_USES.some((u) => u.scope === s));
  if (unknown.length)
    throw new BuildError(`appsscript.json asks for scopes the add-in does not use: ${unknown.join(', ')}.`);
  if (manifest.runtimeVersion !== 'V8') throw new BuildError('appsscript.json must set "runtimeVersion": "V8".');
}

/** A urlFetchWhitelist prefix by Google's rules: https, a full domain, a non-empty path (wildcard only as a leading *.). */
export function checkAllowlistPrefix(prefix: string): string {
  const m = /^https:\/\/(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)+)(:\d{1,5})?(\/[^\s?#]*)$/i.exec(prefix);
  if (!m)
    throw new BuildError(
      `ADDON_URL_ALLOWLIST: "${prefix}" is not an https URL prefix with a full domain and a path (e.g. https://api.example.com/).`,
    );
  return prefix;
}

export function buildManifest(source: Manifest, text: string, env: NodeJS.ProcessEnv = process.env): Manifest {
  checkScopes(source, text);
  const allow = (env.ADDON_URL_ALLOWLIST ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (allow.length === 0) return source;
  return { ...source, urlFetchWhitelist: allow.map(checkAllowlistPrefix) };
}
