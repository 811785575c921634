/**
 * Concurrent executions, as Sheets runs a column of custom functions: a wave of jobs, at most
 * `concurrency` running at once, each executing the bundle in its own worker thread
 * (job-worker.mjs) so it can be suspended in the middle of its code. All state stays on this
 * thread: the worker's globals are proxies that forward every member access synchronously here
 * (the worker posts, then waits on Atomics), where the job's own Execution calls the real
 * emulated services. Objects that are not plain values (Spreadsheet, Range, Cache, Blob, …)
 * travel as handles the worker wraps in proxies again; a service error comes back as its message.
 *
 * Time: every job has its own simulated clock, from the moment it starts (the wave's start, or
 * the end of the job whose place it takes). A conservative discrete-event scheduler serves the
 * pending event (start, service call, end) with the earliest simulated time, and only while no
 * job is computing: so shared state (caches, properties, the sheet, the fetch quota) is touched in
 * simulated-time order, `Utilities.sleep` in one job lets the others run, and the outcome does not
 * depend on thread timing. One job computes at a time, so each is charged its own compute time
 * (measured in its worker between calls) plus the time its calls take here, never the time it
 * waited for its turn: wall time, or under a clock model (EmulatorOptions.modelledClock) the CPU
 * time of the thread that did the work at a reference speed (cpu-speed.ts: the worker reports raw
 * CPU time, scaled here with referenceMs when the job hands back; its calls are served here on
 * referenceCpuMs), so a busy machine, which takes threads off the CPU and slows them on it,
 * charges the same. Every job is charged the script's compilation, as
 * every execution pays it in Apps Script (compile.ts). Each execution keeps its own limit
 * (30 s for custom functions).
 */
import { join } from 'node:path';
import { type MessagePort, MessageChannel, Worker } from 'node:worker_threads';
import { compileMs, evaluateMs, ScriptCompiler } from './compile';
import { referenceCpuMs, referenceMs } from './cpu-speed';
import { errorMessage, SimClock } from './execution';
import { arrayOf } from './utilities';
import { Blocked } from './lock';
import { REALM_SETUP, isDate } from './realm';
import type { ExecutionSite, PreparedExecution, RunOptions, RunResult } from './run-types';

export interface ConcurrentJob {
  name: string;
  args: unknown[];
  options?: RunOptions;
}

/** A formula cell to recalculate: its place (1-based) and the custom function it calls. */
export interface FormulaCell {
  sheet: string;
  row: number;
  col: number;
  name: string;
  args: unknown[];
}

export interface WaveOptions {
  /** Executions running at once (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
}

/**
 * How many custom-function executions Sheets runs at once is not documented (the quota page caps
 * simultaneous executions at 30 per user); 10 is our choice (settable per wave), enough for the
 * cooperation between concurrent cells to matter.
 */
export const DEFAULT_CONCURRENCY = 10;

/** A job computing this long (real ms) past its remaining limit without calling anything is stopped. */
const RUNAWAY_GRACE_MS = 2000;

/** Keys of the wire format, shared with job-worker.mjs through its workerData. */
const WIRE = { handle: '__emuHandle', methods: '__emuMethods', method: '__emuMethod', bytes: '__emuBytes' } as const;

/**
 * Whether an array is a byte array as Apps Script passes them (Java-style signed bytes): those
 * travel as one Int8Array, not element by element, so that a blob's bytes cost the thread hop
 * about what they cost in a sequential run (the emulator's own overhead is not the script's time).
 */
export function isByteArray(v: readonly unknown[]): boolean {
  if (v.length < 256) return false;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || (x | 0) !== x || x < -128 || x > 127) return false;
  }
  return true;
}

type CallMessage = { type: 'call'; computeMs: number; op: 'call' | 'get'; h: number; prop: string; args?: unknown[] };
type DoneMessage = { type: 'done'; computeMs: number; value?: unknown; error?: string };
type Reply = { now: number; value?: unknown; error?: string };

/** One job of the wave, on this thread. */
class JobRun {
  prepared: PreparedExecution | undefined;
  result: RunResult | undefined;
  /** The next thing this job does, at which simulated time. */
  pending:
    | { time: number; event: 'start' }
    | { time: number; event: 'call'; msg: CallMessage }
    | { time: number; event: 'done'; msg: DoneMessage }
    | undefined;
  worker: PooledWorker | undefined;
  /** Real time (performance.now) before which the job's pending call is not served: it waits for a lock held outside its wave. */
  wakeAt = 0;
  /** Real time charged so far (compute reported by the worker + time served here). */
  private charged = 0;
  private serveStart: number | undefined;
  private readonly handles = new Map<number, object>();
  private readonly ids = new Map<object, number>();

  constructor(
    readonly index: number,
    readonly job: ConcurrentJob,
  ) {}

  get exec() {
    return (this.prepared as PreparedExecution).exec;
  }

  /** The clock of the time this job is served here: CPU time at the reference speed under a clock model (cpu-speed.ts), else wall time. */
  private now: () => number = () => performance.now();

  /** Under a clock model (the Execution's fetchModel), the job is charged CPU time, here and in its worker. */
  get cpuClock(): boolean {
    return this.exec.fetchModel !== undefined;
  }

  /** Called once the job's Execution exists. */
  chooseClock(): void {
    if (this.cpuClock) this.now = referenceCpuMs;
    this.exec.useRealClock(this.realNow);
  }

  /** The real-time source of this job's Execution: what it computed or was served, not what it waited. */
  realNow = (): number => this.charged + (this.serveStart === undefined ? 0 : this.now() - this.serveStart);

  /** Charges what the worker computed: `ms` of wall time, or under a clock model of raw CPU time, scaled to the reference speed. */
  addCompute(ms: number): void {
    this.charged += Math.max(0, this.cpuClock ? referenceMs(ms) : ms);
    this.exec.syncReal();
  }

  serving<T>(work: () => T): T {
    this.serveStart = this.now();
    try {
      return work();
    } finally {
      this.charged += this.now() - this.serveStart;
      this.serveStart = undefined;
      this.exec.syncReal();
    }
  }

  handle(obj: object): Record<string, unknown> {
    let id = this.ids.get(obj);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(obj, id);
      this.handles.set(id, obj);
    }
    return { [WIRE.handle]: id, [WIRE.methods]: methodNames(obj) };
  }

  /** A service's answer for the worker: plain values as they are, anything else as a handle. */
  encode(v: unknown): unknown {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return v;
    if (isDate(v)) return new Date(v.getTime());
    if (ArrayBuffer.isView(v)) return v;
    if (Array.isArray(v))
      return isByteArray(v) ? { [WIRE.bytes]: Int8Array.from(v as number[]) } : v.map((x) => this.encode(x));
    if (typeof v === 'object' && isPlainObject(v))
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.encode(x)]));
    return this.handle(v);
  }

  /** The worker's arguments, with its handles back to the objects they stand for. */
  decode(v: unknown): unknown {
    if (!v || typeof v !== 'object' || isDate(v) || ArrayBuffer.isView(v)) return v;
    if (Array.isArray(v)) return v.map((x) => this.decode(x));
    const o = v as Record<string, unknown>;
    if (WIRE.handle in o) return this.target(o[WIRE.handle] as number);
    if (WIRE.bytes in o) return arrayOf(o[WIRE.bytes] as Int8Array);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, this.decode(x)]));
  }

  target(id: number): object {
    const obj = this.handles.get(id);
    if (!obj) throw new Error(`unknown handle ${id}`);
    return obj;
  }

  /** Serves one member access of the worker on the real service object; Blocked when it must wait (a lock held by another job). */
  serve(msg: CallMessage): Reply | Blocked {
    let reply: Omit<Reply, 'now'>;
    try {
      const obj = this.target(msg.h);
      // Only the call is served (charged): its arguments and its answer cross the worker boundary as copies, which a
      // sequential run, whose script calls the service in place, never makes (and Google has no such boundary).
      const args = msg.op === 'call' ? (this.decode(msg.args ?? []) as unknown[]) : [];
      const answer = this.serving(() => {
        const member = Reflect.get(obj, msg.prop) as unknown;
        if (msg.op === 'get') return { method: typeof member === 'function', value: member };
        if (typeof member !== 'function') throw new TypeError(`${msg.prop} is not a function`);
        return { method: false, value: (member as (...a: unknown[]) => unknown).apply(obj, args) };
      });
      reply = { value: answer.method ? { [WIRE.method]: true } : this.encode(answer.value) };
    } catch (e) {
      if (e instanceof Blocked) {
        this.exec.clock.advance(e.ms);
        return e;
      }
      reply = { error: errorMessage(e) };
    }
    return { ...reply, now: this.exec.clock.now() };
  }
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  // Another realm's Object.prototype has no prototype either.
  if (proto !== null && proto !== Object.prototype && Object.getPrototypeOf(proto) !== null) return false;
  return !Object.values(v).some((x) => typeof x === 'function');
}

/** The function members of an object (own and inherited, short of Object.prototype): the worker calls these without asking first. */
function methodNames(obj: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = obj; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const k of Object.getOwnPropertyNames(p)) {
      if (k === 'constructor') continue;
      const d = Object.getOwnPropertyDescriptor(p, k);
      if (d && typeof d.value === 'function') names.add(k);
    }
  }
  return [...names];
}

interface WaveHandlers {
  onMessage(w: PooledWorker, msg: CallMessage | DoneMessage): void;
  onFailure(w: PooledWorker, error: string): void;
}

/** Idle workers, kept between waves (booting one costs tens of ms, more on a busy machine); they do not keep the process alive. */
const idleWorkers: PooledWorker[] = [];
/** Each distinct script source gets a number; a worker compiles a source once (as Emulator does; each job is charged its compilation, compile.ts). */
const sourceIds = new Map<string, number>();

/** A worker thread that runs one job at a time, and the channel its calls are answered on. */
class PooledWorker {
  readonly worker: Worker;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessagePort;
  private readonly sent = new Set<number>();
  run: JobRun | undefined;
  /** The wave this worker serves now. */
  wave: WaveHandlers | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private exited = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.port.unref();
    // No execArgv: the worker is plain JavaScript and needs no loader (tsx would add its boot time).
    this.worker = new Worker(join(__dirname, 'job-worker.mjs'), {
      workerData: { realmSetup: REALM_SETUP, wire: WIRE, flag: this.flag.buffer, port: port2 },
      transferList: [port2],
      execArgv: [],
    });
    this.worker.unref();
    this.worker.on('message', (msg: CallMessage | DoneMessage) => {
      this.stopWatchdog();
      this.wave?.onMessage(this, msg);
    });
    this.worker.on('error', (e) => this.wave?.onFailure(this, errorMessage(e)));
    this.worker.on('exit', (code) => {
      this.exited = true;
      const i = idleWorkers.indexOf(this);
      if (i >= 0) idleWorkers.splice(i, 1);
      this.wave?.onFailure(this, `exited with code ${code}`);
    });
  }

  static acquire(wave: WaveHandlers): PooledWorker {
    const w = idleWorkers.pop() ?? new PooledWorker();
    w.wave = wave;
    w.worker.ref();
    return w;
  }

  /** Back to the idle pool once its job has ended. */
  release(): void {
    this.stopWatchdog();
    this.wave = undefined;
    this.run = undefined;
    if (this.exited) return;
    this.worker.unref();
    idleWorkers.push(this);
  }

  start(
    run: JobRun,
    source: string,
    globals: Record<string, unknown>,
    compiler: unknown,
    args: unknown,
    onRunaway: () => void,
  ): void {
    this.run = run;
    let sourceId = sourceIds.get(source);
    if (sourceId === undefined) sourceIds.set(source, (sourceId = sourceIds.size + 1));
    const first = !this.sent.has(sourceId);
    this.sent.add(sourceId);
    this.worker.postMessage({
      type: 'start',
      sourceId,
      source: first ? source : undefined,
      name: run.job.name,
      compiler,
      globals,
      args,
      now: run.exec.clock.now(),
      cpuClock: run.cpuClock,
    });
    this.startWatchdog(run, onRunaway);
  }

  reply(reply: Reply, onRunaway: () => void): void {
    try {
      this.port.postMessage(reply);
    } catch (e) {
      this.port.postMessage({
        now: reply.now,
        error: `The emulator cannot pass this value to the script: ${errorMessage(e)}`,
      });
    }
    Atomics.store(this.flag, 0, 1);
    Atomics.notify(this.flag, 0);
    if (this.run) this.startWatchdog(this.run, onRunaway);
  }

  private startWatchdog(run: JobRun, onRunaway: () => void): void {
    const left = Math.max(0, run.exec.limitMs - run.exec.elapsedMs);
    this.watchdog = setTimeout(onRunaway, left + RUNAWAY_GRACE_MS);
  }

  stopWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = undefined;
  }

  /** Stops the thread (a runaway job, a failed wave); it never returns to the pool. */
  kill(): void {
    this.stopWatchdog();
    this.wave = undefined;
    this.exited = true;
    this.port.close();
    this.worker.terminate().catch(() => undefined);
  }
}

/** What a wave needs of the emulator that runs it (Emulator has it). */
export interface WaveHost {
  readonly clock: SimClock;
  readonly source: string;
  prepare(name: string, args: unknown[], options: RunOptions, site: ExecutionSite): PreparedExecution;
  settle(prepared: PreparedExecution, result: RunResult): RunResult;
}

/** Runs a wave of jobs on `emu` (Emulator.runConcurrently). */
export function runWave(emu: WaveHost, jobs: ConcurrentJob[], options: WaveOptions = {}): Promise<RunResult[]> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`concurrency must be a whole number ≥ 1, not ${concurrency}`);
  const runs = jobs.map((job, i) => new JobRun(i, job));
  const waveStart = emu.clock.now();
  const queue = [...runs];
  let computing: JobRun | undefined;
  let settled = false;

  return new Promise<RunResult[]>((resolve, reject) => {
    const finishWave = () => {
      settled = true;
      emu.clock.nowMs = Math.max(emu.clock.now(), ...runs.map((r) => r.result?.ledger.endedAt ?? 0));
      resolve(runs.map((r) => r.result as RunResult));
    };
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      for (const r of runs) if (r.worker?.run === r) r.worker.kill();
      reject(e instanceof Error ? e : new Error(errorMessage(e)));
    };
    const nextFromQueue = (at: number) => {
      const run = queue.shift();
      if (run) run.pending = { time: at, event: 'start' };
    };
    const wave: WaveHandlers = { onMessage, onFailure: (_, error) => fail(new Error(`job worker failed: ${error}`)) };

    const end = (run: JobRun, result: Omit<RunResult, 'ledger'>) => {
      run.result = emu.settle(run.prepared as PreparedExecution, { ...result, ledger: run.exec.ledger });
      run.pending = undefined;
      nextFromQueue(run.exec.ledger.endedAt);
    };

    const onRunaway = (worker: PooledWorker) => () => {
      const run = worker.run;
      if (!run || computing !== run) return;
      // It computed past its limit without calling anything: Google stops it there.
      run.exec.ledger.timedOut = true;
      run.exec.clock.advance(run.exec.limitMs - run.exec.elapsedMs + 1);
      computing = undefined;
      worker.kill();
      end(run, { error: 'Exceeded maximum execution time' });
      pump();
    };

    function onMessage(worker: PooledWorker, msg: CallMessage | DoneMessage) {
      const run = worker.run;
      if (!run || computing !== run) return;
      computing = undefined;
      run.addCompute(msg.computeMs);
      const time = run.exec.clock.now();
      run.pending = msg.type === 'call' ? { time, event: 'call', msg } : { time, event: 'done', msg };
      pump();
    }

    function pump() {
      try {
        while (!computing && !settled) {
          let next: JobRun | undefined;
          const realNow = performance.now();
          let sleeper: JobRun | undefined;
          for (const r of runs) {
            if (!r.pending) continue;
            if (r.wakeAt > realNow) {
              if (!sleeper || r.wakeAt < sleeper.wakeAt) sleeper = r;
            } else if (!next || r.pending.time < (next.pending?.time ?? Number.POSITIVE_INFINITY)) next = r;
          }
          if (!next) {
            if (sleeper) setTimeout(pump, Math.ceil(sleeper.wakeAt - realNow));
            else if (runs.every((r) => r.result)) finishWave();
            return;
          }
          const p = next.pending as NonNullable<JobRun['pending']>;
          if (p.event === 'start') {
            const clock = new SimClock(p.time);
            next.prepared = emu.prepare(next.job.name, next.job.args, next.job.options ?? {}, {
              clock,
              makeError: (m) => new Error(m),
              makeDate: (ms) => new Date(ms),
            });
            next.chooseClock();
            next.prepared.locks.joinWave();
            next.exec.compiled(next.exec.uncharged(() => compileMs(emu.source)));
            // As a sequential run (runtime.ts): the worker leaves the top level's own run out of the job's time.
            if (next.cpuClock) next.exec.evaluated(next.exec.uncharged(() => evaluateMs(emu.source)));
            const globals = Object.fromEntries(
              Object.entries(next.prepared.globals).map(([k, v]) => [k, next.handle(v)]),
            );
            const worker = PooledWorker.acquire(wave);
            next.worker = worker;
            next.pending = undefined;
            computing = next;
            worker.start(
              next,
              emu.source,
              globals,
              next.handle(new ScriptCompiler(next.exec)),
              next.encode(next.prepared.args(next.job.args)),
              onRunaway(worker),
            );
          } else if (p.event === 'call') {
            const reply = next.serve(p.msg);
            if (reply instanceof Blocked) {
              next.pending = { ...p, time: next.exec.clock.now() };
              // A holder in this wave runs in simulated-time order; one outside it (another wave) runs in real time, so wait as long.
              if (!runs.some((r) => r.prepared?.locks.held === reply.holder))
                next.wakeAt = performance.now() + reply.ms;
              continue;
            }
            next.pending = undefined;
            computing = next;
            (next.worker as PooledWorker).reply(reply, onRunaway(next.worker as PooledWorker));
          } else {
            (next.worker as PooledWorker).release();
            end(next, p.msg.error !== undefined ? { error: p.msg.error } : { value: p.msg.value });
          }
        }
      } catch (e) {
        fail(e);
      }
    }

    if (runs.length === 0) {
      resolve([]);
      return;
    }
    for (let i = 0; i < concurrency; i++) nextFromQueue(waveStart);
    // Boot every worker the wave needs now, in parallel, not one per start event.
    for (let i = Math.min(concurrency, runs.length) - idleWorkers.length; i > 0; i--)
      idleWorkers.push(new PooledWorker());
    pump();
  });
}
