/**
 * Formulas recover once their cause is gone: a formula that failed while no key was saved shows
 * its value again as soon as the key is saved again, without Refresh all formulas, and the
 * connection card says what it refreshed. The workbench (npm start) in Chromium, driven as a
 * person would: the menu, the sidebar, the cells.
 */
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from '../helpers/browser';
import { cellIs, type RunningWorkbench, saveKeyWithSidebar, startWorkbench, typeInto } from '../helpers/workbench';

let browser: Browser;
let wb: RunningWorkbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench(['--partners', '60']);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(wb.url);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await wb?.stop();
});

test('a formula that failed without a key shows its value once the key is saved again, with no manual refresh', async () => {
  const sidebar = await saveKeyWithSidebar(page);
  await sidebar.getByRole('button', { name: 'Remove key' }).click();
  await sidebar.getByRole('button', { name: 'Remove my key' }).click();
  await sidebar.locator('#key-status:has-text("No API key saved yet.")').waitFor();
  await typeInto(page, 'B2', '=LP_GET("lp_0000a", "fullName")');
  await cellIs(page, 'B2', '#ERROR!');
  await sidebar.locator('#api-key').fill('demo-key-0123456789');
  await sidebar.locator('#save-key').click();
  await sidebar.getByRole('button', { name: /^Send my key to / }).click();
  await sidebar.locator('#message:has-text("with your key")').waitFor({ timeout: 30_000 });
  expect(await sidebar.locator('#message').textContent()).toBe('Refreshed 1 formula with your key.');
  // A partner's name: neither the error nor an error text.
  await cellIs(page, 'B2', /^(?!#ERROR!|Error)\S.*$/);
  expect(await sidebar.locator('#refresh-all[aria-disabled]').count()).toBe(0);
  await page.screenshot({ path: shot('sidebar-formulas-recovered') });
});
