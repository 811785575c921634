/**
 * The import form's filter editor and sort picker in the real dist/Sidebar.html, by keyboard:
 * controls named by what they act on, the live count ("N of M partners match") from a warm
 * partner snapshot with no request, a bad value explained in the words a save would use, focus
 * kept when a condition is removed, and an import saved with the conditions and sort that lands
 * the same partners as =LP_FILTER on them, with its filter and sort on the saved import's line;
 * axe finds nothing in the editor with its rows open. Sort by fit to a fund, the first sort key's
 * other choice, opens the fund id and "keep the best" fields (and hides the other keys, which have
 * nothing left to order), by keyboard; the fit columns are added like any column, and the import
 * lands the partners =LP_MATCH ranks first, in its order; axe finds nothing with the fit fields open.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { addin } from '../helpers/addin';
import { launch, shot } from '../helpers/browser';
import { sheet } from '../helpers/imports';
import { type RunningService, servicesForThisFile } from '../helpers/service';
import { focused, openSidebar, type SidebarPage } from '../helpers/sidebar-page';

const services = servicesForThisFile(1, ['--partners', '300']);
let svc: RunningService;
let browser: Browser;
let open: SidebarPage | undefined;

beforeAll(async () => {
  [svc] = services;
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await open?.close();
  await browser?.close();
});

test('conditions, a live count from the warm snapshot, a sort key, and an import that agrees with LP_FILTER', async () => {
  const a = addin(svc.url);
  // A formula reads the list into the snapshot: the editor's counts then send nothing.
  const europe = a.cell('LP_FILTER', [['region', 'is', 'Europe']], 'id', 'firm desc', '', false).value as string[][];
  expect(europe.length).toBeGreaterThan(10);
  open = await openSidebar(browser, a.emu);
  const { page } = open;
  await page.locator('#sort-field-1').waitFor();
  await svc.resetStats();

  await page.locator('#add-filter').focus();
  await page.keyboard.press('Enter');
  expect(await focused(page)).toEqual({ role: 'combobox', name: 'Field of condition 1' });
  await page.getByRole('combobox', { name: 'Field of condition 1' }).selectOption('region');
  await page.getByRole('combobox', { name: 'Operator of condition 1' }).selectOption('is');
  await page.getByRole('combobox', { name: 'Value of condition 1' }).fill('europe');
  await page.locator(`#filter-count:has-text("${europe.length} of ")`).waitFor();
  expect(await page.locator('#filter-count').textContent()).toMatch(
    new RegExp(`^${europe.length} of \\d+ partners match\\.$`),
  );
  expect((await svc.stats()).requests).toBe(0);

  // A second condition with a value that is not a number: the count line says what is wrong.
  await page.locator('#add-filter').click();
  await page.getByRole('combobox', { name: 'Field of condition 2' }).selectOption('ticketSize');
  await page.getByRole('combobox', { name: 'Operator of condition 2' }).selectOption('atLeast');
  await page.getByRole('combobox', { name: 'Value of condition 2' }).fill('lots');
  await page.locator('#filter-count.error').waitFor();
  expect(await page.locator('#filter-count').textContent()).toBe(
    'Filter 2 (ticketSize atLeast): needs a number, got "lots".',
  );
  await page.screenshot({ path: shot('sidebar-filter-error') });
  // Two conditions, one of them wrong, and a sort key: axe (WCAG 2.0, 2.1, 2.2 A and AA) finds nothing.
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(axe.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))).toEqual([]);
  // Removing it by keyboard: focus goes to the row that stays, and the count comes back.
  await page.getByRole('button', { name: 'Remove condition 2: ticketSize' }).focus();
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
    'Remove condition 1: region',
  );
  await page.locator(`#filter-count:has-text("${europe.length} of ")`).waitFor();
  // The last one removed: focus on "Add condition", and the line says what that means.
  await page.getByRole('button', { name: 'Remove condition 1: region' }).press('Enter');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('add-filter');
  await page.locator('#filter-count:has-text("No conditions: every active partner is imported.")').waitFor();
  await page.keyboard.press('Enter');
  await page.getByRole('combobox', { name: 'Value of condition 1' }).fill('Europe');
  await page.locator(`#filter-count:has-text("${europe.length} of ")`).waitFor();

  await page.getByRole('combobox', { name: 'Sort key 1', exact: true }).selectOption('firm');
  await page.getByRole('combobox', { name: 'Direction of sort key 1' }).selectOption('desc');
  await page.locator('#sheet-name').fill('Europe');
  await page.locator('#import').click();
  await page.locator('#import-message:has-text("Imported")').waitFor();
  expect(await page.locator('#import-message').textContent()).toMatch(
    new RegExp(
      `^Imported ${europe.length} of \\d+ active limited partners \\(those matching the filters\\) into "Europe"\\.`,
    ),
  );
  expect(open.calls.find((c) => c.name === 'saveImport')?.args[0]).toMatchObject({
    filters: [{ field: 'region', op: 'is', value: 'Europe' }],
    sort: [{ field: 'firm', descending: true }],
  });
  expect(
    sheet(a.emu, 'Europe')
      .slice(1)
      .map((r) => [r[0]]),
  ).toEqual(europe);
  await page.locator('li.import dd:has-text("region is Europe; sorted by firm ↓")').waitFor();
  await page.screenshot({ path: shot('sidebar-filters') });
}, 60_000);

test('sort by fit chosen and filled in by keyboard; the import lands the top of LP_MATCH; axe finds nothing', async () => {
  const a = addin(svc.url);
  const best = (a.cell('LP_MATCH', 'vf_0005', 5, 'fullName', '', false).value as unknown[][]).map((r) => r[1]);
  await open?.close();
  open = await openSidebar(browser, a.emu);
  const { page } = open;
  await page.locator('#sort-field-1').waitFor();
  expect(await page.locator('#fit-box').isHidden()).toBe(true);

  // The first sort key, by keyboard: the choice after "Service order".
  await page.locator('#sort-field-1').focus();
  await page.keyboard.press('ArrowDown');
  expect(await page.locator('#sort-field-1').inputValue()).toBe('fit:fund');
  await page.locator('#fit-box').waitFor();
  expect(await page.locator('#sort-field-2').isHidden()).toBe(true);
  expect(await page.locator('#sort-direction-1').isHidden()).toBe(true);
  await page.keyboard.press('Tab');
  expect(await focused(page)).toEqual({ role: 'textbox', name: 'Venture fund id' });
  await page.keyboard.type('vf_0005');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toEqual({ role: 'textbox', name: 'Keep the best (blank: all)' });
  await page.keyboard.type('5');

  // The fit columns are columns like any other.
  for (const column of ['fitRank', 'fitScore', 'fitSectors']) {
    await page.locator('#add-column').selectOption(column);
    await page.locator('#add-column-button').press('Enter');
  }
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(axe.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))).toEqual([]);
  await page.screenshot({ path: shot('sidebar-fit') });

  await page.locator('#sheet-name').fill('Targets');
  await page.locator('#import').press('Enter');
  await page.locator('#import-message:has-text("Imported")').waitFor();
  expect(await page.locator('#import-message').textContent()).toMatch(
    /^Imported 5 of \d+ active limited partners \(the best fits to fund vf_0005\) into "Targets"\./,
  );
  expect(open.calls.find((c) => c.name === 'saveImport')?.args[0]).toMatchObject({
    sort: [],
    fit: { fund: 'vf_0005', top: 5 },
  });
  const table = sheet(a.emu, 'Targets');
  const at = (name: string) => (table[0] as string[]).indexOf(name);
  expect(table.slice(1).map((r) => r[0])).toEqual(best);
  expect(table.slice(1).map((r) => r[at('fitRank')])).toEqual([1, 2, 3, 4, 5]);
  await page.locator('li.import dd:has-text("sorted by fit to fund vf_0005, the best 5")').waitFor();

  // Back to the service order: the other keys come back and the fit fields go.
  await page.locator('#sort-field-1').focus();
  await page.keyboard.press('ArrowUp');
  expect(await page.locator('#fit-box').isHidden()).toBe(true);
  expect(await page.locator('#sort-field-2').isVisible()).toBe(true);
}, 90_000);
