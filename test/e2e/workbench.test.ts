import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from '../helpers/browser';
import { type RunningWorkbench, startWorkbench } from '../helpers/workbench';

const DEMO_KEY = 'demo-key-0123456789';
let browser: Browser;
let wb: RunningWorkbench;
let page: Page;

async function typeInto(cell: string, input: string): Promise<void> {
  await page.fill('#name-box', cell);
  await page.press('#name-box', 'Enter');
  await page.fill('#formula-input', input);
  await page.press('#formula-input', 'Enter');
  if (!input.startsWith('=')) await cellText(cell, (t) => t === input);
}

/** Waits until the page shows a cell whose text passes the check (the grid redraws as the server answers). */
async function cellText(cell: string, ok: (text: string) => boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const text = (await page.locator(`td[data-cell="${cell}"]`).textContent()) ?? '';
    if (ok(text)) return;
    await page.waitForTimeout(200);
  }
  throw new Error(`cell ${cell} never showed the expected text`);
}

beforeAll(async () => {
  wb = await startWorkbench(['--partners', '800']);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await wb?.stop();
});

describe("a newcomer's first minute in the workbench", () => {
  test('open the page, open the sidebar from the menu, paste the demo key, import active partners', async () => {
    await page.goto(wb.url);
    await page.locator('#menu-investor-data').waitFor();
    await page.screenshot({ path: shot('workbench-1-open') });
    await page.click('#menu-investor-data');
    await page.click('text=Open sidebar');
    const sidebar = page.frameLocator('#sidebar-frame');
    await sidebar.locator('#api-key').fill(DEMO_KEY);
    await sidebar.locator('#save-key').click();
    await sidebar.locator('#key-status:has-text("ending …6789")').waitFor();
    await sidebar.locator('#import').click();
    await sidebar.locator('#import-message.ok').waitFor({ timeout: 60_000 });
    await page.locator('.tab.active:has-text("Limited partners")').waitFor();
    await page.locator('td[data-cell="A2"]:has-text("lp_00000")').waitFor();
    await page.screenshot({ path: shot('workbench-2-imported') });
  });

  test('type an LP_GET formula over a range and see values; editing an argument recomputes it', async () => {
    await page.locator('.tab:has-text("Sheet1")').click();
    await page.locator('.tab.active:has-text("Sheet1")').waitFor();
    await typeInto('A1', 'id');
    for (const [i, id] of ['lp_0000a', 'lp_0000b', 'lp_0000c'].entries()) await typeInto(`A${i + 2}`, id);
    await typeInto('B2', '=LP_GET(A2:A4, "fullName,firm")');
    await cellText('B2', (t) => t === 'Carmela Langosh');
    const row = async (r: number) => Promise.all(['A', 'B', 'C'].map((c) => page.locator(`td[data-cell="${c}${r}"]`).textContent()));
    expect((await row(2))[1]).toBe('Carmela Langosh');
    expect((await row(4))[2]?.length).toBeGreaterThan(2);
    await typeInto('A2', 'lp_0000d');
    await cellText('B2', (t) => t !== 'Carmela Langosh' && t.length > 3);
    await typeInto('D2', '=LP_GET("nope")');
    await page.locator('td[data-cell="D2"]:has-text("#ERROR!")').waitFor();
    await page.locator('td[data-cell="D2"]').click();
    expect(await page.locator('#cell-error').textContent()).toBe('Unknown limited partner id: nope');
    await page.screenshot({ path: shot('workbench-3-formula') });
  });

  test('the workbook exports to .xlsx and survives a restart; --headless re-runs the saved import', async () => {
    const res = await page.request.get(`${wb.url}/api/export.xlsx`);
    const xlsx = new ExcelJS.Workbook();
    await xlsx.xlsx.load(Buffer.from(await res.body()) as unknown as ArrayBuffer);
    expect(xlsx.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['Sheet1', 'Limited partners', 'Investor Data log']));
    expect(xlsx.getWorksheet('Limited partners')?.getCell('A2').value).toBe('lp_00000');
    await wb.stop();
    wb = await startWorkbench(['--partners', '800'], wb.stateDir);
    await page.goto(wb.url);
    await cellText('B2', (t) => t.length > 3 && t !== '#ERROR!');
    await wb.stop();
    const out = join(wb.stateDir, 'out.xlsx');
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '../../dev/workbench/cli.ts'), '--headless', '--partners', '800', '--state-dir', wb.stateDir, '--out', out], { cwd: join(__dirname, '../..'), encoding: 'utf8', timeout: 60_000 });
    expect(run.stdout).toMatch(/Limited partners: Imported \d+ active limited partners/);
    expect(run.status).toBe(0);
    expect(existsSync(out)).toBe(true);
  }, 90_000);
});
