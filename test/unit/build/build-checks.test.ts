import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { BuildError, buildCode, describeExports, exportNamesFromIndex, verifyBundle } from '../../../scripts/build-lib';

const root = join(__dirname, '../../..');

/** Runs `check` on a copy of src/ whose file `path` (under src/) is edited by `edit`; the copy is removed after. */
async function withEditedSrc(
  path: string,
  edit: (text: string) => string,
  check: (dir: string) => void | Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'idsrc-'));
  try {
    cpSync(join(root, 'src'), dir, { recursive: true });
    const file = join(dir, path);
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
    await check(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('build checks', () => {
  test('a custom function without its @customfunction doc fails `npm run build`', () =>
    withEditedSrc(
      'entry/custom-functions.ts',
      (text) => text.replace(/ \* @customfunction\n(?=\s*\*\/\s*export function FUND_LASTSIZE)/, ''),
      (dir) => {
        const run = spawnSync('npx', ['tsx', 'scripts/build.ts', dir], {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, BUILD_OUT_DIR: join(dir, 'out') },
        });
        expect(run.status).not.toBe(0);
        expect(run.stderr).toContain('Custom function FUND_LASTSIZE has no JSDoc block with @customfunction');
      },
    ));

  test('a custom function doc missing a @param line fails the build', () =>
    withEditedSrc(
      'entry/lists.ts',
      (text) => text.replace(/ \* @param \{boolean\} \[withTypes\][^\n]*\n(?=[\s\S]*?export function LP_FIELDS)/, ''),
      (dir) =>
        expect(buildCode(root, dir)).rejects.toThrow('Custom function LP_FIELDS has no @param line for "withTypes"'),
    ));

  test('a bundle with a wrapper removed is refused', async () => {
    const { code, exposed } = await buildCode(root);
    const without = code.replace(/\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*function LP_GET\([^)]*\) \{\n[^\n]*\n\}\n/, '');
    expect(without.length).toBeLessThan(code.length);
    expect(() => verifyBundle(without, exposed)).toThrow(
      new BuildError('dist/Code.js has no top-level wrapper function LP_GET.'),
    );
    const noDoc = code.replace(/ \* @customfunction\n(?=\s*\*\/\s*function FUND_GET\()/, '');
    expect(() => verifyBundle(noDoc, exposed)).toThrow('wrapper FUND_GET lost its @customfunction doc');
  });

  test('an import of anything but a function from a module compiled on first use fails the build', () =>
    withEditedSrc(
      'api/partners.ts',
      (text) => `${text}\nimport { MAX_AHEAD } from './pages';\nexport const AHEAD = MAX_AHEAD;\n`,
      (dir) => expect(buildCode(root, dir)).rejects.toThrow(/MAX_AHEAD/),
    ));

  test('two modules of one deferred part that export a function under the same name fail the build', () =>
    withEditedSrc(
      'api/shares.ts',
      (text) => `${text}\nexport function readList(): number {\n  return 0;\n}\n`,
      (dir) => expect(buildCode(root, dir)).rejects.toThrow('The deferred part miss has two functions named readList'),
    ));

  test('an exported global that is not a declared function is refused', () => {
    expect(() => describeExports(join(root, 'src'), ['NOT_THERE'])).toThrow(BuildError);
    expect(exportNamesFromIndex(join(root, 'src/index.ts'))).toContain('LP_GET');
  });
});
