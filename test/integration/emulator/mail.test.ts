/**
 * The emulated MailApp against Google's documentation: its four sendEmail signatures and the
 * options used (htmlBody, cc, bcc, name, replyTo), a daily quota of recipients per user that
 * resets 24 hours after the window's first send, Google's error when it is spent (nothing sent),
 * the script.send_mail scope, and no mail from custom functions or simple triggers.
 */
import { Emulator } from '../../../dev/emulator/runtime';

const SEND_MAIL = 'https://www.googleapis.com/auth/script.send_mail';
const probe = `
function quota() { return MailApp.getRemainingDailyQuota(); }
function message(m) { MailApp.sendEmail(m); return MailApp.getRemainingDailyQuota(); }
function three(to, s, b) { MailApp.sendEmail(to, s, b); }
function withOptions(to, s, b, o) { MailApp.sendEmail(to, s, b, o); }
function replyTo(to, r, s, b) { MailApp.sendEmail(to, r, s, b); }
`;

const emulator = (options: ConstructorParameters<typeof Emulator>[0] = {}) =>
  new Emulator({ code: probe, oauthScopes: [SEND_MAIL], ...options });

test('each signature sends one message with its recipients, bodies and options, from the user the execution runs as', () => {
  const emu = emulator();
  expect(emu.run('quota').value).toBe(100);
  expect(
    emu.run('message', [
      {
        to: 'a@example.com, b@example.com',
        cc: 'c@example.com',
        subject: 'S',
        body: 'plain',
        htmlBody: '<b>html</b>',
        name: 'Investor Data',
      },
    ]).value,
  ).toBe(97);
  expect(emu.run('three', ['d@example.com', 'S3', 'B3'], { user: 'other@example.com' }).error).toBeUndefined();
  expect(
    emu.run('withOptions', ['e@example.com', 'S4', 'B4', { bcc: 'f@example.com', htmlBody: '<p>x</p>' }]).error,
  ).toBeUndefined();
  expect(emu.run('replyTo', ['g@example.com', 'reply@example.com', 'S5', 'B5']).error).toBeUndefined();
  expect(emu.mail.sent.map((m) => [m.from, m.to, m.cc, m.bcc, m.subject, m.body, m.htmlBody, m.replyTo])).toEqual([
    [emu.owner, ['a@example.com', 'b@example.com'], ['c@example.com'], [], 'S', 'plain', '<b>html</b>', undefined],
    ['other@example.com', ['d@example.com'], [], [], 'S3', 'B3', undefined, undefined],
    [emu.owner, ['e@example.com'], [], ['f@example.com'], 'S4', 'B4', '<p>x</p>', undefined],
    [emu.owner, ['g@example.com'], [], [], 'S5', 'B5', undefined, 'reply@example.com'],
  ]);
  expect(emu.mail.sent[0].name).toBe('Investor Data');
  expect(emu.run('three', ['not an address', 'S', 'B']).error).toBe('Exception: Invalid email: not an address');
});

test('the quota counts recipients per user, refuses a send past it (nothing sent) and resets 24 hours after the first send', () => {
  const emu = emulator({ mailQuota: 3 });
  expect(emu.run('message', [{ to: 'a@example.com,b@example.com', subject: 'S', body: '' }]).value).toBe(1);
  expect(emu.run('message', [{ to: 'a@example.com,b@example.com', subject: 'S', body: '' }]).error).toBe(
    'Exception: Service invoked too many times for one day: email.',
  );
  expect(emu.mail.sent).toHaveLength(1);
  expect(emu.run('quota', [], { user: 'other@example.com' }).value).toBe(3);
  emu.clock.advance(24 * 3_600_000 - 1000);
  expect(emu.run('quota').value).toBe(1);
  emu.clock.advance(1000);
  expect(emu.run('quota').value).toBe(3);
});

test('sending needs script.send_mail; custom functions and simple triggers cannot send', () => {
  const without = new Emulator({
    code: probe,
    oauthScopes: ['https://www.googleapis.com/auth/spreadsheets.currentonly'],
  });
  expect(without.run('three', ['a@example.com', 'S', 'B']).error).toBe(
    `Exception: You do not have permission to call MailApp.sendEmail. Required permissions: ${SEND_MAIL}`,
  );
  const emu = emulator();
  expect(emu.run('quota', [], { kind: 'custom-function' }).error).toMatch(/You do not have permission to call MailApp/);
  expect(emu.run('three', ['a@example.com', 'S', 'B'], { kind: 'simple-trigger' }).error).toMatch(
    /You do not have permission to call MailApp.sendEmail/,
  );
  expect(emu.mail.sent).toHaveLength(0);
});
