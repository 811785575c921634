/**
 * Starts `npm start`'s workbench (dev/workbench/cli.ts) as a child process on a free port, with its
 * own state folder, and drives its page as a user would: the name box, the keyboard, the cells as
 * drawn (waiting for the condition, never for a fixed time).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { startChild } from '../../dev/child';
import { DEMO_KEY } from '../../dev/service/spawn';

export { DEMO_KEY };

export interface RunningWorkbench {
  url: string;
  stateDir: string;
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL: the workbench gets no chance to clean up. */
  kill(): void;
}

export async function startWorkbench(
  args: string[] = [],
  stateDir = mkdtempSync(join(tmpdir(), 'workbench-')),
): Promise<RunningWorkbench> {
  const child = await startChild(
    'dev/workbench/cli.ts',
    ['--port', '0', '--state-dir', stateDir, ...args],
    /Investor Data workbench: (\S+)/,
    'workbench',
  );
  return {
    url: child.ready,
    stateDir,
    pid: child.process.pid as number,
    stop: () => child.stop('SIGTERM'),
    kill: () => child.process.kill('SIGKILL'),
  };
}

export const cell = (page: Page, a1: string): Locator => page.locator(`td[data-cell="${a1}"]`);

/** Waits until the grid draws the cell with exactly this text (or text matching the pattern). */
export async function cellIs(page: Page, a1: string, want: string | RegExp, timeout = 30_000): Promise<void> {
  const [source, flags, exact] = typeof want === 'string' ? [want, '', true] : [want.source, want.flags, false];
  await page.waitForFunction(
    ([a, s, f, x]) => {
      const text = document.querySelector(`td[data-cell="${a}"]`)?.textContent ?? null;
      return text !== null && (x ? text === s : new RegExp(s, f).test(text));
    },
    [a1, source, flags, exact] as const,
    { timeout },
  );
}

/** Goes to a cell with the name box, as a user would type its address and press Enter. */
export async function goTo(page: Page, a1: string): Promise<void> {
  await page.fill('#name-box', a1);
  await page.press('#name-box', 'Enter');
  await page.locator(`td.selected[data-cell="${a1.replace(/^.*!/, '')}"]`).waitFor();
}

/** Selects a cell and types over it, then presses a key (Enter by default), as in Sheets. */
export async function typeInto(page: Page, a1: string, text: string, key = 'Enter'): Promise<void> {
  await goTo(page, a1);
  await page.keyboard.type(text);
  await page.keyboard.press(key);
}

/** Waits for the page to redraw from the server `times` more times (to see that something stays). */
export async function refreshes(page: Page, times = 2): Promise<void> {
  const now = Number(await page.evaluate(() => document.body.dataset.refreshes ?? '0'));
  await page.waitForFunction((n) => Number(document.body.dataset.refreshes ?? '0') >= n, now + times, {
    timeout: 30_000,
  });
}

/** Investor Data ▸ Open sidebar, paste the key, Save key, and answer "Send my key to <host>?" with yes. */
export async function saveKeyWithSidebar(page: Page, key = DEMO_KEY): Promise<FrameLocator> {
  await page.click('#menu-investor-data');
  await page.click('text=Open sidebar');
  const sidebar = page.frameLocator('#sidebar-frame');
  await sidebar.locator('#api-key').fill(key);
  await sidebar.locator('#save-key').click();
  await sidebar.getByRole('button', { name: /^Send my key to / }).click();
  await sidebar.locator(`#key-status:has-text("ending …${key.slice(-4)}")`).waitFor();
  return sidebar;
}

/** The README's first steps: Investor Data ▸ Open sidebar, paste the key, Save key, Send my key to …, Import, and wait for the end. */
export async function importWithSidebar(page: Page, key = DEMO_KEY): Promise<FrameLocator> {
  const sidebar = await saveKeyWithSidebar(page, key);
  await sidebar.locator('#import').click();
  await sidebar.locator('#import-message.ok').waitFor({ timeout: 90_000 });
  return sidebar;
}
