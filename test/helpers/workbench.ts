/** Starts `npm start`'s workbench (dev/workbench/cli.ts) as a child process on a free port, with its own state folder. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from '../../dev/child';

export interface RunningWorkbench {
  url: string;
  stateDir: string;
  stop(): Promise<void>;
}

export async function startWorkbench(args: string[] = [], stateDir = mkdtempSync(join(tmpdir(), 'workbench-'))): Promise<RunningWorkbench> {
  const child = await startChild('dev/workbench/cli.ts', ['--port', '0', '--state-dir', stateDir, ...args], /Investor Data workbench: (\S+)/, 'workbench');
  return { url: child.ready, stateDir, stop: () => child.stop('SIGTERM') };
}
