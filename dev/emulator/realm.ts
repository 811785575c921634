/**
 * Values that cross between the emulator (Node's realm) and the bundle's vm context. Objects made
 * here for the bundle (errors, dates, arrays of bytes) are created in the context's own realm,
 * so `instanceof Error` / `instanceof Date` in the bundle behave as they do in Apps Script.
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

export function createRealm(now: () => number): Realm {
  const context = vm.createContext({ __simNow: now });
  vm.runInContext(
    `(() => {
      const RealDate = Date;
      const now = __simNow;
      class SimDate extends RealDate {
        constructor(...args) { if (args.length === 0) super(now()); else super(...args); }
        static now() { return Math.floor(now()); }
      }
      globalThis.Date = SimDate;
      delete globalThis.__simNow;
    })();`,
    context,
  );
  const CtxError = vm.runInContext('Error', context) as ErrorConstructor;
  const CtxDate = vm.runInContext('Date', context) as DateConstructor;
  const copy = (v: unknown): unknown => {
    if (isDate(v)) return new CtxDate((v as Date).getTime());
    if (Array.isArray(v)) return vm.runInContext('Array', context).from(v.map(copy));
    if (v && typeof v === 'object') {
      const o = vm.runInContext('({})', context) as Record<string, unknown>;
      for (const [k, x] of Object.entries(v)) o[k] = copy(x);
      return o;
    }
    return v;
  };
  return {
    context,
    error: (message) => new CtxError(message),
    date: (ms) => new CtxDate(ms),
    import: <T>(value: T) => copy(value) as T,
  };
}
