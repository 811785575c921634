/**
 * A deployer's `.clasp.json` names their own script: it is never tracked, so editing it as the
 * deploy guide says cannot put it in a commit; the repository carries the template the guide copies.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

test('.clasp.json is untracked and ignored; the template pushes dist/ and the deploy guide copies it', () => {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  expect(git('ls-files', '--', '.clasp.json')).toBe('');
  expect(git('check-ignore', '--no-index', '.clasp.json')).toBe('.clasp.json');
  const template = JSON.parse(readFileSync(join(ROOT, '.clasp.json.example'), 'utf8')) as Record<string, string>;
  expect(template).toMatchObject({ scriptId: 'REPLACE_WITH_YOUR_SCRIPT_ID', rootDir: 'dist' });
  const guide = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
  expect(guide).toContain('cp .clasp.json.example .clasp.json');
  expect(guide).not.toContain('rm .clasp.json');
});
