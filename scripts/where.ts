/**
 * `npm run where -- Code:LINE:COL [...]`: the place in src/ of a place in the minified dist/Code.js,
 * as an Apps Script stack trace names it (`at Code:1:23456`, or `Code.gs`, `Code.js`). Reads the
 * source map the build keeps beside dist (dist-map/Code.js.map), so run it on the build that was
 * pushed. A stack trace pasted whole on standard input works too: every place in it is mapped.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { mapFile } from './build-lib';

const root = resolve(__dirname, '..');
const PLACE = /\bCode(?:\.gs|\.js)?:(\d+):(\d+)\b/g;

/** `file:line:col` in src/ for a 1-based line and column of Code.js, or undefined outside the bundle (a wrapper). */
export function where(map: SourceMap, line: number, column: number): string | undefined {
  const entry = map.findEntry(line - 1, column - 1) as {
    generatedLine?: number;
    originalSource?: string;
    originalLine?: number;
    originalColumn?: number;
  };
  // The nearest mapped place before it, when there is none on its line: a wrapper, or the bundle's helpers.
  if (entry.generatedLine !== line - 1 || entry.originalSource === undefined || entry.originalLine === undefined)
    return undefined;
  const file = relative(root, resolve(root, entry.originalSource));
  return `${file}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
}

export function mapText(map: SourceMap, text: string): string {
  return text.replace(PLACE, (place, line: string, col: string) => {
    const found = where(map, Number(line), Number(col));
    return found ? `${place} (${found})` : place;
  });
}

if (require.main === module) {
  const map = new SourceMap(JSON.parse(readFileSync(mapFile(join(root, 'dist')), 'utf8')));
  const args = process.argv.slice(2);
  if (args.length) console.log(args.map((a) => mapText(map, a)).join('\n'));
  else console.log(mapText(map, readFileSync(0, 'utf8')));
}
