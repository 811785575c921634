/**
 * `npm run docs`: writes the generated documentation from its one source each (scripts/docs-lib.ts):
 * docs/benchmarks.md from bench/results.json, and the reference part of docs/functions.md from the
 * custom functions' JSDoc, each `@example` run by the built bundle (dist/, built first by the npm
 * script) against the reference service started for it. On a clean checkout it changes nothing. `--check` writes nothing and
 * exits 1 naming each stale page. `--screenshots` also retakes docs/workbench.png by following the
 * README's quick start in the workbench (a browser and a few seconds; run it when the page's look
 * or the quick start changes: a picture differs in its pixels on every run, so it is never retaken
 * unasked).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startService } from '../dev/service/spawn';
import { addin } from '../test/helpers/addin';
import {
  customFunctions,
  readResults,
  renderBenchmarks,
  renderFunctionReference,
  replaceFenced,
  runExample,
} from './docs-lib';

const ROOT = resolve(__dirname, '..');

/** The reference service the samples come from: its defaults (seed 42, 2,500 partners), as `npm run service` starts it. */
export const SAMPLE_SERVICE_ARGS: string[] = [];

/** docs/benchmarks.md as bench/results.json says it should be. */
export const benchmarksPage = (root = ROOT) => ({
  path: 'docs/benchmarks.md',
  text: renderBenchmarks(readResults(root)),
});

/** docs/functions.md as the JSDoc and the samples (the bundle against the service at `serviceUrl`) say it should be. */
export function functionsPage(serviceUrl: string, root = ROOT): { path: string; text: string } {
  const { emu } = addin(serviceUrl);
  const page = readFileSync(join(root, 'docs/functions.md'), 'utf8');
  return {
    path: 'docs/functions.md',
    text: replaceFenced(
      page,
      'reference',
      renderFunctionReference(customFunctions(root), (formula) => runExample(emu, formula)),
    ),
  };
}

/** Every generated page: its path and its text as the sources say it should be. */
export async function generatedPages(root = ROOT): Promise<Array<{ path: string; text: string }>> {
  const service = await startService(SAMPLE_SERVICE_ARGS);
  try {
    return [benchmarksPage(root), functionsPage(service.url, root)];
  } finally {
    await service.stop();
  }
}

async function screenshots(): Promise<void> {
  const { launch } = await import('../test/helpers/browser');
  const { importWithSidebar, startWorkbench, cellIs } = await import('../test/helpers/workbench');
  const wb = await startWorkbench();
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(wb.url);
    await importWithSidebar(page);
    await page.locator('.tab:has-text("Sheet1")').click();
    await page.locator('td[data-cell="B2"]').click();
    await page.keyboard.type(`=LP_GET('Limited partners'!A2:A20, "fullName,firm")`);
    await page.keyboard.press('Enter');
    await cellIs(page, 'B20', /.+/);
    await page.locator('td[data-cell="B2"]').click();
    await page.screenshot({ path: join(ROOT, 'docs/workbench.png') });
    console.log('wrote docs/workbench.png');
  } finally {
    await browser.close();
    await wb.stop();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { check: { type: 'boolean' }, screenshots: { type: 'boolean' } } });
  const stale: string[] = [];
  for (const { path, text } of await generatedPages()) {
    const now = readFileSync(join(ROOT, path), 'utf8');
    if (now === text) continue;
    stale.push(path);
    if (!values.check) writeFileSync(join(ROOT, path), text);
  }
  if (values.check) {
    for (const path of stale) console.error(`${path} is stale: run npm run docs`);
    return stale.length ? 1 : 0;
  }
  console.log(stale.length ? `wrote ${stale.join(', ')}` : 'generated pages up to date');
  if (values.screenshots) await screenshots();
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`docs failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}
