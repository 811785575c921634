/** The manifest checks of the build: least-privilege scopes that match the bundle's calls, and the add-on URL allowlist. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCode, unpackedText } from '../../../scripts/build-lib';
import { buildManifest, checkAllowlistPrefix, type Manifest } from '../../../scripts/manifest';

const root = join(__dirname, '../../..');
const source = JSON.parse(readFileSync(join(root, 'appsscript.json'), 'utf8')) as Manifest;
const AUTH = 'https://www.googleapis.com/auth/';

describe('manifest', () => {
  /** Everything the bundle can run: Code.js and its deferred parts' text. */
  let code = '';
  beforeAll(async () => {
    const built = await buildCode(root);
    code = unpackedText(built.code, built.parts);
  });

  test("the repository's manifest asks for exactly the scopes the bundle needs, and no allowlist unless asked", () => {
    expect(buildManifest(source, code, {})).toEqual(source);
    expect([...(source.oauthScopes ?? [])].sort()).toEqual([
      `${AUTH}script.container.ui`,
      `${AUTH}script.external_request`,
      `${AUTH}script.scriptapp`,
      `${AUTH}script.send_mail`,
      `${AUTH}spreadsheets.currentonly`,
      `${AUTH}userinfo.email`,
    ]);
  });

  test('a missing, unused, unknown or too broad scope fails the build with the reason', () => {
    const without = (scope: string) => ({ ...source, oauthScopes: source.oauthScopes?.filter((s) => s !== scope) });
    expect(() => buildManifest(without(`${AUTH}script.external_request`), code, {})).toThrow(
      `appsscript.json lacks ${AUTH}script.external_request, which requests to the data service need.`,
    );
    expect(() =>
      buildManifest(source, code.replace(/ScriptApp\.(newTrigger|getProjectTriggers|deleteTrigger)/g, 'X'), {}),
    ).toThrow('but dist/Code.js never needs it');
    expect(() =>
      buildManifest({ ...source, oauthScopes: [...(source.oauthScopes ?? []), `${AUTH}spreadsheets`] }, code, {}),
    ).toThrow('broader scopes than the add-in needs');
    expect(() =>
      buildManifest({ ...source, oauthScopes: [...(source.oauthScopes ?? []), `${AUTH}gmail.send`] }, code, {}),
    ).toThrow('scopes the add-in does not use');
    expect(() => buildManifest({ ...source, oauthScopes: undefined }, code, {})).toThrow('must list oauthScopes');
  });

  test('ADDON_URL_ALLOWLIST becomes urlFetchWhitelist; each prefix must be https with a full domain and a path', () => {
    expect(
      buildManifest(source, code, { ADDON_URL_ALLOWLIST: 'https://api.example.com/, https://*.example.org/v1/' })
        .urlFetchWhitelist,
    ).toEqual(['https://api.example.com/', 'https://*.example.org/v1/']);
    for (const bad of [
      'http://api.example.com/',
      'https://api.example.com',
      'https://localhost/',
      'https://api.*.example.com/',
    ]) {
      expect(() => checkAllowlistPrefix(bad)).toThrow('is not an https URL prefix');
    }
  });
});
