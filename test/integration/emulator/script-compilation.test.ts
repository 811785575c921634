/**
 * What an execution is charged for compiling (dev/emulator/compile.ts): the script in every
 * execution, at the model's rates (code bytes, and the cheaper string-literal bytes), and a text
 * the script compiles itself (an indirect `eval`) in the execution that compiles it, at the same
 * model instead of the real time it took, in a sequential run and in a concurrent wave alike. The
 * bundle compiles only the custom functions' code up front: a formula's execution pays that, an
 * import step also the parts it loads, each once.
 */
import {
  compileMs,
  evaluateMs,
  FIRST_RUN_CHARS_PER_MS,
  REPEAT_CHARS_PER_MS,
  scannedBytes,
  topLevelRun,
} from '../../../dev/emulator/compile';
import { probe } from '../../helpers/probe';
import { addin } from '../../helpers/addin';
import { call, saveImport } from '../../helpers/imports';
import { activeIds, type RunningService, startService } from '../../helpers/service';

/** A text the probe compiles on demand: 2,000 functions, named like a deferred part of the bundle. */
const DEFERRED = `(function(){${Array.from({ length: 2000 }, (_, i) => `function f${i}(a){return a*${i}+1}`).join('')}return f7(1)})
//# sourceURL=lp-probe.js`;
const PROBE = `
var D = ${JSON.stringify(DEFERRED)};
function light() { return 1; }
function heavy() { return (0, eval)(D)() + (0, eval)(D)(); }
`;
/** What the charge may hold beyond the modelled compilations: the CPU time of the probe's own few calls. */
const CPU_SLACK_MS = 150;

const spent = (run: { ledger: { startedAt: number; endedAt: number } }) => run.ledger.endedAt - run.ledger.startedAt;
/** The parts an execution compiled, by name, but the chunks the build splits off for code two parts share (named by a hash). */
const named = (run: { run: { ledger: { compiles: Array<{ name: string }> } } }) =>
  run.run.ledger.compiles.map((c) => c.name).filter((n) => !n.startsWith('lp-chunk-'));

describe('emulator: the compilation an execution is charged', () => {
  test('string literals are charged at a cheaper rate than the same bytes of code, comments at a cheaper one still', () => {
    const code = `function f(){${'return 1;'.repeat(10_000)}}`;
    const literal = `var s=${JSON.stringify('x'.repeat(code.length - 9))};`;
    const comment = `function g(){/*${'x'.repeat(code.length - 18)}*/}`;
    for (const text of [literal, comment]) expect(Buffer.byteLength(text)).toBe(Buffer.byteLength(code));
    expect(scannedBytes(code)).toEqual({ literal: 0, comment: 0 });
    expect(scannedBytes(literal)).toEqual({ literal: code.length - 7, comment: 0 });
    expect(scannedBytes(comment)).toEqual({ literal: 0, comment: code.length - 14 });
    expect(compileMs(literal)).toBeLessThan(compileMs(code) / 2);
    expect(compileMs(comment)).toBeLessThan(compileMs(literal));
  });

  test("every execution is charged its script's compilation; one that compiles a text by eval, that text's too, each time", () => {
    const emu = probe(PROBE, { modelledClock: { latencyMs: 30 } });
    const light = emu.run('light');
    expect(light.ledger.compiles).toEqual([{ name: 'Code.js', ms: compileMs(PROBE) }]);
    const heavy = emu.run('heavy');
    expect(heavy.error).toBeUndefined();
    expect(heavy.value).toBe(16);
    const deferred = { name: 'lp-probe.js', ms: compileMs(DEFERRED) };
    expect(heavy.ledger.compiles).toEqual([{ name: 'Code.js', ms: compileMs(PROBE) }, deferred, deferred]);
    expect(spent(heavy)).toBeGreaterThanOrEqual(compileMs(PROBE) + 2 * deferred.ms);
    // The real compilation is left out: the model's charge, not the time V8 took on this machine.
    expect(spent(heavy)).toBeLessThan(compileMs(PROBE) + 2 * deferred.ms + CPU_SLACK_MS);
  });

  test('a concurrent execution is charged a text it compiles by eval as a sequential one is', async () => {
    const emu = probe(PROBE, { modelledClock: { latencyMs: 30 } });
    const [light, heavy] = await emu.runConcurrently([
      { name: 'light', args: [] },
      { name: 'heavy', args: [] },
    ]);
    expect(light.ledger.compiles.map((c) => c.name)).toEqual(['Code.js']);
    expect(heavy.value).toBe(16);
    expect(heavy.ledger.compiles).toEqual([
      { name: 'Code.js', ms: compileMs(PROBE) },
      { name: 'lp-probe.js', ms: compileMs(DEFERRED) },
      { name: 'lp-probe.js', ms: compileMs(DEFERRED) },
    ]);
    expect(spent(heavy)).toBeGreaterThanOrEqual(compileMs(PROBE) + 2 * compileMs(DEFERRED));
  });
});

/** A script whose top level works: a table of 200,000 squares built at load. */
const BUSY_TOP = `
var SQUARES = [];
for (var i = 0; i < 200000; i++) SQUARES.push(i * i);
function last() { return SQUARES[SQUARES.length - 1]; }
`;

/** A top level that runs a loop `n` times, with `extra` code between the loop and a function it declares. */
const looping = (n: number, extra = '') =>
  `var total = 0;\nfor (var i = 0; i < ${n}; i++) { total += i * 2; }\n${extra}function sum() { return total; }\n`;

describe('emulator: the code a top level runs, as V8 counts it', () => {
  test('a top level is counted by the characters of code it runs: once for a first run, again for each repeat', () => {
    // BUSY_TOP: its first line, its loop's header and its body run; V8 counts the body (a block) 200,000
    // times, the header with the script around it (once).
    const tokens = (code: string) => code.replace(/\s+/g, '').length;
    const body = tokens('SQUARES.push(i * i);');
    expect(topLevelRun(BUSY_TOP)).toEqual({
      first: tokens('var SQUARES = [];') + tokens('for (var i = 0; i < 200000; i++)') + body,
      repeated: 199_999 * body,
      threw: false,
    });
  });

  test("each further run of a loop counts its body's characters again, and only those", () => {
    const [ten, twenty, thirty] = [10, 20, 30].map((n) => topLevelRun(looping(n)));
    expect(twenty.repeated - ten.repeated).toBeGreaterThan(0);
    expect(thirty.repeated - twenty.repeated).toBe(twenty.repeated - ten.repeated);
    expect(new Set([ten.first, twenty.first, thirty.first]).size).toBe(1);
  });

  test('whitespace, comments and the insides of string literals are not code; a declared function runs its body only when called', () => {
    const base = topLevelRun(looping(10));
    expect(topLevelRun(looping(10).replace(/ /g, '    '))).toEqual(base);
    const literal = topLevelRun(looping(10, `// ${'a comment '.repeat(20)}\nvar s = "${'text '.repeat(40)}";\n`));
    expect(literal.first - base.first).toBe('vars=;'.length);
    const declared = topLevelRun(looping(10, `function never() { var a = 1, b = 2; return a + b + total * 3; }\n`));
    expect(declared).toEqual(base);
    const called = topLevelRun(looping(10, 'sum();\n'));
    // The call, and the whole of the function it calls (V8's range of a function is its declaration).
    expect(called.first - base.first).toBe('sum();'.length + 'functionsum(){returntotal;}'.length);
    for (const run of [literal, called]) expect(run.repeated).toBe(base.repeated);
  });

  test('a script that names itself (a sourceURL) is counted all the same', () => {
    const named = topLevelRun(`${looping(10)}//# sourceURL=lp-named.js\n`);
    expect(named).toEqual(topLevelRun(looping(10)));
  });

  test('a top level that throws is counted up to the block it threw in, and said to have thrown', () => {
    const thrown = topLevelRun(`${looping(10)}SpreadsheetApp.getActive();\nvar after = 1;\n`);
    expect(thrown.threw).toBe(true);
    expect(thrown.first).toBeGreaterThan(topLevelRun(looping(10)).first);
    expect(thrown.repeated).toBe(topLevelRun(looping(10)).repeated);
  });

  test('the charge is the first runs and the repeats at their rates: more code run, more charged', () => {
    const text = looping(1000, 'sum();\n');
    const { first, repeated } = topLevelRun(text);
    expect(evaluateMs(text)).toBeCloseTo(first / FIRST_RUN_CHARS_PER_MS + repeated / REPEAT_CHARS_PER_MS, 12);
    expect(evaluateMs(text)).toBeGreaterThan(evaluateMs(looping(10, 'sum();\n')));
  });
});

describe('emulator: the running of the top level an execution is charged', () => {
  test('under a clock model, every execution is charged the code its top level runs, sequential or concurrent alike', async () => {
    const emu = probe(BUSY_TOP, { modelledClock: { latencyMs: 30 } });
    const top = evaluateMs(BUSY_TOP);
    expect(top).toBeGreaterThan(0);
    const runs = [emu.run('last'), emu.run('last'), ...(await emu.runConcurrently([{ name: 'last', args: [] }]))];
    for (const run of runs) {
      expect(run.value).toBe(199999 * 199999);
      expect(run.ledger.evaluatedMs).toBe(top);
      expect(spent(run)).toBeGreaterThanOrEqual(compileMs(BUSY_TOP) + top);
    }
  });

  test('on the wall clock the top level is charged the time it takes, as the rest of the work', () => {
    const run = probe(BUSY_TOP).run('last');
    expect(run.value).toBe(199999 * 199999);
    expect(run.ledger.evaluatedMs).toBe(0);
  });
});

describe('the bundle: what each execution compiles', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService(['--partners', '120']);
  });
  afterAll(() => svc.stop());

  test('a formula answered from the cache compiles the script only; one that misses also the part for misses and the sending part; an import step the parts it loads, each once', () => {
    const a = addin(svc.url, undefined, { modelledClock: { latencyMs: 10 } });
    const script = compileMs(a.emu.source);
    const cold = a.cell('LP_GET', 'lp_0000a', 'firm');
    expect(cold.run.ledger.fetches).toBeGreaterThan(0);
    expect(named(cold).sort()).toEqual(['Code.js', 'lp-miss.js', 'lp-send.js']);
    const warm = a.cell('LP_GET', 'lp_0000a', 'firm');
    expect(warm.run.ledger.fetches).toBe(0);
    expect(warm.run.ledger.compiles).toEqual([{ name: 'Code.js', ms: script }]);

    const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'fullName'] });
    const step = a.emu.run('startImport', [id], { kind: 'sidebar' });
    expect(step.error).toBeUndefined();
    const compiles = step.ledger.compiles;
    expect(compiles[0]).toEqual({ name: 'Code.js', ms: script });
    const parts = compiles.slice(1).map((c) => c.name);
    expect(parts).toContain('lp-addon.js');
    expect(new Set(parts).size).toBe(parts.length);
    for (const c of compiles.slice(1)) expect(c.ms).toBeGreaterThan(0);
    expect(call(a.emu, 'importStatus', [id])).toMatchObject({ ok: true });
  });

  test('a formula the client answers from its own cache (not the partner lookup) compiles the script only when warm', () => {
    const a = addin(svc.url, undefined, { modelledClock: { latencyMs: 10 } });
    const cold = a.cell('LP_FIRMS', 'lp_0000a');
    expect(cold.run.ledger.fetches).toBeGreaterThan(0);
    expect(named(cold)).toContain('lp-send.js');
    const warm = a.cell('LP_FIRMS', 'lp_0000a');
    expect(warm.error).toBeUndefined();
    expect(warm.run.ledger.fetches).toBe(0);
    expect(named(warm)).toEqual(['Code.js']);
  });

  test('a formula that reads the whole list compiles the part for misses and the sending part on their first use, once; a list formula also its own part', async () => {
    const a = addin(svc.url, undefined, { modelledClock: { latencyMs: 10 } });
    const ids = (await activeIds(svc)).slice(0, 60).map((id) => [id]);
    const range = a.cell('LP_GET', ids, 'firm');
    expect(range.error).toBeUndefined();
    expect(range.run.ledger.fetchAllCalls).toBeGreaterThan(0);
    expect(named(range).sort()).toEqual(['Code.js', 'lp-miss.js', 'lp-send.js']);
    // The snapshot it filled answers the next range from the cache: no list read, nothing more compiled.
    expect(a.cell('LP_GET', ids, 'firm').run.ledger.compiles.map((c) => c.name)).toEqual(['Code.js']);
    const list = a.cell('LP_ACTIVE', '', 50, 'id');
    expect(list.error).toBeUndefined();
    expect(named(list).sort()).toEqual(['Code.js', 'lp-lists.js', 'lp-miss.js', 'lp-send.js']);
  });
});
