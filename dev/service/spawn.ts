/**
 * Starts the reference service as a child process on a free port (a synchronous client in the
 * caller's own thread would deadlock an in-process server) and gives tests, benchmarks and the
 * workbench its URL, its admin switches and its request counters. Loopback only; the process is
 * killed on stop().
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const DEMO_KEY = 'demo-key-0123456789';
const ROOT = join(__dirname, '../..');

export interface RunningService {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
  config(patch: Record<string, unknown>): Promise<Record<string, unknown>>;
  mutate(m: Record<string, unknown>): Promise<Record<string, unknown>>;
  stats(): Promise<{ requests: number; byOperation: Record<string, number>; byStatus: Record<string, number>; faults: Record<string, number>; recent: Array<{ op: string; query: Record<string, string[]> }> }>;
  resetStats(): Promise<void>;
}

export async function startService(args: string[] = [], timeoutMs = 20000): Promise<RunningService> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'dev/service/cli.ts'), '--port', '0', ...args], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SERVICE_PORT: '' },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in ${timeoutMs} ms: ${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /SERVICE_URL=(\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}: ${output}`));
    });
  });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    return (await res.json()) as Record<string, unknown>;
  };
  return {
    url,
    process: child,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    }),
    config: (patch) => post('/__admin/config', patch),
    mutate: (m) => post('/__admin/mutate', m),
    stats: async () => (await (await fetch(`${url}/__stats`)).json()) as Awaited<ReturnType<RunningService['stats']>>,
    resetStats: async () => {
      await post('/__stats/reset', {});
    },
  };
}
