/**
 * Scopes granted one by one, through the deployed bundle in the emulator: a user who declines
 * sending mail, or showing their address, keeps every other feature (key, imports, schedules,
 * formulas); the sidebar says alerts are off and why, an alert is refused at save with that
 * reason, a run whose user cannot send mail says so in the run log, and Allow alerts asks Google
 * for the two scopes.
 */
import type { Emulator } from '../../../dev/emulator/runtime';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { addin } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { activeIds, DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '60', '--max-page-size', '50']);
});
afterAll(() => svc.stop());

const OWNER = 'owner@example.com';
const SEND_MAIL = 'https://www.googleapis.com/auth/script.send_mail';
const EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
const MANIFEST = [
  'https://www.googleapis.com/auth/spreadsheets.currentonly',
  'https://www.googleapis.com/auth/script.external_request',
  'https://www.googleapis.com/auth/script.container.ui',
  'https://www.googleapis.com/auth/script.scriptapp',
  SEND_MAIL,
  EMAIL,
];
const without = (...scopes: string[]) => MANIFEST.filter((s) => !scopes.includes(s));
const HOUR = 3_600_000;

const alertsOff = (emu: Emulator) => {
  const s = call(emu, 'getSidebarState', []);
  if (!s.ok) throw new Error(s.message);
  return s.alertsOff;
};

test.each([
  ['sending mail', [SEND_MAIL], /not allowed the add-in to send email as you\./],
  ['their address', [EMAIL], /not allowed the add-in to see your email address\./],
])(
  'a user who declined %s keeps imports, schedules and formulas; alerts are off, saying why',
  (_what, declined, why) => {
    const a = addin(svc.url, DEMO_KEY, { userScopes: { [OWNER]: without(...declined) } });
    expect(alertsOff(a.emu)).toMatch(why);
    const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'firm'] });
    expect(runImport(a.emu, id).at(-1)?.status).toBe('done');
    expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
    a.emu.advance(2 * HOUR);
    expect(
      sheet(a.emu, 'Investor Data log')
        .slice(1)
        .map((r) => r[RUN_LOG_HEADER.indexOf('Outcome')]),
    ).toEqual(['done', 'done', 'done']);
    const cell = a.cell('LP_GET', 'lp_0000a', 'firm');
    expect([cell.error, typeof (cell.value as unknown[][])[0][0]]).toEqual([undefined, 'string']);
    const alert = call(a.emu, 'saveImport', [
      { id, sheetName: 'Partners', fields: ['id', 'firm'], alert: { on: ['added'] } },
    ]);
    expect(alert.ok ? '' : alert.message).toMatch(
      /^Alerts are off: you have not allowed|^Your email address is not available/,
    );
    // Allow alerts asks Google; once granted, alerts are on and can be saved.
    expect(call(a.emu, 'allowAlerts', []).ok).toBe(false);
    a.emu.grantScopes(OWNER, null);
    const allowed = call(a.emu, 'allowAlerts', []);
    expect(allowed.ok && allowed.alertsOff).toBe('');
    expect(
      call(a.emu, 'saveImport', [{ id, sheetName: 'Partners', fields: ['id', 'firm'], alert: { on: ['added'] } }]).ok,
    ).toBe(true);
  },
);

test('an alert whose runner can no longer send mail says so in the run log; the data still lands', async () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Watched', fields: ['id', 'upvotes'], alert: { on: ['changed'] } });
  runImport(a.emu, id);
  a.emu.grantScopes(OWNER, without(SEND_MAIL));
  await svc.mutate({ touch: [(await activeIds(svc))[2]] });
  const last = runImport(a.emu, id).at(-1);
  expect(last?.status).toBe('done');
  expect(last?.message).toContain(`Alert not sent: ${OWNER} has not allowed the add-in to send email as them`);
  expect(sheet(a.emu, 'Investor Data log').at(-1)?.[RUN_LOG_HEADER.indexOf('Alert')]).toBe('not sent');
  expect(a.emu.mail.sent).toEqual([]);
});
