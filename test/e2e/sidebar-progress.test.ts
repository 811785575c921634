/**
 * The progress bar moves all through a run the sidebar drives: its first step reads the list's
 * first page alone (so "page 1 of n" shows at once), each later step as many pages as the pace of
 * the steps before fits in a second and a half, and every step's answer is shown, with page and
 * row counts grouped. Real dist/Sidebar.html in Chromium,
 * google.script.run backed by the bundle in an emulator of this process. (How long a step takes
 * is measured by the workbench, not timed here.)
 */
import type { Browser } from 'playwright-core';
import { addin } from '../helpers/addin';
import { launch } from '../helpers/browser';
import { type RunningService, servicesForThisFile } from '../helpers/service';
import { openSidebar, type SidebarPage } from '../helpers/sidebar-page';

const services = servicesForThisFile(1, ['--partners', '1200', '--max-page-size', '100']);
let svc: RunningService;
let browser: Browser;
let s: SidebarPage;

beforeAll(async () => {
  [svc] = services;
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await browser?.close();
});

test('every step moves the bar: page 1 first, then the pages the sidebar asks for, counts grouped', async () => {
  s = await openSidebar(browser, addin(svc.url).emu);
  const p = s.page;
  await p.locator('#fetch-count:has-text("Fetches today")').waitFor();
  await p.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __progress: string[] }).__progress = seen;
    const line = document.getElementById('progress-text') as HTMLElement;
    new MutationObserver(() => seen.push(line.textContent ?? '')).observe(line, { childList: true, subtree: true });
  });
  await p.getByRole('button', { name: 'Import', exact: true }).click();
  await p.locator('#import-message.ok').waitFor({ timeout: 90_000 });
  const shown = await p.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
  expect(shown[0]).toBe('starting…');
  const pages = shown.slice(1).map((text) => {
    const m = /^page (\d+) of (\d+) · rows ([\d,]+) of ([\d,]+)$/.exec(text);
    if (!m) throw new Error(`not a progress line: ${text}`);
    return { page: Number(m[1]), of: Number(m[2]), rows: m[3], total: m[4] };
  });
  const total = pages[0].total;
  expect(total).toMatch(/^\d{1,3}(,\d{3})+$/);
  expect(pages[0]).toMatchObject({ page: 1, rows: '100' });
  const last = pages[pages.length - 1];
  expect(last).toMatchObject({ page: last.of, rows: total });
  // Each later step reads at most the pages the sidebar asked for (1 to 20, from the pace of the steps before).
  const asked = s.calls.filter((c) => c.name === 'continueImport').map((c) => c.args[1] as number);
  expect(asked.length).toBe(pages.length - 1);
  for (let k = 1; k < pages.length; k++) {
    expect(asked[k - 1]).toBeGreaterThanOrEqual(1);
    expect(asked[k - 1]).toBeLessThanOrEqual(20);
    expect(pages[k].page - pages[k - 1].page).toBeLessThanOrEqual(asked[k - 1]);
  }
  // One line per step: each answer of startImport and continueImport is shown.
  expect(s.calls.filter((c) => c.name === 'startImport').length).toBe(1);
});
