/**
 * Starts one of the project's TypeScript programs as a child process (node + the tsx loader)
 * and waits for the line that announces it is ready, so tests, benchmarks and the workbench
 * start the service and the workbench the same way. stop() ends it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..');

/**
 * Set for every child started here: the child keeps its standard input open and exits when it
 * closes, which happens however the parent ends (even SIGKILL, which the parent cannot handle).
 */
export const EXIT_WITH_PARENT = 'INVESTOR_DATA_EXIT_WITH_PARENT';

/** In a child: exit through `stop` when the parent that started it is gone. */
export function exitWithParent(stop: () => void): void {
  if (process.env[EXIT_WITH_PARENT] !== '1') return;
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}

export interface Child {
  process: ChildProcess;
  /** The first capture group of the ready line. */
  ready: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startChild(script: string, args: string[], readyLine: RegExp, what: string, timeoutMs = 30000): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], {
    cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, SERVICE_PORT: '', [EXIT_WITH_PARENT]: '1' },
  });
  let output = '';
  const ready = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in ${timeoutMs} ms: ${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = readyLine.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${output}`));
    });
  });
  return {
    process: child,
    ready,
    stop: (signal = 'SIGKILL') => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    }),
  };
}
