import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { BuildError, buildCode, describeExports, exportNamesFromIndex, verifyBundle } from '../../../scripts/build-lib';

const root = join(__dirname, '../../..');

function copyOfSrc(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idsrc-'));
  cpSync(join(root, 'src'), dir, { recursive: true });
  return dir;
}

describe('build checks', () => {
  test('a custom function without its @customfunction doc fails `npm run build`', () => {
    const dir = copyOfSrc();
    try {
      const file = join(dir, 'entry', 'custom-functions.ts');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(/ \* @customfunction\n(?=\s*\*\/\s*export function FUND_LASTSIZE)/, ''),
      );
      const run = spawnSync('npx', ['tsx', 'scripts/build.ts', dir], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, BUILD_OUT_DIR: join(dir, 'out') },
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('Custom function FUND_LASTSIZE has no JSDoc block with @customfunction');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a custom function doc missing a @param line fails the build', async () => {
    const dir = copyOfSrc();
    try {
      const file = join(dir, 'entry', 'lists.ts');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          / \* @param \{boolean\} \[withTypes\][^\n]*\n(?=[\s\S]*?export function LP_FIELDS)/,
          '',
        ),
      );
      await expect(buildCode(root, dir)).rejects.toThrow(
        'Custom function LP_FIELDS has no @param line for "withTypes"',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

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

  test('an import of anything but a function from a module compiled on first use fails the build', async () => {
    const dir = copyOfSrc();
    try {
      const file = join(dir, 'api', 'partners.ts');
      writeFileSync(
        file,
        `${readFileSync(file, 'utf8')}\nimport { MAX_AHEAD } from './pages';\nexport const AHEAD = MAX_AHEAD;\n`,
      );
      await expect(buildCode(root, dir)).rejects.toThrow(/MAX_AHEAD/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an exported global that is not a declared function is refused', () => {
    expect(() => describeExports(join(root, 'src'), ['NOT_THERE'])).toThrow(BuildError);
    expect(exportNamesFromIndex(join(root, 'src/index.ts'))).toContain('LP_GET');
  });
});
