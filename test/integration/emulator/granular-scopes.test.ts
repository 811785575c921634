/**
 * Granular consent: a user may grant an add-on some of its manifest's scopes and decline others
 * (https://developers.google.com/apps-script/concepts/scopes). A call needing a declined scope
 * fails as one the manifest lacks; ScriptApp.getAuthorizationInfo, requireScopes and
 * requireAllScopes answer from the user's grants; getEmail() is '' without userinfo.email.
 */
import { SCOPE } from '../../../dev/emulator/auth';
import { ScriptProject } from '../../../dev/emulator/runtime';
import { probe } from '../../helpers/probe';

const PROBES = `
function mail() { MailApp.sendEmail('someone@example.com', 'Subject', 'Body'); return 'sent'; }
function write() { SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange(1, 1).setValue('x'); PropertiesService.getUserProperties().setProperty('k', 'v'); return 'written'; }
function info(scopes) {
  var i = scopes ? ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL, scopes) : ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL);
  return [i.getAuthorizationStatus() === ScriptApp.AuthorizationStatus.REQUIRED ? 'REQUIRED' : i.getAuthorizationStatus() === ScriptApp.AuthorizationStatus.NOT_REQUIRED ? 'NOT_REQUIRED' : 'neither', i.getAuthorizedScopes(), i.getAuthorizationUrl() !== null];
}
function infoLimited() { return String(ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.LIMITED).getAuthorizationStatus()); }
function require(scopes) { ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, scopes); return 'granted'; }
function requireAll() { ScriptApp.requireAllScopes(ScriptApp.AuthMode.FULL); return 'granted'; }
function emails() { return [Session.getEffectiveUser().getEmail(), Session.getActiveUser().getEmail()]; }
`;

const MANIFEST = [
  SCOPE.spreadsheetsCurrent,
  SCOPE.externalRequest,
  SCOPE.containerUi,
  SCOPE.scriptApp,
  SCOPE.sendMail,
  SCOPE.email,
];
const USER = 'analyst@example.com';
const ALL_BUT = (scope: string) => MANIFEST.filter((s) => s !== scope);

describe('a user who declined script.send_mail', () => {
  const emu = () => probe(PROBES, { oauthScopes: MANIFEST, userScopes: { [USER]: ALL_BUT(SCOPE.sendMail) } });

  test('MailApp.sendEmail fails with the permission message; other calls work; the owner may send', () => {
    const e = emu();
    expect(e.run('mail', [], { user: USER }).error).toBe(
      `Exception: You do not have permission to call MailApp.sendEmail. Required permissions: ${SCOPE.sendMail}`,
    );
    expect(e.mail.sent).toHaveLength(0);
    expect(e.run('write', [], { user: USER }).value).toBe('written');
    expect(e.run('mail').value).toBe('sent');
  });

  test('getAuthorizationInfo says REQUIRED for send_mail and NOT_REQUIRED for what was granted', () => {
    const e = emu();
    expect(e.run('info', [[SCOPE.sendMail, SCOPE.externalRequest]], { user: USER }).value).toEqual([
      'REQUIRED',
      [SCOPE.externalRequest],
      true,
    ]);
    expect(e.run('info', [[SCOPE.externalRequest]], { user: USER }).value).toEqual([
      'NOT_REQUIRED',
      [SCOPE.externalRequest],
      false,
    ]);
    expect(e.run('info', [], { user: USER }).value).toEqual(['REQUIRED', ALL_BUT(SCOPE.sendMail), true]);
    expect(e.run('info', []).value).toEqual(['NOT_REQUIRED', MANIFEST, false]);
    expect(e.run('infoLimited', [], { user: USER }).value).toBe('NOT_REQUIRED');
  });

  test('requireScopes and requireAllScopes end the execution unless every scope is granted', () => {
    const e = emu();
    const required = `Exception: Authorization is required to perform that action. Required permissions: ${SCOPE.sendMail}`;
    expect(e.run('require', [[SCOPE.sendMail, SCOPE.scriptApp]], { user: USER }).error).toBe(required);
    expect(e.run('requireAll', [], { user: USER }).error).toBe(required);
    expect(e.run('require', [[SCOPE.scriptApp]], { user: USER }).value).toBe('granted');
    expect(e.run('requireAll').value).toBe('granted');
  });

  test('granting every scope later (grantScopes null) lets the mail go', () => {
    const e = emu();
    e.grantScopes(USER, null);
    expect(e.run('mail', [], { user: USER }).value).toBe('sent');
    e.grantScopes(USER, [SCOPE.spreadsheetsCurrent]);
    expect(e.run('write', [], { user: USER }).value).toBe('written');
    expect(e.run('mail', [], { user: USER }).error).toContain('You do not have permission to call MailApp.sendEmail');
  });
});

describe('userinfo.email', () => {
  test("getEmail() is '' for a user who declined it, the address for one who granted it", () => {
    const e = probe(PROBES, { oauthScopes: MANIFEST, userScopes: { [USER]: ALL_BUT(SCOPE.email) } });
    expect(e.run('emails', [], { user: USER }).value).toEqual(['', '']);
    expect(e.run('emails').value).toEqual([e.owner, e.owner]);
  });

  test('a manifest without the scope still refuses the call, as before', () => {
    const e = probe(PROBES, { oauthScopes: ALL_BUT(SCOPE.email) });
    expect(e.run('emails').error).toBe(
      `Exception: You do not have permission to call Session.getEffectiveUser. Required permissions: ${SCOPE.email}`,
    );
  });
});

describe('grants belong to the project', () => {
  test('what a user declined in one document is declined in every document of the add-on', () => {
    const project = new ScriptProject({ addOn: true });
    const a = probe(PROBES, { project, oauthScopes: MANIFEST });
    const b = probe(PROBES, { project, oauthScopes: MANIFEST });
    a.grantScopes(USER, ALL_BUT(SCOPE.sendMail));
    expect(b.run('mail', [], { user: USER }).error).toContain('MailApp.sendEmail');
    expect(b.run('info', [[SCOPE.sendMail]], { user: USER }).value).toEqual(['REQUIRED', [], true]);
  });
});
