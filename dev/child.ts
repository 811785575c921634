/**
 * Starts one of the project's TypeScript programs as a child process (node + the tsx loader)
 * and waits for the line that announces it is ready, so tests, benchmarks and the workbench
 * start the service and the workbench the same way. stop() ends it. And, in such a program,
 * `exitWithParent`: it ends when whatever started it is gone, be it a test, the workbench or
 * `npm start` / `npm run service` stopped by a signal to npm alone (an IDE's stop button, a
 * supervisor), which npm passes to its shell but no further.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..');

/**
 * Set for every child started here: the child keeps its standard input open and exits when it
 * closes, which happens however the parent ends (even SIGKILL, which the parent cannot handle).
 */
export const EXIT_WITH_PARENT = 'INVESTOR_DATA_EXIT_WITH_PARENT';

/** How often a program run by npm looks whether npm (or a process between it and npm) is still there. */
const NPM_WATCH_MS = 500;

/** The parent and command line of a process, or undefined when it is gone. */
function processInfo(pid: number): { ppid: number; args: string } | undefined {
  try {
    const line = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    const m = /^(\d+)\s+(.*)$/.exec(line);
    return m ? { ppid: Number(m[1]), args: m[2] } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * When npm ran this program (`npm start`, `npm run service`): the processes from this one's parent
 * up to and including that npm process (a shell and tsx sit between). Empty otherwise.
 */
export function npmAncestors(): number[] {
  if (!process.env.npm_lifecycle_event) return [];
  const chain: number[] = [];
  for (let pid = process.ppid; pid > 1 && chain.length < 10; ) {
    const info = processInfo(pid);
    if (!info) return [];
    chain.push(pid);
    if (/(^|[\s/])npm(-cli\.js)?(\s|$)/.test(info.args)) return chain;
    pid = info.ppid;
  }
  return [];
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * In a program: exit through `stop` when what started it is gone. Started here (startChild), that is
 * the parent's pipe closing; run by npm, it is npm or a process between it and npm ending.
 */
export function exitWithParent(stop: () => void): void {
  if (process.env[EXIT_WITH_PARENT] === '1') {
    process.stdin.on('end', stop);
    process.stdin.on('error', stop);
    process.stdin.resume();
  }
  const chain = npmAncestors();
  if (!chain.length) return;
  const watch = setInterval(() => {
    if (chain.every(alive)) return;
    clearInterval(watch);
    stop();
  }, NPM_WATCH_MS);
  watch.unref();
}

export interface Child {
  process: ChildProcess;
  /** The first capture group of the ready line. */
  ready: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startChild(
  script: string,
  args: string[],
  readyLine: RegExp,
  what: string,
  timeoutMs = 30000,
): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, SERVICE_PORT: '', [EXIT_WITH_PARENT]: '1' },
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
    stop: (signal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
