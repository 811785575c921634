/**
 * The real dist/Sidebar.html served on 127.0.0.1 as the only page, in a 300 px wide window (the
 * width Sheets gives a sidebar), its google.script.run backed by the bundle in an emulator of
 * this process (the workbench's own shim and host), so a test can act as another editor between
 * the owner's presses, read every call the sidebar made, and hold a call to see the sidebar while
 * it waits (an import that is running). Also: what the sidebar last announced in its status
 * regions, and the element that has focus, described as a person would hear it.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { ScriptRunHost } from '../../dev/emulator/hosts';
import type { Emulator } from '../../dev/emulator/runtime';
import { scriptRunShim, TOKEN_HEADER } from '../../dev/workbench/server';
import { launch } from './browser';

export interface SidebarCall {
  name: string;
  args: unknown[];
}

export interface SidebarPage {
  page: Page;
  url: string;
  /** Every call the sidebar made, in order. */
  calls: SidebarCall[];
  /** While set, a call with this name waits until `release()`. */
  hold(name: string): void;
  release(): void;
  /** Resolves when the call named by the last `hold` is waiting. */
  held(): Promise<void>;
  close(): Promise<void>;
}

const DIST = join(__dirname, '../../dist');

export async function openSidebar(
  browser: Browser,
  emu: Emulator,
  viewport = { width: 300, height: 800 },
): Promise<SidebarPage> {
  const token = 'sidebar-test-token';
  const host = new ScriptRunHost(emu);
  const calls: SidebarCall[] = [];
  let holding: string | undefined;
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => {};
  let arrived: Promise<void> = Promise.resolve();
  let signal: () => void = () => {};
  const html = readFileSync(join(DIST, 'Sidebar.html'), 'utf8').replace(
    /<head>/i,
    () => `<head>${scriptRunShim(token)}`,
  );
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
      return;
    }
    let text = '';
    for await (const chunk of req) text += chunk;
    if (req.headers[TOKEN_HEADER] !== token) {
      res.writeHead(403).end();
      return;
    }
    const { name, args } = JSON.parse(text) as { name: string; args: unknown[] };
    calls.push({ name, args });
    if (name === holding) {
      signal();
      await gate;
    }
    let out: unknown;
    try {
      out = { ok: true, value: await host.call(name, args) };
    } catch (e) {
      out = { ok: false, error: (e as Error).message };
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(out));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // A page of its own context (axe-core's Playwright runner needs one).
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.addInitScript(recordAnnouncements);
  await page.goto(url);
  return {
    page,
    url,
    calls,
    hold(name) {
      holding = name;
      gate = new Promise((resolve) => {
        open = resolve;
      });
      arrived = new Promise((resolve) => {
        signal = resolve;
      });
    },
    release() {
      holding = undefined;
      open();
    },
    held() {
      return arrived;
    },
    async close() {
      holding = undefined;
      open();
      await context.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What has focus, as a screen reader names it: role and accessible name (from the browser's accessibility tree). */
export async function focused(page: Page): Promise<{ role: string; name: string }> {
  const nothing = await page.evaluate(
    () => document.activeElement === null || document.activeElement === document.body,
  );
  if (nothing) return { role: 'nothing (the page body)', name: '' };
  const snapshot = await page.locator('*:focus').ariaSnapshot();
  // One YAML line: `- role "name"`, single-quoted as a whole when the name holds ": ".
  let line = snapshot.trim().split('\n')[0].replace(/^- /, '');
  if (line.startsWith("'"))
    line = line
      .slice(1)
      .replace(/'(:.*)?$/, '')
      .replace(/''/g, "'");
  const m = /^(\w+)(?: "((?:[^"\\]|\\.)*)")?/.exec(line);
  return { role: m?.[1] ?? '', name: (m?.[2] ?? '').replace(/\\"/g, '"') };
}

/** Runs in the page before its own script: logs every new text of a live region (what a screen reader reads out). */
function recordAnnouncements(): void {
  const log: string[] = [];
  (window as unknown as { __announced: string[] }).__announced = log;
  const live = (n: Node | null): Element | null =>
    (n instanceof Element ? n : (n?.parentElement ?? null))?.closest('[role="status"], [role="alert"], [aria-live]') ??
    null;
  const seen = new Map<Element, string>();
  new MutationObserver((records) => {
    for (const r of records) {
      const region = live(r.target);
      if (!region || region.getAttribute('aria-live') === 'off') continue;
      const text = (region.textContent ?? '').trim();
      if (text && seen.get(region) !== text) log.push(text);
      seen.set(region, text);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/** Everything live regions announced since the page opened (or since the last `clearAnnounced`), in order. */
export function announced(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window as unknown as { __announced: string[] }).__announced]);
}

export function clearAnnounced(page: Page): Promise<void> {
  return page.evaluate(() => {
    (window as unknown as { __announced: string[] }).__announced.length = 0;
  });
}

/** axe over the whole page at WCAG 2.0, 2.1 and 2.2 A/AA: the violations, as rule id and where. */
export async function violations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

export const press = async (page: Page, ...keys: string[]) => {
  for (const k of keys) await page.keyboard.press(k);
};
/** Tabs (forward, or backward with shift) until the control with this accessible name has focus. */
export async function tabTo(page: Page, name: string | RegExp, backward = false): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const f = await focused(page);
    if (typeof name === 'string' ? f.name === name : name.test(f.name)) return;
    await page.keyboard.press(backward ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`no control named ${name} reached by Tab`);
}

/**
 * One browser for a test file, and the sidebars its tests open (all closed after the file). `open`
 * waits until the sidebar has drawn its fetch count and its list of saved imports.
 */
export function sidebarsForThisFile(): (emu: Emulator) => Promise<SidebarPage> {
  let browser: Browser | undefined;
  const opened: SidebarPage[] = [];
  beforeAll(async () => {
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    for (const s of opened) await s.close();
    await browser?.close();
  });
  return async (emu) => {
    if (!browser) throw new Error('the browser is launched before the first test of the file');
    const s = await openSidebar(browser, emu);
    opened.push(s);
    await s.page.locator('#fetch-count:has-text("Fetches today")').waitFor();
    await s.page.locator('#no-imports, #imports').first().waitFor({ state: 'attached' });
    return s;
  };
}
