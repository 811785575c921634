/**
 * The benchmarks run in a node without V8's helper threads (bench/clock.ts, SINGLE_THREADED): a
 * benchmark started in an ordinary node runs itself again with the flag, its loader and its
 * arguments, and ends as that run ends.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const clock = join(__dirname, '../../bench/clock');

test('a benchmark started without the flag runs again with it, its arguments and its exit code', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-node-'));
  try {
    const script = join(dir, 'script.ts');
    writeFileSync(
      script,
      `import { rerunSingleThreaded, singleThreaded } from ${JSON.stringify(clock)};
if (!singleThreaded()) process.exit(rerunSingleThreaded());
console.log(JSON.stringify({ execArgv: process.execArgv, args: process.argv.slice(2) }));
process.exit(7);
`,
    );
    const run = spawnSync('npx', ['tsx', script, 'one', '--two'], { encoding: 'utf8', timeout: 120_000 });
    expect(run.status).toBe(7);
    const seen = JSON.parse(run.stdout.trim().split('\n').pop() as string) as { execArgv: string[]; args: string[] };
    expect(seen.execArgv[0]).toBe('--single-threaded');
    expect(seen.execArgv.join(' ')).toContain('tsx');
    expect(seen.args).toEqual(['one', '--two']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
