/**
 * Replace anyway, pressed where a person presses it: a replace that stopped because its sheet is
 * not as the import left it offers Replace anyway and an "on every run" box on the import's item.
 * Pressed once with the box unticked, that run overwrites and the next scheduled run stops again;
 * with the box ticked, every later run overwrites, scheduled ones included, and the item says so,
 * until Stop replacing anyway on the item turns it off.
 * Real dist/Sidebar.html in Chromium, google.script.run backed by the bundle in an emulator of
 * this process; the analyst's edits are made on the emulated sheet, as typed in Sheets.
 */
import type { Locator } from 'playwright-core';
import { RUN_LOG_HEADER } from '../../src/import/end';
import { addin } from '../helpers/addin';
import { shot } from '../helpers/browser';
import { call, runImport, saveImport, sheet } from '../helpers/imports';
import { type RunningService, servicesForThisFile } from '../helpers/service';
import { focused, press, type SidebarPage, tabTo, violations, sidebarsForThisFile } from '../helpers/sidebar-page';

const HOUR = 3_600_000;
const services = servicesForThisFile(1, ['--partners', '40']);
let svc: RunningService;

const openFor = sidebarsForThisFile();
beforeAll(() => {
  [svc] = services;
});

const col = (name: string) => RUN_LOG_HEADER.indexOf(name);
const outcomes = (a: ReturnType<typeof addin>, from: number) =>
  sheet(a.emu, 'Investor Data log')
    .slice(from)
    .map((r) => `${r[col('Source')]}:${r[col('Outcome')]}`);

/** A replace import of "Partners", run and scheduled hourly; then the analyst types over C3. */
function editedImport(): { a: ReturnType<typeof addin>; id: string; edit: () => void } {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'fullName', 'firm'] });
  runImport(a.emu, id);
  expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
  const edit = () => a.emu.workbook.byName('Partners')?.set(2, 2, 'My own note');
  edit();
  return { a, id, edit };
}

/** Opens the sidebar and presses Run now on the import: the replace stops, and its item offers the choices. */
async function refusedInSidebar(a: ReturnType<typeof addin>): Promise<{ s: SidebarPage; item: Locator }> {
  const s = await openFor(a.emu);
  const item = s.page.getByRole('list', { name: 'Saved imports' }).getByRole('listitem');
  await item.getByRole('button', { name: 'Run now: import into Partners' }).click();
  await s.page.locator('#import-message.error:has-text("Replace stopped")').waitFor({ timeout: 60_000 });
  await item.getByRole('button', { name: 'Replace anyway: import into Partners' }).waitFor();
  return { s, item };
}

test('Replace anyway pressed once, box unticked: this run overwrites; the next scheduled run stops again', async () => {
  const { a, id, edit } = editedImport();
  const { s, item } = await refusedInSidebar(a);
  const p = s.page;
  const box = item.getByRole('checkbox', { name: 'Replace anyway on every run: import into Partners' });
  expect(await box.isChecked()).toBe(false);
  expect(await violations(p)).toEqual([]);
  await tabTo(p, 'Replace anyway: import into Partners');
  await press(p, 'Enter');
  await p.locator('#import-message.ok:has-text("Replaced anyway")').waitFor({ timeout: 60_000 });
  expect(s.calls.filter((c) => c.name === 'replaceAnyway').map((c) => c.args.slice(0, 2))).toEqual([[id, false]]);
  // The choices are gone with the refusal: focus goes to the item's Run now.
  await p.waitForFunction(() => !document.querySelector('#import[aria-disabled]'));
  expect(await focused(p)).toEqual({ role: 'button', name: 'Run now: import into Partners' });
  expect(a.emu.workbook.byName('Partners')?.get(2, 2)).not.toBe('My own note');
  expect(await item.locator('dt:text-is("Replace anyway")').count()).toBe(0);
  edit();
  const before = sheet(a.emu, 'Investor Data log').length;
  a.emu.advance(HOUR + 60_000);
  expect(outcomes(a, before)).toEqual(['schedule:failed']);
  expect(a.emu.workbook.byName('Partners')?.get(2, 2)).toBe('My own note');
  await item.locator('dt:text-is("Status") + dd:has-text("Replace stopped")').waitFor({ timeout: 30_000 });
  await item.getByRole('button', { name: 'Replace anyway: import into Partners' }).waitFor();
});

test('Replace anyway pressed with the box ticked: every later run overwrites, scheduled ones too, and the item says so', async () => {
  const { a, id, edit } = editedImport();
  const { s, item } = await refusedInSidebar(a);
  const p = s.page;
  await tabTo(p, 'Replace anyway on every run: import into Partners');
  await press(p, 'Space');
  await tabTo(p, 'Replace anyway: import into Partners', true);
  await press(p, 'Enter');
  await p.locator('#import-message.ok:has-text("Replaced anyway")').waitFor({ timeout: 60_000 });
  expect(s.calls.filter((c) => c.name === 'replaceAnyway').map((c) => c.args.slice(0, 2))).toEqual([[id, true]]);
  const fact = item.locator('dt:text-is("Replace anyway") + dd');
  await fact.waitFor();
  expect(await fact.textContent()).toBe(
    'on every run: each run overwrites cells of its sheet that are not as the import left them',
  );
  edit();
  const before = sheet(a.emu, 'Investor Data log').length;
  a.emu.advance(HOUR + 60_000);
  expect(outcomes(a, before)).toEqual(['schedule:done']);
  expect(a.emu.workbook.byName('Partners')?.get(2, 2)).not.toBe('My own note');
  await item.locator('dt:text-is("Status") + dd:has-text("Replaced anyway")').waitFor({ timeout: 30_000 });
  await p.screenshot({ path: shot('sidebar-replace-anyway-always'), fullPage: true });
  // Turned off from the item: the next scheduled run that finds an edit stops again.
  await tabTo(p, 'Stop replacing anyway: import into Partners');
  await press(p, 'Enter');
  await p.locator('#import-message.ok:has-text("Replace anyway is off")').waitFor();
  expect(s.calls.filter((c) => c.name === 'saveImport').map((c) => c.args)).toEqual([[{ id, replaceAnyway: null }]]);
  expect(await item.locator('dt:text-is("Replace anyway")').count()).toBe(0);
  expect(await focused(p)).toEqual({ role: 'button', name: 'Run now: import into Partners' });
  edit();
  const later = sheet(a.emu, 'Investor Data log').length;
  a.emu.advance(HOUR + 60_000);
  expect(outcomes(a, later)).toEqual(['schedule:failed']);
  expect(a.emu.workbook.byName('Partners')?.get(2, 2)).toBe('My own note');
});
