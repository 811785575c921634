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

export interface StartOptions {
  /** Aborting it ends a start still waiting for the ready line: the child, and what it started, are killed. */
  signal?: AbortSignal;
}

/** A line a program prints on its error output when it failed (an uncaught error, `Error [ERR_…]`): the start has failed. */
const ERROR_LINE = /^(?:[A-Z]\w*)?Error\b/m;

/** Every process below `pid` (children, grandchildren, …), found before any of them is killed and re-parented. */
function descendants(pid: number): number[] {
  let table: string;
  try {
    table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const below = new Map<number, number[]>();
  for (const line of table.split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (child && parent) below.set(parent, [...(below.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  for (let i = -1; i < found.length; i++) found.push(...(below.get(i < 0 ? pid : found[i]) ?? []));
  return found;
}

/**
 * Sends `signal` to each process and to the process group it leads, if any: a child started here
 * leads its own group, which holds whatever it started even after the child itself is gone.
 */
function killAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, signal);
      } catch {
        // Gone already (or no group of that id).
      }
    }
  }
}

/** Ends of the children started here that are still starting or running: each kills its child and what that started. */
const ends = new Set<() => Promise<void>>();

/**
 * Kills every child started here that is still starting or running, and whatever each started: for
 * the end of a test file (test/helpers/children.ts), however its tests and hooks went, so no start
 * that outlived its hook's timeout, and no child a failed test left, outlives the file.
 */
export async function stopChildren(): Promise<void> {
  await Promise.all([...ends].map((end) => end()));
}

/**
 * Starts `script` and waits for its ready line. There is no time limit, which load could break:
 * the wait ends with the ready line, or as a failed start when the child exits, cannot be spawned,
 * prints an error line on its error output, or `options.signal` is aborted (a test file ending
 * while its hook still waits: stopChildren). A failed start kills the child and everything it
 * started before it rejects, so nothing is left behind.
 */
export async function startChild(
  script: string,
  args: string[],
  readyLine: RegExp,
  what: string,
  options: StartOptions = {},
): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], {
    cwd: ROOT,
    // Its own process group, so what it starts can be killed with it, even after it is gone.
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, SERVICE_PORT: '', [EXIT_WITH_PARENT]: '1' },
  });
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  /** Kills the child and what it started: its group, and what is below it (found first: once it is killed they are no longer below it). */
  const kill = async (): Promise<void> => {
    if (child.pid === undefined) return;
    killAll(ended() ? [child.pid] : [...descendants(child.pid), child.pid], 'SIGKILL');
    await gone;
  };
  let output = '';
  let errors = '';
  let settled = false;
  /** Set while the start waits: ends it as told to stop. */
  let stopWaiting: (() => void) | undefined;
  const end = (): Promise<void> => {
    if (!settled) stopWaiting?.();
    return kill();
  };
  ends.add(end);
  void gone.then(() => ends.delete(end));
  const ready = await new Promise<string>((resolve, reject) => {
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', aborted);
      // Killed before the promise says so: whoever catches the failure finds nothing left running.
      void kill().then(() => reject(new Error(`${what} did not start: ${why}. Its output: ${output.slice(-4000)}`)));
    };
    const aborted = () => fail('told to stop before it printed its ready line');
    stopWaiting = aborted;
    const onData = (error: boolean) => (chunk: Buffer) => {
      // Read to the end, so the child never blocks on a full pipe; kept only until the start is settled.
      if (settled) return;
      output += chunk.toString();
      if (error) errors += chunk.toString();
      const m = readyLine.exec(output);
      if (m) {
        settled = true;
        options.signal?.removeEventListener('abort', aborted);
        resolve(m[1]);
      } else if (error && ERROR_LINE.test(errors)) fail('it printed an error');
    };
    child.stdout?.on('data', onData(false));
    child.stderr?.on('data', onData(true));
    child.once('exit', (code, signal) => fail(`it exited with ${code ?? signal}`));
    child.once('error', (e) => fail(`it could not be run (${e.message})`));
    if (options.signal?.aborted) aborted();
    else options.signal?.addEventListener('abort', aborted);
  });
  return {
    process: child,
    ready,
    stop: (signal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (ended() || child.pid === undefined) return resolve();
        const below = descendants(child.pid);
        // What the child started and did not stop goes with it; a child that ignores the signal is killed after 3 s.
        child.once('exit', () => {
          killAll([child.pid as number, ...below], 'SIGKILL');
          resolve();
        });
        child.kill(signal);
        setTimeout(() => void kill(), 3000).unref();
      }),
  };
}
