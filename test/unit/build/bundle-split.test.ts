/**
 * The bundle compiles only the custom functions' code up front: every other part (the import, the
 * sidebar's endpoints, the menu, diagnostics, triggers, the rarer custom functions' own code) is an
 * HTML file of the project beside dist/Code.js, read and compiled on its first use in an execution
 * and only then, once, with a source map of its own beside dist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { builtParts, mapFile, packedPart, unpackedText } from '../../../scripts/build-lib';
import { bareContext } from '../../helpers/bare-bundle';

const root = join(__dirname, '../../..');
const code = readFileSync(join(root, 'dist/Code.js'), 'utf8');
const parts = builtParts(join(root, 'dist'));

/** The bundle in a bare context whose `eval` records the name of every text it compiles. */
function loaded(): { context: vm.Context; compiled: string[] } {
  const compiled: string[] = [];
  const context = bareContext();
  context.record = (text: string) => compiled.push(/\/\/# sourceURL=(\S+)\s*$/.exec(text)?.[1] ?? 'eval');
  vm.runInContext(
    'const realEval = eval, rec = record; globalThis.eval = (t) => (rec(t), realEval(t)); delete globalThis.record;',
    context,
  );
  vm.runInContext(code, context, { filename: 'Code' });
  return { context, compiled };
}

const run = (context: vm.Context, call: string) => {
  try {
    vm.runInContext(call, context);
  } catch {
    // No Apps Script services in a bare context: the call throws once it reaches one.
  }
};

describe('dist/Code.js in parts', () => {
  test("loading it compiles nothing but its plain code, and a custom function's call nothing more", () => {
    const { context, compiled } = loaded();
    expect(compiled).toEqual([]);
    run(context, 'LP_GET("lp_0000a", "firm")');
    run(context, 'FUND_GET("vf_0001")');
    expect(compiled).toEqual([]);
  });

  test('an endpoint compiles the parts it needs on its first call, and only once an execution', () => {
    const { context, compiled } = loaded();
    run(context, 'onOpen({})');
    expect(compiled).toContain('lp-addon.js');
    expect(new Set(compiled).size).toBe(compiled.length);
    const first = [...compiled];
    run(context, 'showSidebar()');
    run(context, 'getSidebarState()');
    expect(compiled).toEqual(first);
    run(context, 'LP_FILTER([["a"]], "firm", "is", "x")');
    expect(compiled).toContain('lp-formulas.js');
  });

  test("a list or field-list function compiles its own part, not the per-id functions' neighbours", () => {
    const { context, compiled } = loaded();
    run(context, 'LP_FIELDS()');
    expect(compiled).toEqual(['lp-lists.js']);
    expect(vm.runInContext('LP_FIELDS(true)', context)).toEqual(expect.arrayContaining([['ticketSize', 'float']]));
    run(context, 'LP_ACTIVE()');
    expect(compiled).toEqual(['lp-lists.js']);
  });

  test('every part compiled on first use has its source map beside dist, under the name its frames carry', () => {
    const names = [...unpackedText(code, parts).matchAll(/\/\/# sourceURL=(lp-[\w.-]+?\.js)/g)].map((m) => m[1]);
    expect(names).toEqual(expect.arrayContaining(['lp-addon.js', 'lp-formulas.js']));
    const dir = join(mapFile(join(root, 'dist')), '..');
    for (const name of names) expect(existsSync(join(dir, `${name}.map`))).toBe(true);
  });

  test('a part is shipped gzipped in base64, which holds no character HTML treats specially, and comes back whole', () => {
    const text = 'let a=/x*/.test(b) // <script>&amp; …';
    const shipped = packedPart(text);
    expect(shipped).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(gunzipSync(Buffer.from(shipped, 'base64')).toString('utf8')).toBe(text);
    expect(unpackedText('var D={1:"p"};', { p: shipped })).toBe(`var D={1:"p"};\n${text}`);
  });

  test("each of Code.js's deferred parts is a file in dist, and they take fewer bytes gzipped than their text would", () => {
    const files = [...code.matchAll(/\d+:"(lp-[\w.-]+)"/g)].map((m) => m[1]);
    expect(files.sort()).toEqual(Object.keys(parts).sort());
    const unpacked = unpackedText('', parts);
    expect(unpacked).toContain('//# sourceURL=lp-addon.js');
    const shippedBytes = Object.values(parts).reduce((n, p) => n + Buffer.byteLength(p), 0);
    expect(shippedBytes).toBeLessThan(0.8 * Buffer.byteLength(unpacked));
  });
});
