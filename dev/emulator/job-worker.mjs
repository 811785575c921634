// Worker thread of a concurrent wave (concurrent.ts): runs one execution of the script at a
// time in a fresh vm context (the same realm set-up as a sequential run, realm.ts's REALM_SETUP),
// whose service globals are proxies. Every member access of a proxy is sent to the main thread,
// which serves it on the real emulated service; this thread waits on Atomics until the answer
// arrives, so the script's code is suspended mid-execution exactly at its service calls. Each
// message carries the real time this thread computed since the last answer: that, not the time
// spent waiting for its turn, is what the job is charged.
import vm from 'node:vm';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';

const { realmSetup, wire, port } = workerData;
const flag = new Int32Array(workerData.flag);
/** Compiled scripts by source number: the main thread sends a source once per worker (each job is charged its compilation there, compile.ts). */
const scripts = new Map();

/**
 * CPU time (ms) of the process: one job computes at a time while the main thread and the other
 * jobs wait, so it is this job's (cpu-speed.ts, cpuTimeMs, explains why not this thread's own). Raw:
 * the main thread scales it to the reference speed (cpu-speed.ts, referenceMs) when it is reported.
 */
function cpuMs() {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** The time a job is charged for its computation: CPU time under a clock model, else wall time. */
let computeNow = () => performance.now();

/** The job running now: its realm, its proxies, its clock. */
let job;

function isDate(v) {
  return Object.prototype.toString.call(v) === '[object Date]';
}

/** A synchronous call to the main thread; throws the service's error message in the script's realm. */
function rpc(msg) {
  const computeMs = computeNow() - job.resumedAt;
  let posted;
  try {
    posted = { type: 'call', computeMs, ...msg, args: msg.args?.map(encode) };
    Atomics.store(flag, 0, 0);
    parentPort.postMessage(posted);
  } catch (e) {
    throw new job.realm.Error(`The emulator cannot pass this argument to ${msg.prop}: ${e?.message}`);
  }
  Atomics.wait(flag, 0, 0);
  // The flag can turn before the answer is readable on the port (seen under CPU load): look again until it is.
  let received = receiveMessageOnPort(port);
  while (received === undefined) {
    Atomics.wait(flag, 0, 1, 1);
    received = receiveMessageOnPort(port);
  }
  const reply = received.message;
  job.simBase = reply.now;
  try {
    if (reply.error !== undefined) throw new job.realm.Error(reply.error);
    const v = reply.value;
    if (v && typeof v === 'object' && v[wire.method])
      return (...args) => rpc({ op: 'call', h: msg.h, prop: msg.prop, args });
    return decode(v);
  } finally {
    job.resumedAt = computeNow();
  }
}

/** The script's arguments for the main thread: proxies as their handles. */
function encode(v) {
  if (!v || typeof v !== 'object' || isDate(v) || ArrayBuffer.isView(v)) return v;
  const id = job.ids.get(v);
  if (id !== undefined) return { [wire.handle]: id };
  if (Array.isArray(v)) return isByteArray(v) ? { [wire.bytes]: Int8Array.from(v) } : v.map(encode);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)]));
}

/** An answer for the script: handles as proxies, everything else copied into its realm. */
function decode(v) {
  return job.realm.copy(unmark(v), (x) => job.ids.has(x) || job.made.has(x));
}

/** A byte array (signed bytes, as Apps Script passes them): sent as one Int8Array (concurrent.ts isByteArray). */
function isByteArray(v) {
  if (v.length < 256) return false;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || (x | 0) !== x || x < -128 || x > 127) return false;
  }
  return true;
}

function unmark(v) {
  if (!v || typeof v !== 'object' || isDate(v) || ArrayBuffer.isView(v)) return v;
  if (wire.handle in v) return proxyFor(v);
  if (wire.bytes in v) {
    // Made in the script's realm already: the copy below keeps it as it is.
    const bytes = job.realm.bytes(v[wire.bytes]);
    job.made.add(bytes);
    return bytes;
  }
  if (Array.isArray(v)) return v.map(unmark);
  for (const k of Object.keys(v)) v[k] = unmark(v[k]);
  return v;
}

function proxyFor(desc) {
  const id = desc[wire.handle];
  const known = job.proxies.get(id);
  if (known) return known;
  const methods = new Set(desc[wire.methods]);
  const fns = new Map();
  const proxy = new Proxy(Object.create(null), {
    get(_, prop) {
      if (typeof prop === 'symbol') return undefined;
      if (methods.has(prop)) {
        let fn = fns.get(prop);
        if (!fn) fns.set(prop, (fn = (...args) => rpc({ op: 'call', h: id, prop, args })));
        return fn;
      }
      return rpc({ op: 'get', h: id, prop });
    },
  });
  job.proxies.set(id, proxy);
  job.ids.set(proxy, id);
  return proxy;
}

/** Plain values out of the script's realm (dates re-made, arrays and objects copied). */
function exportValue(v) {
  if (isDate(v)) return new Date(v.getTime());
  if (Array.isArray(v)) return v.map(exportValue);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, exportValue(x)]));
  return v;
}

/**
 * What an `eval` of the script costs (realm.ts, REALM_SETUP): compiled here, its real time left out
 * of the job's, and charged on the main thread at compile.ts's model (ScriptCompiler).
 */
function compile(text, run) {
  const before = computeNow();
  const value = run();
  job.resumedAt += computeNow() - before;
  job.compiler.charge(text);
  return value;
}

function runJob({ sourceId, source, name, globals, compiler, args, now, cpuClock }) {
  if (source !== undefined) scripts.set(sourceId, new vm.Script(source, { filename: 'Code.js' }));
  computeNow = cpuClock ? cpuMs : () => performance.now();
  job = { simBase: now, proxies: new Map(), ids: new Map(), made: new WeakSet() };
  // An ordinary global object, as realm.ts's newContext makes (global lookups at V8's speed, not behind interceptors).
  const context = vm.createContext(vm.constants.DONT_CONTEXTIFY);
  context.__simNow = () => job.simBase + (computeNow() - job.resumedAt);
  context.__compile = compile;
  job.realm = vm.runInContext(realmSetup, context);
  for (const [k, desc] of Object.entries(globals)) context[k] = proxyFor(desc);
  job.compiler = proxyFor(compiler);
  // As in a sequential run, the clock starts once the context is ready: top-level code onwards.
  job.resumedAt = computeNow();
  let out;
  try {
    // Only a function the script defined runs (as runtime.ts): the global's own built-ins are none of its functions.
    const builtIn = context[name];
    // Under a clock model the top level is charged the code a fresh load of it runs, on the main thread (compile.ts, evaluateMs).
    const before = computeNow();
    scripts.get(sourceId).runInContext(context);
    if (cpuClock) job.resumedAt += computeNow() - before;
    const fn = context[name];
    if (typeof fn !== 'function' || fn === builtIn) throw new Error(`Script function not found: ${name}`);
    out = { type: 'done', value: exportValue(fn(...decode(args))) };
  } catch (e) {
    out = {
      type: 'done',
      error: e !== null && typeof e === 'object' && 'message' in e ? String(e.message) : String(e),
    };
  }
  out.computeMs = computeNow() - job.resumedAt;
  try {
    parentPort.postMessage(out);
  } catch (e) {
    parentPort.postMessage({
      type: 'done',
      error: `The emulator cannot return this value: ${e?.message}`,
      computeMs: out.computeMs,
    });
  }
  job = undefined;
}

parentPort.on('message', (msg) => {
  if (msg.type === 'start') runJob(msg);
});
