/**
 * The workbench grid behaves like Sheets for the basics (real Chromium): type to replace,
 * Enter/Tab/arrows, Escape, Delete, Ctrl-Z, columns and rows beyond the data, the name box,
 * formula parse errors that keep the text, spill areas that #REF! when typed into, display by
 * type, formulas it does not evaluate shown as text, the formula bar on a tab switch, and a long
 * error that leaves the sheet tabs alone.
 */
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from '../helpers/browser';
import {
  cell,
  cellIs,
  goTo,
  type RunningWorkbench,
  refreshes,
  saveKeyWithSidebar,
  startWorkbench,
  typeInto,
} from '../helpers/workbench';

let browser: Browser;
let wb: RunningWorkbench;
let page: Page;

const selectedIs = (a1: string) => page.locator(`td.selected[data-cell="${a1}"]`).waitFor();
const status = async () => (await page.locator('#cell-error').textContent()) ?? '';

beforeAll(async () => {
  wb = await startWorkbench(['--partners', '300']);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(wb.url);
  await saveKeyWithSidebar(page);
  await page.click('#close-sidebar');
  await page.locator('#sidebar').waitFor({ state: 'hidden' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await wb?.stop();
});

describe('editing like Sheets', () => {
  test('typing replaces the selected cell; Enter moves down, Tab right, arrows move; Escape cancels', async () => {
    await cell(page, 'A1').click();
    await page.keyboard.type('id');
    await page.keyboard.press('Enter');
    await cellIs(page, 'A1', 'id');
    await selectedIs('A2');
    await page.keyboard.type('lp_0000a');
    await page.keyboard.press('Tab');
    await cellIs(page, 'A2', 'lp_0000a');
    await selectedIs('B2');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowDown');
    await selectedIs('A3');
    await page.keyboard.type('lp_0000b');
    await page.keyboard.press('ArrowDown');
    await selectedIs('A4');
    await cellIs(page, 'A3', 'lp_0000b');
    await page.keyboard.type('lp_0000c');
    await page.keyboard.press('Enter');
    await cellIs(page, 'A4', 'lp_0000c');
    await page.keyboard.type('not wanted');
    await page.keyboard.press('Escape');
    await selectedIs('A5');
    await refreshes(page);
    expect(await cell(page, 'A5').textContent()).toBe('');
    await cell(page, 'A1').click();
    await page.keyboard.type('ID');
    await page.keyboard.press('Enter');
    await cellIs(page, 'A1', 'ID');
    await cell(page, 'A1').click();
    await page.keyboard.press('Enter');
    expect(await page.inputValue('#cell-editor')).toBe('ID');
    await page.keyboard.press('Escape');
    await page.locator('#cell-editor').waitFor({ state: 'hidden' });
  });

  test('Delete clears the cell; Ctrl-Z undoes the last edit, then the one before', async () => {
    await typeInto(page, 'C10', 'temp');
    await cellIs(page, 'C10', 'temp');
    await cell(page, 'A1').click();
    await page.keyboard.press('Delete');
    await cellIs(page, 'A1', '');
    await page.keyboard.press('Control+z');
    await cellIs(page, 'A1', 'ID');
    await page.keyboard.press('Control+z');
    await cellIs(page, 'C10', '');
  });

  test('the grid draws columns and rows beyond the data; the name box goes to any address or says why not, and writes nothing', async () => {
    await cell(page, 'Z1').waitFor();
    await cell(page, 'A100').waitFor();
    await page.fill('#name-box', 'AC150');
    await page.press('#name-box', 'Enter');
    await page
      .locator('#cell-error:has-text("Cannot go to AC150: the sheet has 1000 rows and columns A to Z.")')
      .waitFor();
    await page.fill('#name-box', 'hello world');
    await page.press('#name-box', 'Enter');
    await page.locator('#cell-error:has-text("type a cell address like B3")').waitFor();
    // What overwrote A1 with #REF! before: Enter in the formula bar after a failed jump.
    await page.click('#formula-input');
    await page.press('#formula-input', 'Enter');
    await refreshes(page);
    expect(await cell(page, 'A1').textContent()).toBe('ID');
    await goTo(page, 'Z300');
    await page.keyboard.type('far');
    await page.keyboard.press('Enter');
    await cellIs(page, 'Z300', 'far');
    await goTo(page, 'Sheet1!B2');
    expect(await page.inputValue('#name-box')).toBe('B2');
  });
});

describe('formulas', () => {
  test('a formula parse error keeps the typed text in the cell and shows the error until the next action', async () => {
    await typeInto(page, 'B2', '=LP_GET("lp_0000a" "fullName")');
    await cellIs(page, 'B2', '#ERROR!');
    await selectedIs('B3');
    await page.locator('#cell-error:has-text("Formula parse error")').waitFor();
    await refreshes(page);
    expect(await status()).toMatch(/^Formula parse error( at character \d+)?: the formula cannot be read/);
    await page.keyboard.press('ArrowRight');
    await selectedIs('C3');
    expect(await status()).toBe('');
    await goTo(page, 'B2');
    expect(await page.inputValue('#formula-input')).toBe('=LP_GET("lp_0000a" "fullName")');
    expect(await status()).toMatch(/^Formula parse error/);
  });

  test('an unknown function or name is #NAME?, a missing sheet #REF!, as in Sheets; the add-in functions work inside others', async () => {
    await typeInto(page, 'B2', '=LP_GTE(A2:A4, "fullName")');
    await typeInto(page, 'B3', '=LP_GET(A2:A4, fullName)');
    await typeInto(page, 'B4', "=LP_GET('No such sheet'!A2)");
    await typeInto(page, 'B5', '=SUM(LP_GET(A2:A4, "ticketSize"))');
    await cellIs(page, 'B2', '#NAME?');
    await cellIs(page, 'B3', '#NAME?');
    await cellIs(page, 'B4', '#REF!');
    await cellIs(page, 'B5', /^[1-9]\d*$/);
    await goTo(page, 'B2');
    expect(await status()).toBe("Unknown function: 'LP_GTE'.");
    await goTo(page, 'B3');
    expect(await status()).toBe('Unknown range name: \'FULLNAME\' (text needs "quotes").');
    await goTo(page, 'B4');
    expect(await status()).toBe("Unresolved sheet name 'No such sheet'.");
    for (const a of ['B2', 'B3', 'B4', 'B5']) {
      await goTo(page, a);
      await page.keyboard.press('Delete');
    }
    await cellIs(page, 'B5', '');
  });

  test('typing into a spill area turns the formula into #REF!; clearing it lets the result spill again', async () => {
    await typeInto(page, 'B2', '=LP_GET(A2:A4, "fullName,firm")');
    await cellIs(page, 'B2', /^[A-Z][a-z]+ /);
    const name = (await cell(page, 'B2').textContent()) ?? '';
    await cellIs(page, 'C4', /.{3,}/);
    await typeInto(page, 'C3', 'mine');
    await cellIs(page, 'B2', '#REF!');
    await cellIs(page, 'C3', 'mine');
    expect(await cell(page, 'B3').textContent()).toBe('');
    await goTo(page, 'B2');
    expect(await status()).toBe('Array result was not expanded because it would overwrite data.');
    await goTo(page, 'C3');
    await page.keyboard.press('Delete');
    await cellIs(page, 'B2', name);
    await cellIs(page, 'C3', /.{3,}/);
  });

  test('a formula typed into the result of another: the older one gives way (#REF!) and the new one spills', async () => {
    await typeInto(page, 'G1', '=LP_GET("lp_0000a", "fullName,firm", TRUE)');
    await cellIs(page, 'G2', /.{3,}/);
    await typeInto(page, 'G2', '=LP_GET(A2:A3, "firm")');
    await cellIs(page, 'G1', '#REF!');
    await cellIs(page, 'G2', /.{3,}/);
    await cellIs(page, 'G3', /.{3,}/);
    expect(await cell(page, 'H2').textContent()).toBe('');
  });

  test('cells show their real type: numbers and dates right, text left (a year as text too), formulas it does not evaluate as their text', async () => {
    await typeInto(page, 'E1', '=LP_GET("lp_0000a", "ticketSize")');
    await typeInto(page, 'E2', '=LP_GET("lp_0000a", "createdAt")');
    await typeInto(page, 'E3', '=FUND_GET("vf_0003", "vintageYear")');
    await typeInto(page, 'E4', '=SUM(1,2)');
    await typeInto(page, 'E5', '1234.5');
    await cellIs(page, 'E1', /^\d+$/);
    await cellIs(page, 'E2', /^20\d\d-\d\d-\d\d \d\d:\d\d$/);
    await cellIs(page, 'E3', /^20\d\d$/);
    await cellIs(page, 'E4', '=SUM(1,2)');
    await cellIs(page, 'E5', '1234.5');
    const align = (a1: string) => cell(page, a1).evaluate((el) => getComputedStyle(el).textAlign);
    expect(await Promise.all(['E1', 'E2', 'E3', 'E4', 'E5'].map(align))).toEqual([
      'right',
      'right',
      'left',
      'left',
      'right',
    ]);
    await page.screenshot({ path: shot('workbench-grid-types') });
  });

  test('the formula bar follows a tab switch and comes back with the sheet', async () => {
    await goTo(page, 'E4');
    page.once('dialog', (d) => void d.accept('Other'));
    await page.click('#add-sheet');
    await page.locator('.tab.active:has-text("Other")').waitFor();
    await selectedIs('A1');
    expect(await page.inputValue('#formula-input')).toBe('');
    await goTo(page, 'B2');
    await page.locator('.tab:has-text("Sheet1")').click();
    await page.locator('.tab.active:has-text("Sheet1")').waitFor();
    await selectedIs('E4');
    expect(await page.inputValue('#formula-input')).toBe('=SUM(1,2)');
    expect(await page.inputValue('#name-box')).toBe('E4');
  });

  test('a long error message leaves the sheet tabs whole', async () => {
    const tabs = () =>
      page.locator('.tab').evaluateAll((els) =>
        els.map((el) => ({
          width: Math.round(el.getBoundingClientRect().width),
          clipped: el.scrollWidth > el.clientWidth,
        })),
      );
    const before = await tabs();
    await typeInto(page, 'F1', `=LP_GET("${'x'.repeat(400)}")`);
    await cellIs(page, 'F1', '#ERROR!');
    await goTo(page, 'F1');
    expect((await status()).length).toBeGreaterThan(150);
    expect(await tabs()).toEqual(before);
    expect(before.every((t) => !t.clipped && t.width > 20)).toBe(true);
    await page.screenshot({ path: shot('workbench-grid-long-error') });
  });
});
