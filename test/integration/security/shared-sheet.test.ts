/**
 * A shared spreadsheet, tried as a careless or hostile editor would: the
 * editor points the document at their own server and sets the cache lifetime to 0. The owner's
 * key must never reach that server (formulas and scheduled runs use the owner's key), the owner
 * is told what changed, and the owner's cache lifetime is the owner's alone.
 */
import { addin } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { DEMO_KEY, type RunningService, servicesForThisFile } from '../../helpers/service';

const EDITOR = 'editor@example.com';
const services = servicesForThisFile(2, ['--partners', '300']);
let svc: RunningService;
let other: RunningService;
beforeAll(() => {
  [svc, other] = services;
});

test("an editor's new address gets none of the owner's requests until the owner confirms it", async () => {
  const a = addin(svc.url, null);
  expect(call(a.emu, 'saveApiKey', [DEMO_KEY, svc.url])).toMatchObject({
    ok: true,
    hasKey: true,
    addressConfirmed: true,
    check: 'accepted',
  });
  expect(a.cell('LP_GET', 'lp_0000a', 'id').value).toBe('lp_0000a');
  const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id'] });
  expect(runImport(a.emu, id).pop()?.status).toBe('done');
  const before = sheet(a.emu, 'Partners');
  call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]);

  const edit = a.emu.run('saveSettings', [{ baseUrl: other.url }], { kind: 'sidebar', user: EDITOR });
  expect(edit.value).toMatchObject({ ok: true, baseUrl: other.url, hasKey: false });
  await other.resetStats();

  const cell = a.cell('LP_GET', 'lp_0000b', 'id');
  expect(cell.error).toMatch(
    /^The service address of this spreadsheet is 127\.0\.0\.1:\d+, but the API key was saved for 127\.0\.0\.1:\d+; the key is not sent\./,
  );
  expect(cell.run.ledger.fetches).toBe(0);
  a.emu.advance(2 * 3_600_000);
  expect(sheet(a.emu, 'Partners')).toEqual(before);
  expect((await other.stats()).requests).toBe(0);
  const state = call(a.emu, 'getSidebarState', []);
  expect(state).toMatchObject({ ok: true, addressConfirmed: false, keyAddress: svc.url, baseUrl: other.url });

  expect(call(a.emu, 'sendKeyTo', [other.url])).toMatchObject({
    ok: true,
    addressConfirmed: true,
    keyAddress: other.url,
  });
  expect(a.cell('LP_GET', 'lp_0000b', 'id').value).toBe('lp_0000b');
  expect((await other.stats()).requests).toBe(1);
});

test("an editor's cache lifetime of 0 is the editor's own: the owner's warm formulas still cost nothing", () => {
  const a = addin(svc.url);
  a.cell('LP_GET', [['lp_0000a'], ['lp_0000b']], 'id');
  const edit = a.emu.run('saveSettings', [{ ttlSeconds: 0 }], { kind: 'sidebar', user: EDITOR });
  expect(edit.value).toMatchObject({ ok: true, ttlSeconds: 0 });
  const warm = a.cell('LP_GET', [['lp_0000a'], ['lp_0000b']], 'id');
  expect(warm.run.ledger.fetches).toBe(0);
  expect(call(a.emu, 'getSidebarState', [])).toMatchObject({ ok: true, ttlSeconds: 3600 });
});

test("Diagnostics, run by the owner after an editor changed the address, sends the owner's key nowhere", async () => {
  const a = addin(svc.url);
  a.emu.run('saveSettings', [{ baseUrl: other.url }], { kind: 'sidebar', user: EDITOR });
  await other.resetStats();
  const d = call(a.emu, 'getDiagnostics', []);
  expect(d.ok && d.checks.find((c) => c.name === 'Key bound to this address')).toMatchObject({ status: 'FAIL' });
  expect((await other.stats()).requests).toBe(0);
});
