/**
 * The command lines of `npm start`, `npm run service` and `npm run bench` answer mistakes the same way: the
 * option and what it takes, where the list of options is, exit code 2, and nothing started;
 * `--help` lists the options and exits 0.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { numberOption, portOption, UsageError } from '../../../dev/cli-args';

const ROOT = join(__dirname, '../../..');
const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, npm_lifecycle_event: '' },
  });

test.each([
  ['dev/workbench/cli.ts', 'npm start'],
  ['dev/service/cli.ts', 'npm run service'],
])('%s: a bad port, an unknown option, --help', (script, command) => {
  const port = run(script, ['--port', 'abc']);
  expect([port.status, port.stderr.trim()]).toEqual([2, '--port must be a whole number from 0 to 65535 (got "abc").']);
  expect(port.stderr).not.toContain('ERR_SOCKET_BAD_PORT');
  const unknown = run(script, ['--prot', '3000']);
  expect([unknown.status, unknown.stderr.trim()]).toEqual([
    2,
    `Unknown option '--prot'. \`${command} -- --help\` lists the options.`,
  ]);
  const help = run(script, ['--help']);
  expect(help.status).toBe(0);
  expect(help.stdout).toContain(`${command} -- [options]`);
  expect(help.stdout).toContain('--port N');
});

test('npm run bench: --help lists every group and option; an unknown option or group is a usage error, not a stack trace', () => {
  const help = run('bench/run.ts', ['--help']);
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('npm run bench -- [options]');
  for (const option of ['--only', '--quick', '--latency', '--scale', '--seeds']) expect(help.stdout).toContain(option);
  for (const group of [
    'formulas',
    'sheetScale',
    'refresh',
    'imports',
    'filtered',
    'match',
    'scaling',
    'service',
    'rateLimited',
    'floors',
    'bigImport',
  ]) {
    expect(help.stdout).toMatch(new RegExp(`^  ${group} `, 'm'));
    // README's table of commands names every group too.
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`\`${group}\``);
  }
  const unknown = run('bench/run.ts', ['--onyl', 'match']);
  expect([unknown.status, unknown.stderr.trim()]).toEqual([
    2,
    "Unknown option '--onyl'. `npm run bench -- --help` lists the options.",
  ]);
  expect(unknown.stderr).not.toContain('ERR_PARSE_ARGS');
  const group = run('bench/run.ts', ['--only', 'formula']);
  expect([group.status, group.stderr.trim()]).toEqual([
    2,
    expect.stringMatching(/^--only: unknown group formula \(groups: formulas,/),
  ]);
});

test('numbers: whole where whole, within bounds, never blank', () => {
  expect(portOption(undefined, 3000)).toBe(3000);
  expect(portOption('0', 3000)).toBe(0);
  for (const bad of ['', ' ', '-1', '65536', '80.5', '0x50', 'abc'])
    expect(() => portOption(bad, 3000)).toThrow(UsageError);
  expect(numberOption('0.2', 'fault-rate', 0, 0, 1)).toBe(0.2);
  expect(() => numberOption('2', 'fault-rate', 0, 0, 1)).toThrow(
    '--fault-rate must be a number from 0 to 1 (got "2").',
  );
});
