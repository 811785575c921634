/**
 * The progress bar moves all through a run the sidebar drives, within its one step: while the step
 * runs, the sidebar asks for the run's status every second and shows what the step has read (its
 * live record), then the step's own answer; page and row counts grouped. Real dist/Sidebar.html in
 * Chromium, google.script.run backed by the bundle in an emulator of this process, whose calls run
 * beside one another as Google's do. The service answers each request after 800 ms, so the step
 * (page 1, then rounds of 20 pages) runs for seconds.
 */
import type { Browser } from 'playwright-core';
import { addin } from '../helpers/addin';
import { launch } from '../helpers/browser';
import { type RunningService, servicesForThisFile } from '../helpers/service';
import { openSidebar, type SidebarPage } from '../helpers/sidebar-page';

const services = servicesForThisFile(1, ['--partners', '12000', '--max-page-size', '100', '--latency', '800']);
let svc: RunningService;
let browser: Browser;
let s: SidebarPage;
const opened: SidebarPage[] = [];

beforeAll(async () => {
  [svc] = services;
  browser = await launch();
}, 60_000);
afterAll(async () => {
  for (const page of opened) await page.close();
  await browser?.close();
});

/** A new add-in's sidebar, open, with Import pressed. */
async function importPressed() {
  const a = addin(svc.url);
  s = await openSidebar(browser, a.emu);
  opened.push(s);
  const p = s.page;
  await p.locator('#fetch-count:has-text("Fetches today")').waitFor();
  await p.getByRole('button', { name: 'Import', exact: true }).click();
  return { a, p };
}

test('the bar moves within the step: what the step has read, asked for while it runs, then its answer', async () => {
  s = await openSidebar(browser, addin(svc.url).emu);
  opened.push(s);
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
  const lines = shown.slice(1).map((text) => {
    const m = /^page (\d+) of (\d+) · rows ([\d,]+) of ([\d,]+)$/.exec(text);
    if (!m) throw new Error(`not a progress line: ${text}`);
    return { page: Number(m[1]), of: Number(m[2]), rows: Number(m[3].replace(/,/g, '')), total: m[4] };
  });
  const last = lines[lines.length - 1];
  expect(last.total).toMatch(/^\d{1,3}(,\d{3})+$/);
  expect(last).toMatchObject({ page: last.of, rows: Number(last.total.replace(/,/g, '')) });
  // Before the step's answer, the bar showed what the step had read: page 1 at least, not yet the last.
  const during = lines.slice(0, -1);
  expect(during.length).toBeGreaterThan(0);
  for (const line of during) {
    expect(line.page).toBeGreaterThanOrEqual(1);
    expect(line.page).toBeLessThan(line.of);
  }
  expect(lines.map((l) => l.rows)).toEqual([...lines.map((l) => l.rows)].sort((x, y) => x - y));
  // One step, its progress asked for while it ran.
  const named = (name: string) => s.calls.filter((c) => c.name === name).length;
  expect(named('startImport')).toBe(1);
  expect(named('continueImport')).toBe(0);
  expect(named('importStatus')).toBeGreaterThanOrEqual(during.length);
});

test('Cancel reaches the step in flight: the run ends cancelled at the page it reached, the sheet untouched', async () => {
  const { a, p } = await importPressed();
  // The first page is in: the step has shown it, and goes on with the others.
  await p.locator('#progress-text', { hasText: /^page \d+ of \d+/ }).waitFor({ timeout: 60_000 });
  await p.getByRole('button', { name: 'Cancel the import' }).click();
  await p.locator('#progress-text', { hasText: /^Cancelled at page/ }).waitFor({ timeout: 60_000 });
  const text = (await p.locator('#progress-text').textContent()) ?? '';
  const m = /^Cancelled at page (\d+) of (\d+)/.exec(text);
  expect(m && Number(m[1])).toBeLessThan(Number(m?.[2]));
  // The cancel was sent while the step ran (before its answer), and no other step followed.
  const names = s.calls.map((c) => c.name);
  expect(names.filter((n) => n === 'startImport')).toHaveLength(1);
  expect(names.filter((n) => n === 'continueImport')).toHaveLength(0);
  expect(names.filter((n) => n === 'cancelImport').length).toBeGreaterThanOrEqual(1);
  expect(a.emu.workbook.byName('Limited partners')).toBeUndefined();
});

test('Cancel pressed with Import, before the run is saved: the run ends cancelled, the sheet untouched', async () => {
  const { a, p } = await importPressed();
  await p.getByRole('button', { name: 'Cancel the import' }).click();
  // Its step stops at its first round that comes after the cancel: before page 1 as a rule, never at the end.
  await p.locator('#progress-text', { hasText: /^Cancelled/ }).waitFor({ timeout: 60_000 });
  const text = (await p.locator('#progress-text').textContent()) ?? '';
  const m = /^Cancelled at page (\d+) of (\d+)/.exec(text);
  if (m) expect(Number(m[1])).toBeLessThan(Number(m[2]));
  else expect(text).toBe('Cancelled before the first page.');
  // The sidebar named the run it started, and every cancel named that run.
  const started = s.calls.filter((c) => c.name === 'startImport');
  const cancels = s.calls.filter((c) => c.name === 'cancelImport');
  expect(started).toHaveLength(1);
  const run = started[0].args[1];
  expect(run).toMatch(/^sidebar-[0-9a-f]{16}$/);
  expect(cancels.length).toBeGreaterThanOrEqual(1);
  for (const c of cancels) expect(c.args[1]).toBe(run);
  expect(s.calls.filter((c) => c.name === 'continueImport')).toHaveLength(0);
  expect(a.emu.workbook.byName('Limited partners')).toBeUndefined();
});
