/**
 * Jest global set-up: resolves the browser once, before any worker starts, so that parallel
 * browser suites never unpack the packaged Chromium at the same time. Workers inherit CHROME_PATH.
 */
import { chromePath } from './browser';

export default async function setup(): Promise<void> {
  process.env.CHROME_PATH = await chromePath();
}
