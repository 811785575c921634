/**
 * The build: src/index.ts into dist/Code.js (one classic script, the bundle as an IIFE under the
 * global `LP` (GLOBAL_NAME, wrapModule), then one top-level wrapper function per exposed global carrying the
 * source's JSDoc), the sidebar into one self-contained dist/Sidebar.html, and the manifest.
 * It fails loudly when an exposed function has no wrapper or a custom function (a name in
 * capitals) has no @customfunction doc, because Sheets would then silently not offer it.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';

/** The bundle's one global; short, since every wrapper names it. */
export const GLOBAL_NAME = 'LP';
/** dist/Code.js's source map, in a folder beside dist (clasp pushes every file in dist); not committed. */
export const mapFile = (dist: string): string => `${dist}-map/Code.js.map`;

export interface ExposedFunction {
  name: string;
  params: string[];
  doc?: string;
  custom: boolean;
}

export class BuildError extends Error {}

export const isCustomFunctionName = (name: string): boolean => /^[A-Z][A-Z0-9_]*$/.test(name);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function splitParams(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if ('([{<'.includes(ch)) depth++;
    if (')]}>'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current);
  return out.map((p) => p.trim().split(/[?:=\s]/)[0]).filter(Boolean);
}

/** Finds `export function NAME(params)` and the JSDoc block right above it, in any file under srcDir. */
export function describeExports(srcDir: string, names: readonly string[]): ExposedFunction[] {
  const texts = sourceFiles(srcDir).map((file) => readFileSync(file, 'utf8'));
  return names.map((name) => {
    const decl = new RegExp(`(/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/\\s*)?export function ${name}\\s*\\(([^)]*)\\)`);
    for (const text of texts) {
      const m = decl.exec(text);
      if (m) return { name, params: splitParams(m[2]), doc: m[1]?.trim(), custom: isCustomFunctionName(name) };
    }
    throw new BuildError(`Exposed global ${name} is not declared as "export function ${name}(…)" under ${srcDir}.`);
  });
}

export function checkDocs(fns: readonly ExposedFunction[]): void {
  for (const fn of fns) {
    const tagged = !!fn.doc && /@customfunction\b/.test(fn.doc);
    if (fn.custom && !tagged)
      throw new BuildError(`Custom function ${fn.name} has no JSDoc block with @customfunction.`);
    if (!fn.custom && tagged)
      throw new BuildError(`${fn.name} has @customfunction but custom function names are in capitals.`);
    if (fn.custom) {
      for (const p of fn.params) {
        if (!new RegExp(`@param\\s+\\{[^}]*\\}\\s+\\[?${p}\\b`).test(fn.doc as string)) {
          throw new BuildError(`Custom function ${fn.name} has no @param line for "${p}".`);
        }
      }
    }
  }
}

export function wrapper(fn: ExposedFunction): string {
  const args = fn.params.join(', ');
  // Sheets shows a custom function's JSDoc; the other wrappers are one line each, without spaces.
  if (!fn.custom) {
    const list = fn.params.join(',');
    return `function ${fn.name}(${list}){return ${GLOBAL_NAME}.${fn.name}(${list})}\n`;
  }
  return `${fn.doc ? `${fn.doc}\n` : ''}function ${fn.name}(${args}) {\n  return ${GLOBAL_NAME}.${fn.name}(${args});\n}\n`;
}

/** Checks a built Code.js: classic script, loads in a bare context, every global a top-level function. */
export function verifyBundle(code: string, fns: readonly ExposedFunction[]): void {
  if (/^\s*(import|export)\s/m.test(code)) throw new BuildError('dist/Code.js contains an import/export statement.');
  if (/\brequire\(/.test(code)) throw new BuildError('dist/Code.js calls require().');
  const context = vm.createContext({});
  vm.runInContext(code, context, { filename: 'Code.js' });
  for (const fn of fns) {
    if (!new RegExp(`^function ${fn.name}\\(`, 'm').test(code) || typeof context[fn.name] !== 'function') {
      throw new BuildError(`dist/Code.js has no top-level wrapper function ${fn.name}.`);
    }
    const doc = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*function ${fn.name}\\(`).exec(code);
    if (fn.custom && !/@customfunction\b/.test(doc?.[1] ?? '')) {
      throw new BuildError(`dist/Code.js: wrapper ${fn.name} lost its @customfunction doc.`);
    }
  }
}

export interface CodeBuild {
  code: string;
  /** The source map of dist/Code.js (kept beside dist, never pushed): `npm run where -- Code:LINE:COL` reads it. */
  map: string;
  exposed: ExposedFunction[];
}

/** The line of Code.js the bundle starts on: after the header line and the line opening its function. */
const BUNDLE_FIRST_LINE = 3;

/**
 * The bundle (esbuild's module output) as one classic script: its body inside a function that
 * returns the exports as a plain object under GLOBAL_NAME. esbuild's own IIFE format defines each
 * export as a getter on a namespace object (and copies them once more), work every execution
 * would pay before it runs anything; here an export is a plain property. The body keeps its lines,
 * so the map of the module output only moves down (shiftMap).
 */
export function wrapModule(moduleCode: string): string {
  const body = moduleCode.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n').trimEnd();
  const last = /export\s*\{([^}]*)\};?$/.exec(body);
  if (!last) throw new BuildError('The bundle does not end with its export list.');
  const exports = last[1].split(',').map((part) => {
    const [local, exported = local] = part.trim().split(/\s+as\s+/);
    return `${exported}:${local}`;
  });
  return `var ${GLOBAL_NAME}=(()=>{"use strict";\n${body.slice(0, last.index)}\nreturn{${exports.join(',')}}})();`;
}

export async function buildCode(rootDir: string, srcDir = join(rootDir, 'src')): Promise<CodeBuild> {
  const result = await build({
    entryPoints: [join(srcDir, 'index.ts')],
    bundle: true,
    // Module output, wrapped by wrapModule into one classic script.
    format: 'esm',
    platform: 'neutral',
    target: 'es2020',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    // Minified: Apps Script compiles and runs the whole file on every execution (every custom
    // function cell), and compile time grows with its size. The wrappers below stay readable
    // (Sheets shows their JSDoc); a place in the bundle is mapped back to src/ with the map.
    minify: true,
    // Apps Script keeps a file as UTF-8: text such as … stays one character, not a \u escape.
    charset: 'utf8',
    sourcemap: 'external',
    sourcesContent: false,
    // The map's sources are relative to the project (the folder of this nominal output file).
    absWorkingDir: rootDir,
    outfile: join(rootDir, 'Code.js'),
  });
  const exposed = describeExports(srcDir, exportNamesFromIndex(join(srcDir, 'index.ts')));
  checkDocs(exposed);
  const bundle = result.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
  const rawMap = result.outputFiles.find((f) => f.path.endsWith('.map'))?.text ?? '{}';
  const header = '// Built from src/; npm run where -- Code:LINE:COL\n';
  const code = `${header}${wrapModule(bundle)}\n\n${exposed.map(wrapper).join('')}`;
  verifyBundle(code, exposed);
  return { code, map: shiftMap(rawMap, BUNDLE_FIRST_LINE - 1), exposed };
}

/** The map with `lines` empty lines put before its first (the header above the bundle). */
function shiftMap(rawMap: string, lines: number): string {
  const map = JSON.parse(rawMap) as { mappings: string; sources: string[] };
  map.mappings = ';'.repeat(lines) + map.mappings;
  return JSON.stringify(map);
}

/** The names src/index.ts exports (an IIFE's metafile does not list them). */
export function exportNamesFromIndex(indexPath: string): string[] {
  const text = readFileSync(indexPath, 'utf8');
  const names: string[] = [];
  for (const m of text.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.push(name);
    }
  }
  if (names.length === 0) throw new BuildError(`${indexPath} exports nothing.`);
  return names;
}

export async function buildSidebar(rootDir: string): Promise<string> {
  const dir = join(rootDir, 'sidebar');
  const script = await build({
    entryPoints: [join(dir, 'main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2019',
    write: false,
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const js = script.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1');
  const css = readFileSync(join(dir, 'styles.css'), 'utf8');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  if (!html.includes('<!-- STYLES -->') || !html.includes('<!-- SCRIPT -->')) {
    throw new BuildError('sidebar/index.html needs the <!-- STYLES --> and <!-- SCRIPT --> markers.');
  }
  return html
    .replace('<!-- STYLES -->', () => `<style>\n${css}</style>`)
    .replace('<!-- SCRIPT -->', () => `<script>\n${js}</script>`);
}
