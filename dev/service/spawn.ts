/**
 * Starts the reference service as a child process on a free port (a synchronous client in the
 * caller's own thread would deadlock an in-process server) and gives tests, benchmarks and the
 * workbench its URL, its admin switches and its request counters. Loopback only; the process is
 * killed on stop(). Admin calls open a fresh connection each and close it (`Connection: close`,
 * no agent): the caller's thread blocks during every emulated execution, long enough for the
 * server to drop an idle keep-alive socket, and a pooled socket would then fail the next call
 * with "other side closed".
 */
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { type StartOptions, startChild } from '../child';
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

/** Waits for the service without a time limit (dev/child.ts: its exit or an error ends a failed start); `options.signal` stops waiting. */
export async function startService(args: string[] = [], options: StartOptions = {}): Promise<RunningService> {
  const child = await startChild(
    'dev/service/cli.ts',
    ['--port', '0', ...args],
    /SERVICE_URL=(\S+)/,
    'service',
    options,
  );
  const url = child.ready;
  const post = (path: string, body: unknown) =>
    oneShot(`${url}${path}`, 'POST', JSON.stringify(body)) as Promise<Record<string, unknown>>;
  return {
    url,
    process: child.process,
    stop: () => child.stop(),
    config: (patch) => post('/__admin/config', patch),
    mutate: (m) => post('/__admin/mutate', m),
    stats: () => oneShot(`${url}/__stats`, 'GET') as Promise<Stats>,
    resetStats: async () => {
      await post('/__stats/reset', {});
    },
  };
}

const ONE_SHOT_TIMEOUT_MS = 15000;

/**
 * One HTTP request on its own connection, closed after the answer, parsed as JSON. Errors name
 * the path only (the query may hold a key).
 */
export function oneShot(target: string, method: 'GET' | 'POST' = 'GET', body?: string): Promise<unknown> {
  const path = new URL(target).pathname;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method,
        agent: false,
        timeout: ONE_SHOT_TIMEOUT_MS,
        headers: { connection: 'close', 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('error', reject);
        res.on('end', () => {
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new Error(`${method} ${path}: HTTP ${res.statusCode}, not JSON`));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in ${ONE_SHOT_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
