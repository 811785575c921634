/**
 * Starts the reference service as a child process on a free port (a synchronous client in the
 * caller's own thread would deadlock an in-process server) and gives tests, benchmarks and the
 * workbench its URL, its admin switches and its request counters. Loopback only; the process is
 * killed on stop().
 */
import type { ChildProcess } from 'node:child_process';
import { startChild } from '../child';
import type { Stats } from './server';

export const DEMO_KEY = 'demo-key-0123456789';

export interface RunningService {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
  config(patch: Record<string, unknown>): Promise<Record<string, unknown>>;
  mutate(m: Record<string, unknown>): Promise<Record<string, unknown>>;
  stats(): Promise<Stats>;
  resetStats(): Promise<void>;
}

export async function startService(args: string[] = [], timeoutMs = 20000): Promise<RunningService> {
  const child = await startChild('dev/service/cli.ts', ['--port', '0', ...args], /SERVICE_URL=(\S+)/, 'service', timeoutMs);
  const url = child.ready;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    return (await res.json()) as Record<string, unknown>;
  };
  return {
    url,
    process: child.process,
    stop: () => child.stop(),
    config: (patch) => post('/__admin/config', patch),
    mutate: (m) => post('/__admin/mutate', m),
    stats: async () => (await (await fetch(`${url}/__stats`)).json()) as Stats,
    resetStats: async () => {
      await post('/__stats/reset', {});
    },
  };
}
