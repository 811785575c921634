/**
 * The build: src/index.ts into dist/Code.js (one classic script, the bundle as an IIFE under the
 * global `LP` (GLOBAL_NAME, linkParts), then one top-level wrapper function per exposed global carrying the
 * source's JSDoc), the sidebar into one self-contained dist/Sidebar.html, and the manifest.
 * It fails loudly when an exposed function has no wrapper or a custom function (a name in
 * capitals) has no @customfunction doc, because Sheets would then silently not offer it.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import vm from 'node:vm';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'acorn';
import { build, transform } from 'esbuild';

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
  /** The source map of each deferred part by the name its place carries in a stack trace (`lp-…js`). */
  deferredMaps: Record<string, string>;
  /** Each deferred part's shipped content (packedPart) by its project file (partFile): dist/NAME.html. */
  parts: Record<string, string>;
  exposed: ExposedFunction[];
}

/**
 * The bundle's entry groups: the modules of src/entry whose globals load together. `functions`
 * (the custom functions most cells run: LP_GET and friends) is plain code in dist/Code.js,
 * compiled in every execution. Every other group is shipped as text (an HTML file, packedPart)
 * and compiled on its first use in an execution (`(0,eval)`), since Apps Script compiles every
 * script file in every execution (dev/emulator/compile.ts has the rates), and most executions
 * are formulas that never need it: `lists`, the custom functions that
 * answer with a table of their own (a list, the field lists: a few a sheet, not a column);
 * `formulas`, the rarer custom functions' own code; `addon` (every module not listed), the import, the sidebar's
 * endpoints, the menu, diagnostics and triggers. esbuild splits the code the groups share into
 * parts of their own, each compiled where it is first needed. Fewer groups, fewer parts: each
 * part's import and export lists cost bytes.
 */
export const ENTRY_GROUPS: Readonly<Record<string, readonly string[]>> = {
  functions: ['./entry/custom-functions'],
  lists: ['./entry/lists'],
  formulas: ['./entry/filter', './entry/find', './entry/match'],
};
/** The group every entry module not named in ENTRY_GROUPS joins. */
const REST_GROUP = 'addon';
/** The group whose code is plain. */
export const PLAIN_GROUP = 'functions';

/**
 * Modules the plain code calls only on a rarer path, shipped as deferred parts (each key names one
 * part and lists its modules) and compiled on the first call of one of their functions in an
 * execution. A part's modules are those one kind of execution needs together, since each part an
 * execution loads costs it three Utilities calls to decode besides its compilation:
 * - `miss`: what a formula that misses the cache needs: the lookup's misses, the read of a
 *   formula's column, the page reader, the read of the list shared with the cells waiting for it,
 *   and the snapshot (an import step needs the page reader and the snapshot too);
 * - `send`: the sending of requests and the reading of their answers, which only an execution
 *   that asks the service anything needs (a formula answered from the cache never does), with
 *   the request URLs (the redaction of keys stays plain: a formula that shows an error needs it).
 * Every importer outside the part gets a stand-in module instead (standIn), whose functions load
 * the part and call the real ones, so no source changes; only a function can stand in, so an
 * import of any other export of such a module fails the build (esbuild: "No matching export"),
 * and a part's modules export no function under the same name (the build checks it).
 */
export const DEFERRED_MODULES: Readonly<Record<string, readonly string[]>> = {
  miss: ['./api/misses', './gas/neighbours', './api/pages', './api/shares', './api/snapshot'],
  send: ['./api/send', './gas/http', './api/response', './api/url', './api/transport'],
};

/** The name through which a stand-in reaches its deferred module's part: a global the minifier leaves as it is, bound in each part that names it (partFunction). */
const MODULE_LOADER = '__lpModule';

/** The functions a module exports (`export function f`, `export const f = (…) =>`), read in its compiled text (esbuild lists a module's exports at its end). */
async function functionExports(file: string): Promise<string[]> {
  const js = (await transform(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm' })).code;
  const body = (parse(js, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as { body: AcornNode[] }).body;
  const functions = new Set<string>();
  for (const node of body) {
    if (node.type === 'FunctionDeclaration' && node.id) functions.add(node.id.name);
    if (node.type === 'VariableDeclaration')
      for (const d of node.declarations ?? [])
        if (d.init?.type === 'ArrowFunctionExpression' || d.init?.type === 'FunctionExpression')
          functions.add(d.id.name);
  }
  return body
    .flatMap((node) => (node.type === 'ExportNamedDeclaration' ? (node.specifiers ?? []) : []))
    .filter((spec) => functions.has(spec.local.name))
    .map((spec) => spec.exported.name);
}

/** The few fields of acorn's nodes functionExports reads. */
interface AcornNode {
  type: string;
  id?: { name: string };
  declarations?: Array<{ id: { name: string }; init?: { type: string } }>;
  specifiers?: Array<{ local: { name: string }; exported: { name: string } }>;
}

/** A deferred module: the part it is shipped in, and the functions it exports. */
interface DeferredFile {
  key: string;
  functions: string[];
}

/** Each deferred module's file, with its part and functions; a part whose modules export a function under the same name is refused. */
async function deferredFiles(srcDir: string): Promise<Map<string, DeferredFile>> {
  const out = new Map<string, DeferredFile>();
  for (const [key, modules] of Object.entries(DEFERRED_MODULES)) {
    const seen = new Map<string, string>();
    for (const module of modules) {
      const functions = await functionExports(join(srcDir, `${module}.ts`));
      for (const f of functions) {
        const other = seen.get(f);
        if (other) throw new BuildError(`The deferred part ${key} has two functions named ${f} (${other}, ${module}).`);
        seen.set(f, module);
      }
      out.set(join(srcDir, `${module}.ts`), { key, functions });
    }
  }
  return out;
}

/** A deferred module's stand-in: each of its functions, loading the module's part (once an execution) and calling the real one. */
function standIn(key: string, functions: readonly string[]): string {
  if (!functions.length) throw new BuildError(`The deferred module ${key} exports no function to stand in for.`);
  const load = `${MODULE_LOADER}(${JSON.stringify(key)})`;
  return functions.map((f) => `export function ${f}(...a){return ${load}.${f}(...a)}`).join('\n');
}

/** Each exposed global's group, from src/index.ts's export lists. */
function groupsOf(entries: ReadonlyMap<string, readonly string[]>): Map<string, Map<string, readonly string[]>> {
  const groups = new Map<string, Map<string, readonly string[]>>();
  for (const [module, names] of entries) {
    const group = Object.keys(ENTRY_GROUPS).find((g) => ENTRY_GROUPS[g].includes(module)) ?? REST_GROUP;
    const modules = groups.get(group) ?? new Map<string, readonly string[]>();
    modules.set(module, names);
    groups.set(group, modules);
  }
  return groups;
}

/** The name a deferred part's frames carry in a stack trace (its `//# sourceURL`), and its map's file name. */
export const deferredName = (id: string): string => `lp-${id.replace(/\//g, '-')}.js`;

/** One output file of the split build: an ES module whose imports name other parts. */
interface Part {
  id: string;
  body: string;
  map: SourceMapV3;
  /** Parts it imports, with `local` names bound to each one's `exported` names. */
  imports: Array<{ from: string; names: Array<{ exported: string; local: string }> }>;
  exports: Array<{ exported: string; local: string }>;
  plain: boolean;
}

interface SourceMapV3 {
  version: number;
  sources: string[];
  names: string[];
  mappings: string;
}

const IMPORT = /^import\s*(?:\{([^}]*)\}\s*from\s*)?"(\.{1,2}\/[^"]+)\.js";?/;
const EXPORT = /export\s*\{([^}]*)\};?\s*$/;

function bindings(list: string): Array<{ exported: string; local: string }> {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [first, second = first] = part.split(/\s+as\s+/);
      return { exported: first, local: second };
    });
}

/** The bundle's parts as esbuild split them: one per entry point, one per set of entry points sharing code. */
function parts(
  rootDir: string,
  files: ReadonlyArray<{ path: string; text: string }>,
  plainIds: ReadonlySet<string>,
): Part[] {
  const id = (path: string) => relative(rootDir, path).replace(/\.js(\.map)?$/, '');
  const maps = new Map(files.filter((f) => f.path.endsWith('.map')).map((f) => [id(f.path), f.text]));
  const out: Part[] = [];
  for (const file of files.filter((f) => f.path.endsWith('.js'))) {
    let body = file.text.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n').trimEnd();
    const imports: Part['imports'] = [];
    let cut = 0;
    for (let m = IMPORT.exec(body); m; m = IMPORT.exec(body.slice(cut))) {
      const from = posix.join(posix.dirname(id(file.path)), m[2]);
      imports.push({ from, names: m[1] === undefined ? [] : bindings(m[1]) });
      cut += m[0].length;
    }
    if (/^import[\s{*"]/.test(body.slice(cut)))
      throw new BuildError(`Part ${id(file.path)} has an import the build cannot link.`);
    const last = EXPORT.exec(body);
    // `export{a as b}` exports the local a as b.
    const exports = last ? bindings(last[1]).map((b) => ({ exported: b.local, local: b.exported })) : [];
    const map = JSON.parse(maps.get(id(file.path)) ?? '{}') as SourceMapV3;
    // The imports leave the first line: its places move left by their length.
    map.mappings = shiftFirstColumn(map.mappings, -cut);
    body = body.slice(cut, last ? last.index : body.length);
    if (/^\s*(import|export)\s*[{*"]/m.test(body))
      throw new BuildError(`Part ${id(file.path)} has a module statement left.`);
    out.push({ id: id(file.path), body, map, imports, exports, plain: false });
  }
  // A plain part's imports are plain too: what the plain entry points need is compiled up front.
  const byId = new Map(out.map((p) => [p.id, p]));
  const mark = (p: Part) => {
    if (p.plain) return;
    p.plain = true;
    for (const i of p.imports) mark(byId.get(i.from) as Part);
  };
  for (const plainId of plainIds) {
    const p = byId.get(plainId);
    if (!p) throw new BuildError(`No part for the plain entry ${plainId}.`);
    mark(p);
  }
  return out;
}

const VLQ = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The mappings with the first line's first generated column (absolute; the rest of the line is relative to it) moved by `delta`. */
function shiftFirstColumn(mappings: string, delta: number): string {
  if (delta === 0 || mappings === '' || mappings.startsWith(';') || mappings.startsWith(',')) return mappings;
  let value = 0;
  let shift = 0;
  let i = 0;
  for (; ; i++) {
    const digit = VLQ.indexOf(mappings[i]);
    value += (digit & 31) << shift;
    shift += 5;
    if (!(digit & 32)) break;
  }
  const column = (value & 1 ? -(value >> 1) : value >> 1) + delta;
  if (column < 0) throw new BuildError('A part maps a place inside its imports.');
  let rest = column << 1;
  let encoded = '';
  do {
    let digit = rest & 31;
    rest >>= 5;
    if (rest) digit |= 32;
    encoded += VLQ[digit];
  } while (rest);
  return encoded + mappings.slice(i + 1);
}

/** The parameter through which a part reaches the loader: a name the minifier never gives (checked). */
const LOADER = '__lp';

/**
 * A part as a function of the loader (LOADER, which returns a part's exports by its key): its
 * imports bound from the loader on the first line, its body from the second line as esbuild wrote
 * it, its exports returned. So its map only moves down a line. A deferred part runs as a script of
 * its own, so it says "use strict" (ES modules are strict); a plain one is inside the bundle's.
 */
function partFunction(p: Part, key: ReadonlyMap<string, number>): string {
  const load = (from: string) => `${LOADER}(${key.get(from)})`;
  // A stand-in of a deferred module (standIn) loads the module's part by its key.
  const modules = Object.fromEntries(Object.keys(DEFERRED_MODULES).map((m) => [m, key.get(m)]));
  const moduleLoader = p.body.includes(MODULE_LOADER)
    ? `const ${MODULE_LOADER}=m=>${LOADER}(${JSON.stringify(modules)}[m]);`
    : '';
  const pairs = (list: Array<{ exported: string; local: string }>) =>
    list.map((n) => (n.exported === n.local ? n.local : `${n.exported}:${n.local}`)).join(',');
  const imports = p.imports
    .map((i) => (i.names.length ? `const{${pairs(i.names)}}=${load(i.from)};` : `${load(i.from)};`))
    .join('');
  if (new RegExp(`\\b${LOADER}\\b`).test(p.body))
    throw new BuildError(`Part ${p.id} names ${LOADER}, the loader's parameter.`);
  return `(function(${LOADER}){${p.plain ? '' : '"use strict";'}${moduleLoader}${imports}\n${p.body}\nreturn{${pairs(p.exports)}}})`;
}

/**
 * A deferred part as it is shipped: its text gzipped, in base64, as the content of an HTML file of
 * the project (partFile names it). Apps Script compiles every script file in every execution, and
 * V8 scans even a comment's bytes; an HTML file it never compiles. The bundle's loader (PART_TEXT)
 * reads the file with HtmlService.createHtmlOutputFromFile(…).getContent(), which gives a file's
 * content as written (Google's HTML best practices include script files that way), and gives the
 * text back with Utilities.base64Decode and Utilities.ungzip; custom functions may call both
 * services (Google's custom-functions guide lists HTML and Utilities among the services they can
 * use). Gzipped, the parts take about half the bytes of the project (minified code gzips to about
 * 40 %), and only an execution that needs a part reads and decodes it. Base64 holds no character
 * HTML treats specially.
 */
export function packedPart(text: string): string {
  return gzipSync(text, { level: 9 }).toString('base64');
}

/** The project file (an HTML file, without its `.html`) a deferred part is shipped in: its frames' name without `.js`. */
export const partFile = (id: string): string => deferredName(id).replace(/\.js$/, '');

/** The deferred parts a build wrote in `distDir` (dist/NAME.html for each partFile), as buildCode's `parts`. */
export function builtParts(distDir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(distDir)
      .filter((f) => f.startsWith('lp-') && f.endsWith('.html'))
      .map((f) => [f.slice(0, -'.html'.length), readFileSync(join(distDir, f), 'utf8')]),
  );
}

/** The text of a deferred part back from its file's name (`f`), in the bundle: the file's base64, gunzipped. */
const PART_TEXT =
  'f=>Utilities.ungzip(Utilities.newBlob(Utilities.base64Decode(HtmlService.createHtmlOutputFromFile(f).getContent()))).getDataAsString()';

/** Code.js followed by each deferred part's text (the content of `parts`, by file): everything the bundle can run, as text (the manifest's scope check reads it). */
export function unpackedText(code: string, parts: Readonly<Record<string, string>>): string {
  return [
    code,
    ...Object.values(parts).map((packed) => gunzipSync(Buffer.from(packed, 'base64')).toString('utf8')),
  ].join('\n');
}

/** Parts in an order where each comes after the parts it imports; an import cycle is refused. */
function ordered(all: readonly Part[]): Part[] {
  const byId = new Map(all.map((p) => [p.id, p]));
  const done = new Set<string>();
  const out: Part[] = [];
  const visit = (p: Part, path: readonly string[]) => {
    if (done.has(p.id)) return;
    if (path.includes(p.id))
      throw new BuildError(`The bundle's parts import each other: ${[...path, p.id].join(' -> ')}.`);
    for (const i of p.imports) visit(byId.get(i.from) as Part, [...path, p.id]);
    done.add(p.id);
    out.push(p);
  };
  for (const p of all) visit(p, []);
  return out;
}

/** The line of Code.js the bundle starts on: after the header line and the line opening its function. */
const BUNDLE_FIRST_LINE = 3;

/**
 * The split bundle as one classic script's body: the plain parts run at once, in import order;
 * each deferred part is a file of its own (packedPart), turned into its function by an indirect eval (global
 * scope, as a script) the first time an execution needs it, once per execution. An exposed global
 * of a deferred entry is a function that loads its part and calls it. Returns the body, the
 * line (0-based, column 0) where each plain part's function starts, for the map, and each deferred
 * part's text by its id.
 */
function linkParts(
  all: readonly Part[],
  entryOf: ReadonlyMap<string, string>,
): { text: string; starts: Array<{ line: number; part: Part }>; texts: Map<string, string> } {
  const list = ordered(all);
  // A part's key in the loader: its place in the order (shorter than its name, which only its frames carry).
  const key = new Map(list.map((p, i) => [p.id, i]));
  const deferred = list.filter((p) => !p.plain);
  const files = deferred.map((p) => `${key.get(p.id)}:${JSON.stringify(partFile(p.id))}`);
  const texts = new Map(deferred.map((p) => [p.id, `${partFunction(p, key)}\n//# sourceURL=${deferredName(p.id)}`]));
  // D: each deferred part's file; T: a part's text, read from its file; R: a part's exports, run once an execution.
  const lines = [`const D={${files.join(',')}},M=[],T=${PART_TEXT},R=n=>M[n]||(M[n]=(0,eval)(T(D[n]))(R));`];
  const starts: Array<{ line: number; part: Part }> = [];
  for (const p of list.filter((q) => q.plain)) {
    // The lines so far: each entry of `lines` is one or more (a part's body keeps its own line breaks).
    starts.push({ line: lines.join('\n').split('\n').length, part: p });
    lines.push(`M[${key.get(p.id)}]=${partFunction(p, key)}(R);`);
  }
  // A plain entry's exports are its globals (its group module re-exports only them); a deferred one's load it first.
  const byEntry = new Map<string, string[]>();
  for (const [name, id] of entryOf) byEntry.set(id, [...(byEntry.get(id) ?? []), name]);
  const entryParts = [...byEntry.keys()].map((id) => all.find((p) => p.id === id) as Part);
  const loaders = entryParts
    .filter((p) => !p.plain)
    .map((p) => `...L(${key.get(p.id)},${JSON.stringify((byEntry.get(p.id) ?? []).join(','))})`);
  const plain = entryParts.filter((p) => p.plain).map((p) => `M[${key.get(p.id)}]`);
  lines.push(
    `const L=(n,l)=>l.split(",").map(e=>[e,function(){return R(n)[e].apply(this,arguments)}]);`,
    `return Object.assign(Object.fromEntries([${loaders.join(',')}]),${plain.join(',')})`,
  );
  return { text: lines.join('\n'), starts, texts };
}

export async function buildCode(rootDir: string, srcDir = join(rootDir, 'src')): Promise<CodeBuild> {
  const entries = exportsByModule(join(srcDir, 'index.ts'));
  const groups = groupsOf(entries);
  const deferredByFile = await deferredFiles(srcDir);
  const result = await build({
    // One entry point a group: a module re-exporting its globals.
    entryPoints: [...groups.keys(), ...Object.keys(DEFERRED_MODULES)].map((group) => ({
      in: `lp-group:${group}`,
      out: group,
    })),
    plugins: [
      {
        name: 'entry-groups',
        setup(b) {
          b.onResolve({ filter: /^lp-group:/ }, (a) => ({
            path: a.path.slice('lp-group:'.length),
            namespace: 'lp-group',
          }));
          b.onLoad({ filter: /.*/, namespace: 'lp-group' }, (a) => ({
            contents:
              a.path in DEFERRED_MODULES
                ? DEFERRED_MODULES[a.path].map((m) => `export*from${JSON.stringify(m)};`).join('')
                : [...(groups.get(a.path) ?? [])]
                    .map(([module, names]) => `export{${names.join(',')}}from${JSON.stringify(module)};`)
                    .join('\n'),
            resolveDir: srcDir,
            loader: 'ts',
          }));
          // Every import of a deferred module from outside its part gets the module's stand-in.
          b.onResolve({ filter: /^\./ }, (a) => {
            const file = resolve(a.resolveDir, `${a.path}.ts`);
            const key = deferredByFile.get(file)?.key;
            const inside =
              a.namespace === 'lp-group' ? a.importer === key : deferredByFile.get(a.importer)?.key === key;
            if (key === undefined || inside) return undefined;
            // A stand-in of its own for each importer: one shared by two parts would be a part of its own (a chunk).
            return { path: `${relative(srcDir, file)}?${relative(srcDir, a.importer)}`, namespace: 'lp-stand-in' };
          });
          b.onLoad({ filter: /.*/, namespace: 'lp-stand-in' }, (a) => {
            const { key, functions } = deferredByFile.get(join(srcDir, a.path.split('?')[0])) as DeferredFile;
            return { contents: standIn(key, functions), loader: 'js' };
          });
        },
      },
    ],
    bundle: true,
    // Module output, one part per entry point and per set of entry points sharing code (linkParts).
    format: 'esm',
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'neutral',
    target: 'es2020',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    // Minified: Apps Script compiles the whole file on every execution (every custom function
    // cell), and compile time grows with its size. The wrappers below stay readable (Sheets shows
    // their JSDoc); a place in the bundle is mapped back to src/ with the maps.
    minify: true,
    // Apps Script keeps a file as UTF-8: text such as … stays one character, not a \u escape.
    charset: 'utf8',
    sourcemap: 'external',
    sourcesContent: false,
    // The maps' sources are relative to the project (the nominal output folder).
    absWorkingDir: rootDir,
    outdir: rootDir,
  });
  const names = [...entries.values()].flat();
  const exposed = describeExports(srcDir, names);
  checkDocs(exposed);
  const split = parts(
    rootDir,
    result.outputFiles.map((f) => ({ path: f.path, text: f.text })),
    new Set([PLAIN_GROUP]),
  );
  const entryOf = new Map<string, string>();
  for (const [group, modules] of groups)
    for (const names of modules.values()) for (const n of names) entryOf.set(n, group);
  const linked = linkParts(split, entryOf);
  const header = '// Built from src/; npm run where -- Code:LINE:COL (or lp-NAME.js:LINE:COL)\n';
  const code = `${header}var ${GLOBAL_NAME}=(()=>{"use strict";\n${linked.text}})();\n\n${exposed.map(wrapper).join('')}`;
  verifyBundle(code, exposed);
  const sections = linked.starts.map(({ line, part }) => ({
    // The part's function opens on its line; its body (the part's own first line) on the next.
    offset: { line: BUNDLE_FIRST_LINE - 1 + line + 1, column: 0 },
    map: part.map,
  }));
  const deferredMaps: Record<string, string> = {};
  const shipped: Record<string, string> = {};
  for (const p of split.filter((q) => !q.plain)) {
    deferredMaps[deferredName(p.id)] = JSON.stringify({ ...p.map, mappings: `;${p.map.mappings}` });
    shipped[partFile(p.id)] = packedPart(linked.texts.get(p.id) as string);
  }
  return { code, map: JSON.stringify({ version: 3, sections }), deferredMaps, parts: shipped, exposed };
}

/** The names src/index.ts exports, by the module it exports them from (`./entry/menu`). */
export function exportsByModule(indexPath: string): Map<string, string[]> {
  const text = readFileSync(indexPath, 'utf8');
  const out = new Map<string, string[]>();
  for (const m of text.matchAll(/export\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    const list = out.get(m[2]) ?? [];
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) list.push(name);
    }
    out.set(m[2], list);
  }
  if (out.size === 0) throw new BuildError(`${indexPath} exports nothing.`);
  return out;
}

/** The names src/index.ts exports, in its order. */
export function exportNamesFromIndex(indexPath: string): string[] {
  return [...exportsByModule(indexPath).values()].flat();
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
