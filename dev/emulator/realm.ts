/**
 * Values that cross between the emulator (Node's realm) and the bundle's vm context. Objects made
 * here for the bundle (errors, dates, arrays of bytes) are created in the context's own realm,
 * so `instanceof Error` / `instanceof Date` in the bundle behave as they do in Apps Script.
 * The set-up runs inside the context from one source text (REALM_SETUP), which the worker
 * threads of concurrent executions (job-worker.mjs) use too, so both see the same realm.
 */
import vm from 'node:vm';

export interface Realm {
  context: vm.Context;
  error(message: string): Error;
  date(ms: number): Date;
  /** A deep copy of a host value into the context (dates re-made, arrays and objects copied). */
  import<T>(value: T): T;
}

export const isDate = (v: unknown): v is Date => Object.prototype.toString.call(v) === '[object Date]';

/**
 * Run inside a fresh context that holds `__simNow` (the simulated clock) and `__compile` (what an
 * `eval` of a text is charged, ScriptCompile): replaces Date by one that reads that clock and
 * `eval` by one that compiles through `__compile`, removes both, and evaluates to the context's Error, Date and a
 * deep copy into the context (`copy(value, keep)`: values for which `keep` is true pass as they are).
 */
export const REALM_SETUP = `(() => {
  const RealDate = Date;
  const now = __simNow;
  class SimDate extends RealDate {
    constructor(...args) { if (args.length === 0) super(now()); else super(...args); }
    static now() { return Math.floor(now()); }
  }
  globalThis.Date = SimDate;
  delete globalThis.__simNow;
  const compile = __compile;
  delete globalThis.__compile;
  const realEval = globalThis.eval;
  // A call of realEval by that name is an indirect eval: global scope, as the bundle's (0,eval)(text).
  globalThis.eval = { eval: (text) => (typeof text === 'string' ? compile(text, () => realEval(text)) : text) }.eval;
  const isDate = (v) => Object.prototype.toString.call(v) === '[object Date]';
  const copy = (v, keep) => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return v;
    if (keep && keep(v)) return v;
    if (isDate(v)) return new SimDate(v.getTime());
    if (Array.isArray(v)) return Array.from(v, (x) => copy(x, keep));
    if (v && typeof v === 'object') {
      const o = {};
      for (const [k, x] of Object.entries(v)) o[k] = copy(x, keep);
      return o;
    }
    return v;
  };
  // A byte array made in this realm from a typed array (a plain loop: Array.from over a typed array is several times slower).
  const bytes = (view) => {
    const out = new Array(view.length);
    for (let i = 0; i < view.length; i++) out[i] = view[i];
    return out;
  };
  return { Error, Date: SimDate, copy, bytes };
})();`;

interface RealmParts {
  Error: ErrorConstructor;
  Date: DateConstructor;
  copy(value: unknown, keep?: (v: unknown) => boolean): unknown;
  bytes(view: Int8Array): number[];
}

/**
 * A fresh context whose global is an ordinary object, as Apps Script's is. A contextified one (the
 * default) answers every global lookup of the bundle (Math, JSON, Object…) through Node's
 * interceptors, some 50 times slower than V8 does it, so CPU-bound code would look far slower here
 * than in Apps Script. The worker threads of concurrent executions (job-worker.mjs) make theirs alike.
 */
function newContext(simNow: () => number, compile: ScriptCompile): vm.Context {
  const context = vm.createContext(vm.constants.DONT_CONTEXTIFY);
  context.__simNow = simNow;
  context.__compile = compile;
  return context;
}

/**
 * How the realm compiles a text its script passes to `eval`: `run` compiles and evaluates it;
 * the host charges its modelled compilation instead of the real time `run` took (compile.ts).
 */
export type ScriptCompile = (text: string, run: () => unknown) => unknown;

export function createRealm(now: () => number, compile: ScriptCompile): Realm {
  const context = newContext(now, compile);
  const parts = vm.runInContext(REALM_SETUP, context) as RealmParts;
  return {
    context,
    error: (message) => new parts.Error(message),
    date: (ms) => new parts.Date(ms),
    import: <T>(value: T) => parts.copy(value) as T,
  };
}
