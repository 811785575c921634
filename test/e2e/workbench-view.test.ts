/**
 * What a person sees of the workbench page (real Chromium, scrollbars drawn as a person sees them):
 * no page scrollbar over the sheet tabs with the sidebar open, text that runs on over empty cells
 * as in Sheets, a formula bar with nothing in it for an empty cell, and a clock move that shows
 * each trigger run as it ends.
 */
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from '../helpers/browser';
import {
  cell,
  cellIs,
  goTo,
  type RunningWorkbench,
  saveKeyWithSidebar,
  startWorkbench,
  typeInto,
} from '../helpers/workbench';

let browser: Browser;
let wb: RunningWorkbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench(['--partners', '300']);
  browser = await launch({ scrollbars: true });
  page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(wb.url);
  await saveKeyWithSidebar(page);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await wb?.stop();
});

test.each([
  [1280, 720],
  [1400, 900],
])(
  'at %i×%i with the sidebar open, the page has no scrollbar and the sheet tabs are in full view',
  async (width, height) => {
    await page.setViewportSize({ width, height });
    await page.locator('#sidebar-frame').waitFor();
    const page$ = await page.evaluate(() => {
      const root = document.documentElement;
      return { wide: root.scrollWidth > root.clientWidth, tall: root.scrollHeight > root.clientHeight };
    });
    expect(page$).toEqual({ wide: false, tall: false });
    // What is drawn at the middle and the bottom edge of the tab is the tab itself (no scrollbar over it).
    const tab = page.locator('.tab', { hasText: 'Sheet1' });
    const box = (await tab.boundingBox()) as { x: number; y: number; width: number; height: number };
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    const hits = await page.evaluate(([x, ys]) => ys.map((y) => document.elementFromPoint(x, y)?.textContent ?? ''), [
      box.x + box.width / 2,
      [box.y + box.height / 2, box.y + box.height - 1],
    ] as const);
    expect(hits).toEqual(['Sheet1', 'Sheet1']);
    await page.screenshot({ path: shot(`workbench-view-${width}x${height}`) });
  },
);

test('an error text runs on over the empty cells to its right, whole, and stops at the next cell with content', async () => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const missing = 'lp_no_such_partner_anywhere_in_the_service';
  await typeInto(page, 'A1', 'lp_0000a');
  await typeInto(page, 'A2', missing);
  await typeInto(page, 'B1', '=LP_GET(A1:A2, "fullName")');
  await cellIs(page, 'B2', new RegExp(`^Error: .*${missing}`));
  const drawn = () =>
    cell(page, 'B2').evaluate((td) => {
      const text = td.querySelector<HTMLElement>('.spill');
      const rect = (el: Element) => el.getBoundingClientRect();
      return text
        ? {
            whole: text.scrollWidth <= text.clientWidth,
            right: rect(text).right,
            cell: rect(td).right,
            c2: rect(document.querySelector('td[data-cell="C2"]') as Element),
            d2: rect(document.querySelector('td[data-cell="D2"]') as Element).left,
          }
        : null;
    });
  const open = await drawn();
  expect(open).toMatchObject({ whole: true });
  expect(open?.right).toBeGreaterThan(open?.cell as number);
  // Drawn over the empty neighbour, not under its background.
  const over = await page.evaluate(
    ([x, y]) => {
      const text = document.querySelector<HTMLElement>('td[data-cell="B2"] .spill') as HTMLElement;
      text.style.pointerEvents = 'auto';
      const hit = document.elementFromPoint(x, y);
      text.style.pointerEvents = '';
      return hit === text;
    },
    [open?.c2.left as number, (open?.c2.top as number) + (open?.c2.height as number) / 2] as const,
  );
  expect(over).toBe(true);
  await page.screenshot({ path: shot('workbench-view-error-runs-on') });
  // A value two cells on: the text stops where that cell starts.
  await typeInto(page, 'D2', 'note');
  await cellIs(page, 'D2', 'note');
  await page.waitForFunction(() => {
    const text = document.querySelector('td[data-cell="B2"] .spill');
    const d2 = document.querySelector('td[data-cell="D2"]');
    return !!text && !!d2 && text.getBoundingClientRect().right <= d2.getBoundingClientRect().left + 1;
  });
});

test('the formula bar shows nothing for an empty cell, and the cell content for one that has some', async () => {
  await goTo(page, 'H12');
  const bar = () =>
    page.locator('#formula-input').evaluate((el: HTMLInputElement) => ({ value: el.value, shown: el.placeholder }));
  expect(await bar()).toEqual({ value: '', shown: '' });
  await goTo(page, 'B1');
  expect(await bar()).toEqual({ value: '=LP_GET(A1:A2, "fullName")', shown: '' });
});

test('Advance 1 day with an hourly schedule shows each trigger run as it ends, then how many ran', async () => {
  const token = /name="workbench-token" content="([0-9a-f]+)"/.exec(await (await fetch(`${wb.url}/`)).text())?.[1];
  const run = async (name: string, args: unknown[]) =>
    (
      (await (
        await fetch(`${wb.url}/api/run`, {
          method: 'POST',
          headers: { 'x-workbench-token': token as string },
          body: JSON.stringify({ name, args }),
        })
      ).json()) as { value: { import: { id: string } } }
    ).value;
  const saved = await run('saveImport', [{ sheetName: 'Hourly', fields: ['id', 'fullName'] }]);
  await run('scheduleImport', [saved.import.id, { every: 'hours', hours: 1 }]);
  await page.click('#triggers-button');
  await page.locator('#trigger-list td:has-text("runScheduledImports")').waitFor();
  expect(await page.locator('#trigger-list').textContent()).toContain('every hour');
  // Every text the status line shows, in order.
  await page.evaluate(() => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    const status = document.getElementById('trigger-status') as HTMLElement;
    new MutationObserver(() => said.push(status.textContent ?? '')).observe(status, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  await page.click('#advance-day');
  await page.locator('#trigger-status:has-text("Done:")').waitFor({ timeout: 300_000 });
  const said = await page.evaluate(() => (window as unknown as { said: string[] }).said);
  const runs = said.filter((t) =>
    /^Run \d+ \(none failed so far\): Clock at .* UTC: runScheduledImports ran\.$/.test(t),
  );
  expect(runs.length).toBeGreaterThanOrEqual(22);
  expect(runs.map((t) => Number(/^Run (\d+)/.exec(t)?.[1]))).toEqual(runs.map((_, i) => i + 1));
  expect(said[said.length - 1]).toMatch(/runScheduledImports ran\. Done: (2[34]) trigger runs\.$/);
  expect(await page.locator('#advance-day').isEnabled()).toBe(true);
  await page.locator('.tab:has-text("Hourly")').waitFor();
}, 360_000);
