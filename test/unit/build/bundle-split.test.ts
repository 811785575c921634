/**
 * The bundle compiles only the custom functions' code up front: every other part (the import, the
 * sidebar's endpoints, the menu, diagnostics, triggers, the rarer custom functions' own code) is a
 * comment in dist/Code.js, compiled on its first use in an execution and only then, once, with a
 * source map of its own beside dist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { BuildError, commentFunction, mapFile } from '../../../scripts/build-lib';

const root = join(__dirname, '../../..');
const code = readFileSync(join(root, 'dist/Code.js'), 'utf8');

/** The bundle in a bare context whose `eval` records the name of every text it compiles. */
function loaded(): { context: vm.Context; compiled: string[] } {
  const compiled: string[] = [];
  const context = vm.createContext({});
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

  test('every part compiled on first use has its source map beside dist, under the name its frames carry', () => {
    const names = [...code.matchAll(/\/\/# sourceURL=(lp-[\w.-]+?\.js)/g)].map((m) => m[1]);
    expect(names).toEqual(expect.arrayContaining(['lp-addon.js', 'lp-formulas.js']));
    const dir = join(mapFile(join(root, 'dist')), '..');
    for (const name of names) expect(existsSync(join(dir, `${name}.map`))).toBe(true);
  });

  test('a part that holds the end of a comment is refused, not shipped broken', () => {
    expect(commentFunction('p', 'let a=1')).toBe('function(){/*let a=1*/}');
    expect(() => commentFunction('p', 'let a=/x*/.test(b)')).toThrow(BuildError);
  });
});
