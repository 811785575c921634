/**
 * Every setting of a saved import is changed in the sidebar alone, by keyboard: Edit settings on
 * its item puts the columns, mode, filters, sort, history and alert in the form, and Save without
 * running keeps them. What the ownership rules refuse is said beside the control it is about (an
 * alert of another editor is locked, saying whose it is; an alert on another editor's schedule is
 * refused under the alert's controls). The open sidebar shows what it did not do itself: another
 * save, a scheduled run that failed (with its run-log row and what to do). Real dist/Sidebar.html
 * in Chromium, google.script.run backed by the bundle in an emulator of this process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { addin } from '../helpers/addin';
import { shot } from '../helpers/browser';
import { call, saveImport, sheet } from '../helpers/imports';
import { DEMO_KEY, type RunningService, servicesForThisFile } from '../helpers/service';
import { focused, press, type SidebarPage, tabTo, violations, sidebarsForThisFile } from '../helpers/sidebar-page';
import { RUN_LOG_HEADER } from '../../src/import/end';

const EDITOR = 'editor@example.com';
const EDITOR_KEY = 'editor-key-9876543210';
const HOUR = 3_600_000;
const services = servicesForThisFile(1, ['--partners', '120', '--keys', `${DEMO_KEY},${EDITOR_KEY}`]);
let svc: RunningService;

const openFor = sidebarsForThisFile();
beforeAll(() => {
  [svc] = services;
});

const sidebarFor = (a: ReturnType<typeof addin>): Promise<SidebarPage> => openFor(a.emu);

const itemOf = (s: SidebarPage, sheetName: string): Locator =>
  s.page
    .getByRole('list', { name: 'Saved imports' })
    .getByRole('listitem')
    .filter({ has: s.page.getByRole('heading', { name: sheetName, exact: true }) });
const factOf = (item: Locator, term: string) => item.locator(`dt:text-is("${term}") + dd`);
const viewOf = (a: ReturnType<typeof addin>, id: string) => {
  const list = call(a.emu, 'listImports', []);
  return list.ok ? list.imports.find((i) => i.id === id) : undefined;
};
const giveEditorKey = (a: ReturnType<typeof addin>) => {
  a.emu.store(`user:${EDITOR}`).set('INVESTOR_DATA_API_KEY', EDITOR_KEY);
  a.emu.store(`user:${EDITOR}`).set('INVESTOR_DATA_KEY_ADDRESS', svc.url);
};

test('Edit settings by keyboard: columns, mode, filters, sort, history and alert saved without running; the item says so', async () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'firm'] });
  const s = await sidebarFor(a);
  const p = s.page;
  const item = itemOf(s, 'Partners');
  expect(await factOf(item, 'History').textContent()).toBe('off');
  await tabTo(p, 'Edit settings: import into Partners');
  await press(p, 'Enter');
  expect(await focused(p)).toEqual({ role: 'textbox', name: 'Target sheet' });
  expect(await p.locator('#column-list .column-name').allTextContents()).toEqual(['id', 'firm']);
  await tabTo(p, 'Replace the sheet');
  await press(p, 'ArrowDown');
  await tabTo(p, 'Add condition');
  await press(p, 'Enter');
  expect(await focused(p)).toEqual({ role: 'combobox', name: 'Field of condition 1' });
  await tabTo(p, 'Operator of condition 1');
  await p.getByRole('combobox', { name: 'Operator of condition 1' }).selectOption('isNotEmpty');
  await tabTo(p, 'Sort key 1');
  await p.getByRole('combobox', { name: 'Sort key 1' }).selectOption('firm');
  await tabTo(p, "Keep each run's rows in a history sheet");
  await press(p, 'Space');
  await tabTo(p, 'Runs kept (1 to 100)');
  await press(p, 'Control+a');
  await p.keyboard.type('4');
  await tabTo(p, 'added');
  await press(p, 'Space', 'Tab', 'Space');
  await tabTo(p, 'Changes of these fields only (blank: every field)');
  await p.keyboard.type('firm');
  await tabTo(p, 'Save without running');
  await press(p, 'Enter');
  await p.locator('#import-message.ok').waitFor();
  expect(await p.locator('#import-message').textContent()).toBe('Saved the settings of the import into "Partners".');
  expect(await focused(p)).toEqual({ role: 'button', name: 'Save without running' });
  expect(s.calls.map((c) => c.name)).not.toContain('startImport');
  expect(viewOf(a, id)).toMatchObject({
    fields: ['id', 'firm'],
    mode: 'merge',
    filters: [{ field: 'region', op: 'isNotEmpty' }],
    sort: [{ field: 'firm' }],
    history: { keep: 4, sheet: 'Partners history' },
    alert: { on: ['added', 'removed'], fields: ['firm'], owner: 'owner@example.com' },
  });
  expect(await factOf(item, 'History').textContent()).toBe('last 4 runs in "Partners history"');
  expect(await factOf(item, 'Alert').textContent()).toBe(
    'email to owner@example.com when partners are added, removed (fields: firm)',
  );
  expect(await factOf(item, 'Rows kept').textContent()).toMatch(/region/);
  expect(await violations(p)).toEqual([]);
  await p.screenshot({ path: shot('sidebar-settings-saved'), fullPage: true });
  // Switched off again from the same controls.
  await tabTo(p, 'Edit settings: import into Partners');
  await press(p, 'Enter');
  expect(await p.getByRole('checkbox', { name: "Keep each run's rows in a history sheet" }).isChecked()).toBe(true);
  await tabTo(p, "Keep each run's rows in a history sheet");
  await press(p, 'Space');
  for (const kind of ['added', 'removed']) await p.getByRole('checkbox', { name: kind, exact: true }).uncheck();
  await p.locator('#alert-fields').fill('');
  await p.getByRole('button', { name: 'Save without running' }).click();
  await factOf(item, 'History').filter({ hasText: /^off$/ }).waitFor();
  expect(await factOf(item, 'Alert').textContent()).toBe('off');
  const after = viewOf(a, id);
  expect([after?.history, after?.alert, after?.mode]).toEqual([undefined, undefined, 'merge']);
});

test("another editor's alert is locked, saying whose it is; narrowing what it watches is refused beside the form; nothing changes", async () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Watched', fields: ['id', 'firm'] });
  const byEditor = a.emu.run('saveImport', [{ id, alert: { on: ['added'] } }], { kind: 'sidebar', user: EDITOR });
  expect(byEditor.value).toMatchObject({ ok: true });
  const s = await sidebarFor(a);
  const p = s.page;
  await itemOf(s, 'Watched').getByRole('button', { name: 'Edit settings: import into Watched' }).click();
  const note = p.locator('#alert-note');
  expect(await note.textContent()).toMatch(/^This alert is editor@example\.com's: only they can change or remove it/);
  expect(await p.getByRole('checkbox', { name: 'added', exact: true }).isDisabled()).toBe(true);
  expect(await p.getByRole('checkbox', { name: 'added', exact: true }).isChecked()).toBe(true);
  // The alert's group is described by the reason: a screen reader hears it on entering the group.
  expect(await p.locator('#alert-box').getAttribute('aria-describedby')).toBe('alert-note');
  await p.getByRole('button', { name: 'Add condition' }).click();
  await p.getByRole('combobox', { name: 'Operator of condition 1' }).selectOption('isNotEmpty');
  await p.getByRole('button', { name: 'Save without running' }).click();
  await p.locator('#sheet-name-error:not([hidden])').waitFor();
  expect(await p.locator('#sheet-name-error').textContent()).toBe(
    "Only editor@example.com, who saved this import's alert, can change the filters: the alert watches what they cover. Nothing was changed.",
  );
  expect(await focused(p)).toEqual({ role: 'textbox', name: 'Target sheet' });
  expect(viewOf(a, id)?.filters).toBeUndefined();
  expect(await violations(p)).toEqual([]);
});

test("an alert on another editor's schedule is refused under the alert's controls, saying what to do", async () => {
  const a = addin(svc.url);
  giveEditorKey(a);
  const id = saveImport(a.emu, { sheetName: 'Scheduled', fields: ['id', 'firm'] });
  const scheduled = a.emu.run('scheduleImport', [id, { every: 'hours', hours: 4 }], { kind: 'sidebar', user: EDITOR });
  expect(scheduled.value).toMatchObject({ ok: true });
  const s = await sidebarFor(a);
  const p = s.page;
  await itemOf(s, 'Scheduled').getByRole('button', { name: 'Edit settings: import into Scheduled' }).click();
  await p.getByRole('checkbox', { name: 'added', exact: true }).check();
  await p.getByRole('button', { name: 'Save without running' }).click();
  await p.locator('#alert-fields-error:not([hidden])').waitFor();
  expect(await p.locator('#alert-fields-error').textContent()).toBe(
    'This import is scheduled by editor@example.com: its scheduled runs would send your alert from their account. Schedule it yourself first (Schedule ▸ Save), then save the alert.',
  );
  expect(await p.locator('#alert-fields').getAttribute('aria-invalid')).toBe('true');
  expect(await focused(p)).toEqual({ role: 'checkbox', name: 'added' });
  expect(viewOf(a, id)?.alert).toBeUndefined();
});

test('a save made elsewhere shows in the open sidebar at once, without reopening it; a schedule being picked stays picked', async () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, {
    sheetName: 'Shaped',
    fields: ['id', 'firm'],
    filters: [{ field: 'region', op: 'isNotEmpty' }],
  });
  const s = await sidebarFor(a);
  const item = itemOf(s, 'Shaped');
  const kept = await factOf(item, 'Rows kept').textContent();
  // The analyst is choosing a schedule, not saved yet, when the save elsewhere redraws the list.
  await item.getByLabel('Repeat').selectOption('week');
  await item.getByLabel('At (UTC)').selectOption('9');
  await item.getByLabel('On', { exact: true }).selectOption('5');
  // As typed in the browser's console, naming only what changes.
  expect(call(a.emu, 'saveImport', [{ id, history: { keep: 3 } }]).ok).toBe(true);
  await factOf(item, 'History').filter({ hasText: 'last 3 runs' }).waitFor({ timeout: 30_000 });
  expect(await factOf(item, 'Rows kept').textContent()).toBe(kept);
  const picks = [item.getByLabel('Repeat'), item.getByLabel('At (UTC)'), item.getByLabel('On', { exact: true })];
  expect(await Promise.all(picks.map((p) => p.inputValue()))).toEqual(['week', '9', '5']);
  expect(viewOf(a, id)?.schedule).toBeUndefined();
  await item.getByRole('button', { name: 'Save schedule: import into Shaped' }).click();
  await factOf(item, 'Schedule').filter({ hasText: 'Friday' }).waitFor();
  expect(viewOf(a, id)?.schedule).toMatchObject({ every: 'week', weekday: 5, atHour: 9 });
});

test('save key, import, schedule hourly, remove key, an hour passes: the run log has the failure and the item its status, with what to do', async () => {
  const a = addin(svc.url);
  const s = await sidebarFor(a);
  const p = s.page;
  await p.locator('#sheet-name').fill('Hourly');
  await p.getByRole('button', { name: 'Import', exact: true }).click();
  await p.locator('#import-message.ok').waitFor({ timeout: 60_000 });
  const item = itemOf(s, 'Hourly');
  await item.getByRole('combobox', { name: 'Repeat' }).selectOption('hours');
  await item.getByRole('combobox', { name: 'Every' }).selectOption('1');
  await item.getByRole('button', { name: 'Save schedule: import into Hourly' }).click();
  await p.locator('#import-message:has-text("Schedule saved")').waitFor();
  expect(await factOf(item, 'Schedule').textContent()).toBe('every hour, by you, with your key');
  await p.getByRole('button', { name: 'Remove key' }).click();
  await p.getByRole('button', { name: 'Remove my key' }).click();
  await p.locator('#key-status:has-text("No API key saved yet.")').waitFor();
  // The item no longer says the schedule runs with a key that is gone.
  await factOf(item, 'Schedule').filter({ hasText: 'it cannot run until you save it (Settings)' }).waitFor();
  const before = sheet(a.emu, 'Investor Data log').length;
  const runs = a.emu.advance(HOUR + 60_000);
  expect(runs.map((r) => r.error)).toEqual([undefined]);
  const rows = sheet(a.emu, 'Investor Data log').slice(before);
  const col = (name: string) => RUN_LOG_HEADER.indexOf(name);
  expect(rows.map((r) => [r[col('Sheet')], r[col('Source')], r[col('Outcome')]])).toEqual([
    ['Hourly', 'schedule', 'failed'],
  ]);
  const status = factOf(item, 'Status');
  await status.filter({ hasText: /^failed: / }).waitFor({ timeout: 30_000 });
  expect(await status.textContent()).toBe(`failed: ${rows[0][col('Message')]}`);
  expect(await status.textContent()).toMatch(/has no API key saved: .*save it\./);
  await p.screenshot({ path: shot('sidebar-scheduled-failure'), fullPage: true });
});

test('a run the sidebar starts without a key fails as a run: a run-log row, and the item says why and what to do', async () => {
  const a = addin(svc.url, null);
  const id = saveImport(a.emu, { sheetName: 'Keyless', fields: ['id', 'firm'] });
  const s = await sidebarFor(a);
  const p = s.page;
  await itemOf(s, 'Keyless').getByRole('button', { name: 'Run now: import into Keyless' }).click();
  await p.locator('#import-message.error').waitFor();
  const message = await p.locator('#import-message').textContent();
  expect(message).toBe(
    'No API key: open Investor Data ▸ Settings and save your key. The sheet "Keyless" keeps its previous data.',
  );
  expect(await p.locator('#progress-text').textContent()).toBe('Failed before the first page.');
  await factOf(itemOf(s, 'Keyless'), 'Status')
    .filter({ hasText: /^failed: / })
    .waitFor();
  expect(await factOf(itemOf(s, 'Keyless'), 'Status').textContent()).toBe(`failed: ${message}`);
  const col = (name: string) => RUN_LOG_HEADER.indexOf(name);
  expect(
    sheet(a.emu, 'Investor Data log')
      .slice(1)
      .map((r) => [r[col('Sheet')], r[col('Source')], r[col('Outcome')], r[col('Message')]]),
  ).toEqual([['Keyless', 'sidebar', 'failed', message]]);
  expect(viewOf(a, id)?.last?.status).toBe('failed');
});

test('a user who has not allowed sending mail finds the alert greyed, with the reason beside it; history still saves', async () => {
  const manifest = JSON.parse(readFileSync(join(__dirname, '../../appsscript.json'), 'utf8')) as {
    oauthScopes: string[];
  };
  const granted = manifest.oauthScopes.filter((scope) => !scope.endsWith('/script.send_mail'));
  const a = addin(svc.url, DEMO_KEY, { userScopes: { 'owner@example.com': granted } });
  const id = saveImport(a.emu, { sheetName: 'Quiet', fields: ['id', 'firm'] });
  const s = await sidebarFor(a);
  const p = s.page;
  await itemOf(s, 'Quiet').getByRole('button', { name: 'Edit settings: import into Quiet' }).click();
  const note = p.locator('#alert-note');
  await note.waitFor();
  expect(await note.textContent()).toBe(await p.locator('#alerts-off-text').textContent());
  expect(await note.textContent()).toMatch(/not allowed the add-in to send email as you\./);
  for (const kind of ['added', 'removed', 'changed'])
    expect(await p.getByRole('checkbox', { name: kind, exact: true }).isDisabled()).toBe(true);
  await p.getByRole('checkbox', { name: "Keep each run's rows in a history sheet" }).check();
  await p.getByRole('button', { name: 'Save without running' }).click();
  await p.locator('#import-message.ok').waitFor();
  expect(viewOf(a, id)?.history?.keep).toBe(10);
  expect(viewOf(a, id)?.alert).toBeUndefined();
});
