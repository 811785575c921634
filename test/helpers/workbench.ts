/** Starts `npm start`'s workbench (dev/workbench/cli.ts) as a child process on a free port, with its own state folder. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningWorkbench {
  url: string;
  stateDir: string;
  stop(): Promise<void>;
}

export async function startWorkbench(args: string[] = [], stateDir = mkdtempSync(join(tmpdir(), 'workbench-'))): Promise<RunningWorkbench> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '../../dev/workbench/cli.ts'), '--port', '0', '--state-dir', stateDir, ...args], {
    cwd: join(__dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`workbench did not start: ${output}`)), 30000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /Investor Data workbench: (\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`workbench exited with ${code}: ${output}`));
    });
  });
  return {
    url, stateDir,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    }),
  };
}
