/**
 * Chromium for the browser tests: Debian's /usr/bin/chromium or CHROME_PATH, headless, with the
 * flags this machine's closed network needs. A missing browser fails with the instruction to
 * install it; it is never skipped and never downloaded by a tool.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const ARTIFACTS = join(__dirname, '../../test-artifacts');

export function chromePath(): string {
  const path = process.env.CHROME_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(`No Chromium at ${path}. Install Debian's chromium (apt-get install -y chromium) or set CHROME_PATH to a Chromium binary.`);
  }
  return path;
}

export async function launch(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: chromePath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

export const shot = (name: string) => join(ARTIFACTS, `${name}.png`);
