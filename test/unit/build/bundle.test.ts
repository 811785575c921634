import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { CUSTOM_FUNCTION_NAMES } from '../../../src/table/names';
import { builtParts, exportNamesFromIndex, isCustomFunctionName } from '../../../scripts/build-lib';
import { mapsOf, mapText } from '../../../scripts/where';
import { bareContext } from '../../helpers/bare-bundle';
import { compileMs } from '../../../dev/emulator/compile';

const root = join(__dirname, '../../..');
const code = readFileSync(join(root, 'dist/Code.js'), 'utf8');
const exposed = exportNamesFromIndex(join(root, 'src/index.ts'));

describe('dist/Code.js', () => {
  test('loads in a bare context without Node or browser globals, every exposed global a function', () => {
    const context = vm.createContext({});
    vm.runInContext(code, context);
    for (const name of ['require', 'process', 'Buffer', 'fetch', 'setTimeout', 'module']) {
      expect(vm.runInContext(`typeof ${name}`, context)).toBe('undefined');
    }
    for (const name of exposed) expect(typeof context[name]).toBe('function');
    expect(exposed.length).toBeGreaterThanOrEqual(15);
  });

  test('is a classic script: no import, export or require', () => {
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(code).not.toMatch(/\brequire\(/);
  });

  test('carries one @customfunction doc per custom function, with @param lines', () => {
    const custom = exposed.filter(isCustomFunctionName);
    expect(custom.sort()).toEqual([...CUSTOM_FUNCTION_NAMES].sort());
    expect(code.match(/@customfunction/g)?.length).toBe(custom.length);
    const lpGet = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*function LP_GET\(ids, fields, headers\)/.exec(code);
    expect(lpGet?.[1]).toMatch(/@param \{[^}]+\} ids/);
    expect(lpGet?.[1]).toMatch(/@param \{[^}]+\} \[fields\]/);
  });

  test('dist holds exactly what clasp pushes', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'dist/appsscript.json'), 'utf8'));
    expect(manifest.runtimeVersion).toBe('V8');
    expect(manifest.oauthScopes).toEqual(
      expect.arrayContaining([
        'https://www.googleapis.com/auth/spreadsheets.currentonly',
        'https://www.googleapis.com/auth/script.external_request',
      ]),
    );
    const sidebar = readFileSync(join(root, 'dist/Sidebar.html'), 'utf8');
    expect(sidebar).toMatch(/<script>[\s\S]+<\/script>/);
    expect(sidebar).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
  });

  // Apps Script compiles the whole file in every execution, and an execution that needs a deferred part
  // reads and compiles it too (docs/benchmarks.md shows the sizes and the compile time beside each run).
  test('stays within its 150 KB budget with the parts it compiles on first use', () => {
    const parts = Object.values(builtParts(join(root, 'dist')));
    expect(parts.length).toBeGreaterThan(0);
    const bytes = parts.reduce((n, p) => n + Buffer.byteLength(p), Buffer.byteLength(code));
    expect(bytes).toBeLessThanOrEqual(150 * 1024);
  });

  // What the modelled clock charges every execution for compiling it (dev/emulator/compile.ts's rates): the
  // benchmarks add the evaluation of its top-level code, measured; together at most 5 ms.
  test('its compilation, charged in every execution, stays within its 2.5 ms budget', () => {
    expect(compileMs(code)).toBeLessThanOrEqual(2.5);
  });

  test("a place in a stack trace of the minified bundle maps back to its line in src/ (the build's source maps)", () => {
    const context = bareContext();
    vm.runInContext(code, context, { filename: 'Code' });
    const stackOf = (call: string) => {
      try {
        vm.runInContext(call, context);
      } catch (e) {
        return String((e as Error).stack);
      }
      throw new Error(`${call} did not throw`);
    };
    const maps = mapsOf(join(root, 'dist'));
    const lineOf = (file: string, text: string) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes(text)) + 1;
    // The menu is compiled on its first use (lp-addon.js); no SpreadsheetApp in a bare context: its first call throws.
    const menu = mapText(maps, stackOf('onOpen({})'));
    expect(menu).toMatch(/at \w+ \(lp-[\w-]+\.js:\d+:\d+ \(src\/gas\/ui\.ts:\d+:\d+\)\)/);
    expect(menu).toContain(`(src/gas/ui.ts:${lineOf('src/gas/ui.ts', 'SpreadsheetApp.getUi()')}:`);
    // The wrapper Sheets calls is not minified: its place is its own.
    expect(menu).toMatch(/at onOpen \(Code:\d+:\d+\)$/m);
    // A custom function's code is plain in Code.js: its place maps through Code.js's map.
    const formula = mapText(maps, stackOf('LP_GET("x")'));
    expect(formula).toMatch(/at \w+ \(Code:\d+:\d+ \(src\/gas\/formula-guard\.ts:\d+:\d+\)\)/);
  });
});
