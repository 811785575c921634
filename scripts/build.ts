/**
 * `npm run build`: writes dist/Code.js, its deferred parts (dist/lp-*.html), dist/Sidebar.html
 * and dist/appsscript.json, the exact files `clasp push` sends (rootDir "dist" in .clasp.json). Exits non-zero with the reason when
 * a check fails (scripts/build-lib.ts for the code, scripts/manifest.ts for the manifest:
 * least-privilege scopes, and `ADDON_URL_ALLOWLIST` as urlFetchWhitelist for an add-on).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildCode, buildSidebar, mapFile, unpackedText } from './build-lib';
import { buildManifest, type Manifest } from './manifest';

async function main(): Promise<void> {
  const root = resolve(__dirname, '..');
  const srcDir = process.argv[2] ? resolve(process.argv[2]) : join(root, 'src');
  const dist = join(root, process.env.BUILD_OUT_DIR ?? 'dist');
  const { code, map, deferredMaps, parts, exposed } = await buildCode(root, srcDir);
  const sidebar = await buildSidebar(root);
  const manifest = buildManifest(
    JSON.parse(readFileSync(join(root, 'appsscript.json'), 'utf8')) as Manifest,
    unpackedText(code, parts),
  );
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, 'Code.js'), code);
  for (const [name, packed] of Object.entries(parts)) writeFileSync(join(dist, `${name}.html`), packed);
  rmSync(dirname(mapFile(dist)), { recursive: true, force: true });
  mkdirSync(dirname(mapFile(dist)), { recursive: true });
  writeFileSync(mapFile(dist), map);
  for (const [name, text] of Object.entries(deferredMaps))
    writeFileSync(join(dirname(mapFile(dist)), `${name}.map`), text);
  writeFileSync(join(dist, 'Sidebar.html'), sidebar);
  writeFileSync(join(dist, 'appsscript.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const custom = exposed.filter((f) => f.custom).length;
  const partsKb = Object.values(parts).reduce((n, p) => n + p.length, 0) / 1024;
  console.log(
    `built ${dist}: Code.js ${(code.length / 1024).toFixed(1)} KB, ${exposed.length} globals (${custom} custom functions), ${Object.keys(parts).length} parts compiled on first use ${partsKb.toFixed(1)} KB, Sidebar.html ${(sidebar.length / 1024).toFixed(1)} KB`,
  );
}

main().catch((e: unknown) => {
  console.error(`build failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
