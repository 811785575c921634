/**
 * `npm run where -- Code:LINE:COL [...]`: the place in src/ of a place in the minified bundle, as
 * an Apps Script stack trace names it: `at Code:1:23456` (or `Code.gs`, `Code.js`) in dist/Code.js,
 * `at lp-addon.js:4:30512` in a part the bundle compiles on its first use (its `//# sourceURL`,
 * scripts/build-lib.ts). Reads the source maps the build keeps beside dist (dist-map/), so run it
 * on the build that was pushed. A stack trace pasted whole on standard input works too: every
 * place in it is mapped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { mapFile } from './build-lib';

const root = resolve(__dirname, '..');
const PLACE = /\b(Code(?:\.gs|\.js)?|lp-[\w.-]+?\.js):(\d+):(\d+)\b/g;

/** The source map of a file a place names (`Code`, `lp-addon.js`), or undefined when there is none. */
export type Maps = (file: string) => SourceMap | undefined;

/** The maps the build wrote for the bundle in `dist` (read once each). */
export function mapsOf(dist: string): Maps {
  const loaded = new Map<string, SourceMap | undefined>();
  return (file) => {
    const path = file.startsWith('lp-') ? join(dirname(mapFile(dist)), `${file}.map`) : mapFile(dist);
    if (!loaded.has(path))
      loaded.set(path, existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8'))) : undefined);
    return loaded.get(path);
  };
}

/** `file:line:col` in src/ for a 1-based line and column of a map's file, or undefined outside the bundle (a wrapper). */
export function where(map: SourceMap, line: number, column: number): string | undefined {
  const entry = map.findEntry(line - 1, column - 1) as {
    generatedLine?: number;
    originalSource?: string;
    originalLine?: number;
    originalColumn?: number;
  };
  // The nearest mapped place before it, when there is none on its line: a wrapper, or the bundle's loader.
  if (entry.generatedLine !== line - 1 || entry.originalSource === undefined || entry.originalLine === undefined)
    return undefined;
  const file = relative(root, resolve(root, entry.originalSource));
  return `${file}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
}

export function mapText(maps: Maps, text: string): string {
  return text.replace(PLACE, (place, file: string, line: string, col: string) => {
    const map = maps(file);
    const found = map && where(map, Number(line), Number(col));
    return found ? `${place} (${found})` : place;
  });
}

if (require.main === module) {
  const maps = mapsOf(join(root, 'dist'));
  const args = process.argv.slice(2);
  if (args.length) console.log(args.map((a) => mapText(maps, a)).join('\n'));
  else console.log(mapText(maps, readFileSync(0, 'utf8')));
}
