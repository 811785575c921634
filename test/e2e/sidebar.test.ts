/**
 * The real dist/Sidebar.html in Chromium, its google.script.run backed by the workbench's
 * emulator: key handling, connection test, an import with its progress bar, scheduling, inert
 * markup. Every wait is on the condition that proves the step (never a fixed delay).
 */
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { launch, shot } from '../helpers/browser';
import { type RunningWorkbench, startWorkbench } from '../helpers/workbench';

const DEMO_KEY = 'demo-key-0123456789';
let browser: Browser;
let wb: RunningWorkbench;
let page: Page;
let sidebar: FrameLocator;

beforeAll(async () => {
  wb = await startWorkbench(['--partners', '1200']);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(wb.url);
  await page.click('#menu-investor-data');
  await page.click('text=Open sidebar');
  sidebar = page.frameLocator('#sidebar-frame');
  await sidebar.locator('#key-status:has-text("No API key saved yet.")').waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await wb?.stop();
});

describe('sidebar (real dist/Sidebar.html, google.script.run backed by the emulator)', () => {
  test('before any fetch the connection card shows "Fetches today: 0 of 20,000"', async () => {
    await sidebar.locator('#fetch-count:has-text("Fetches today")').waitFor();
    expect(await sidebar.locator('#fetch-count').textContent()).toBe(
      'Fetches today: 0 of 20,000 (the add-in stops at 18,000).',
    );
  });

  test('a bad key is checked when it is saved: refused under the key field, not saved', async () => {
    await sidebar.locator('#api-key').fill('not-the-key');
    await sidebar.locator('#save-key').click();
    await sidebar.getByRole('button', { name: /^Send my key to 127\.0\.0\.1:\d+$/ }).click();
    await sidebar.locator('#api-key-error:has-text("refused")').waitFor();
    expect(await sidebar.locator('#api-key-error').textContent()).toMatch(
      /^The service at 127\.0\.0\.1:\d+ refused this key \(HTTP 403\), so it was not saved\. Check the key and paste it again\.$/,
    );
    expect(await sidebar.locator('#api-key').getAttribute('aria-invalid')).toBe('true');
    expect(await sidebar.locator('#key-status').textContent()).toBe('No API key saved yet.');
    await page.screenshot({ path: shot('sidebar-bad-key') });
  });

  test('save the key: only its last four characters come back; test the connection', async () => {
    await sidebar.locator('#api-key').fill(DEMO_KEY);
    await sidebar.locator('#save-key').click();
    await sidebar.getByRole('button', { name: /^Send my key to / }).click();
    await sidebar.locator('#key-status:has-text("ending …6789")').waitFor();
    expect(await sidebar.locator('#key-message').textContent()).toMatch(
      /^Key saved and accepted by 127\.0\.0\.1:\d+\.$/,
    );
    expect(await sidebar.locator('#api-key').getAttribute('aria-invalid')).toBeNull();
    expect(await sidebar.locator('#api-key').inputValue()).toBe('');
    const html = await page.frame({ url: /\/sidebar$/ })?.content();
    expect(html).not.toContain(DEMO_KEY);
    await sidebar.locator('#test-connection').click();
    await sidebar.locator('#key-message.ok:has-text("Connected to")').waitFor();
    expect(await sidebar.locator('#key-message').textContent()).toMatch(
      /^Connected to 127\.0\.0\.1:\d+: \d+ active limited partners\.$/,
    );
  });

  test('run an import and watch the progress bar reach the end', async () => {
    await sidebar.locator('#sheet-name').fill('Partners');
    await sidebar.locator('#import').click();
    await sidebar.locator('#import-message.ok').filter({ hasText: 'into "Partners"' }).waitFor({ timeout: 60_000 });
    const text = await sidebar.locator('#progress-text').textContent();
    // Counts are grouped: "rows 1,200 of 1,200".
    const m = /^page (\d+) of (\d+) · rows ([\d,]+) of ([\d,]+)$/.exec(text ?? '');
    expect(m).not.toBeNull();
    expect(m?.[1]).toBe(m?.[2]);
    expect(m?.[3]).toBe(m?.[4]);
    const bar = sidebar.locator('#progress');
    expect(await bar.evaluate((el) => [(el as HTMLProgressElement).value, (el as HTMLProgressElement).max])).toEqual([
      Number(m?.[4].replace(/,/g, '')),
      Number(m?.[4].replace(/,/g, '')),
    ]);
    await page.locator('td[data-cell="A2"]').filter({ hasText: /^lp_/ }).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: shot('sidebar-import-done') });
  });

  test("after the import the card counts the day's fetches: the requests the service received", async () => {
    const base = await sidebar.locator('#base-url').inputValue();
    const stats = await (await page.request.get(`${base}/__stats`)).json();
    const served = Object.values(stats.byOperation as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(served).toBeGreaterThan(10);
    await sidebar
      .locator('#fetch-count')
      .filter({ hasText: `Fetches today: ${served.toLocaleString('en-US')} of 20,000` })
      .waitFor();
    expect(await sidebar.locator('#fetch-count').textContent()).toMatch(
      /^Fetches today: [\d,]+ of 20,000 \(the add-in stops at 18,000; the count resets \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.$/,
    );
  });

  test('schedule the saved import: chosen, then saved by its button; the trigger appears in the workbench', async () => {
    const item = sidebar
      .getByRole('list', { name: 'Saved imports' })
      .getByRole('listitem')
      .filter({ hasText: 'Partners' });
    await item.getByRole('combobox', { name: 'Repeat' }).selectOption('day');
    await item.getByRole('combobox', { name: 'At (UTC)' }).selectOption('9');
    await item.getByRole('button', { name: 'Save schedule: import into Partners' }).click();
    await sidebar.locator('#import-message:has-text("Schedule saved")').waitFor();
    expect(await sidebar.locator('#import-message').textContent()).toBe(
      'Schedule saved for "Partners": daily at 09:00 UTC.',
    );
    await page.click('#triggers-button');
    await page.locator('#trigger-list td:has-text("runScheduledImports")').waitFor();
    const state = await (await page.request.get(`${wb.url}/api/state`)).json();
    expect(state.triggers).toHaveLength(1);
    await page.screenshot({ path: shot('sidebar-scheduled') });
  });

  test('a saved import that keeps history and alerts says both in its summary', async () => {
    const frame = page.frame({ url: /\/sidebar$/ });
    // Saved through the same google.script.run the sidebar uses (the form keeps both as saved).
    const saved = await frame?.evaluate(
      () =>
        new Promise<{ ok: boolean; message?: string }>((resolve) => {
          const run = () =>
            // biome-ignore lint/suspicious/noExplicitAny: the page's google.script.run has no types here
            (window as any).google.script.run
              .withSuccessHandler(resolve)
              .withFailureHandler((e: Error) => resolve({ ok: false, message: e.message }));
          run()
            .withSuccessHandler((list: { imports: Array<{ id: string; sheetName: string; fields: string[] }> }) => {
              const v = list.imports.find((i) => i.sheetName === 'Partners');
              run().saveImport({
                id: v?.id,
                sheetName: 'Partners',
                fields: v?.fields,
                history: { keep: 4 },
                alert: { on: ['added', 'removed'] },
              });
            })
            .listImports();
        }),
    );
    expect(saved?.ok).toBe(true);
    const item = sidebar
      .getByRole('list', { name: 'Saved imports' })
      .getByRole('listitem')
      .filter({ hasText: 'Partners' });
    await item.getByRole('button', { name: 'Save schedule: import into Partners' }).click();
    await item.locator('dd:has-text("last 4 runs")').waitFor();
    expect(await item.locator('dd:has-text("last 4 runs")').textContent()).toBe('last 4 runs in "Partners history"');
    expect(await item.locator('dd:has-text("email to")').textContent()).toBe(
      'email to owner@example.com when partners are added, removed',
    );
  });

  test('service and user text render inert: no markup runs', async () => {
    await sidebar.locator('#sheet-name').fill('<img src=x onerror="window.top.__xss=1">');
    await sidebar.locator('#import').click();
    await sidebar.locator('#import-message.ok').filter({ hasText: 'into "<img src=x' }).waitFor({ timeout: 60_000 });
    await sidebar.locator('#imports h3:has-text("<img src=x")').waitFor();
    await page.locator('.tab:has-text("<img")').click();
    await page.locator('td:has-text("<script>alert")').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('#grid img, #grid script').count()).toBe(0);
  });
});
