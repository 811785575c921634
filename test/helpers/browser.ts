/**
 * Chromium for the browser tests, found without anything outside npm: CHROME_PATH if set, else
 * Debian's /usr/bin/chromium if present, else the Chromium build shipped inside the
 * `@sparticuz/chromium` package (unpacked once into the system's temp folder). Headless, with the
 * flags this machine's closed network needs; never downloaded by a tool, never skipped.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const ARTIFACTS = join(__dirname, '../../test-artifacts');

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** The browser binary: CHROME_PATH, the system's Chromium, or the packaged one. */
export async function chromePath(): Promise<string> {
  const chosen = process.env.CHROME_PATH;
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`CHROME_PATH names ${chosen}, which does not exist.`);
    return chosen;
  }
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  const packaged = (await import('@sparticuz/chromium')).default;
  return packaged.executablePath();
}

/**
 * The browser. Headless Chromium hides scrollbars unless told (`scrollbars`: drawn as a person
 * sees them, taking their room, so a test can see one cover what is under it).
 */
export async function launch(o: { scrollbars?: boolean } = {}): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: await chromePath(),
    headless: true,
    ...(o.scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export const shot = (name: string) => join(ARTIFACTS, `${name}.png`);
