/**
 * The emulator's modelled clock (EmulatorOptions.modelledClock), which benchmarks use so that
 * their figures repeat on a busy machine: an execution is charged the CPU time of its own work, not
 * the time it spent off the CPU, and each fetch the model's cost (the latency plus its bytes at the
 * rate; a fetchAll its slowest request; a request abandoned at the timeout, the timeout) instead of
 * the real time the request took. The default clock still charges the real wait.
 */
import { COST } from '../../../dev/emulator/execution';
import { FETCH_CONCURRENCY } from '../../../dev/emulator/url-fetch';
import { partnerId } from '../../../dev/service/generate';
import { probe } from '../../helpers/probe';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

const PROBES = `
function get(url) { return UrlFetchApp.fetch(url).getContentText(); }
function all(urls) { return UrlFetchApp.fetchAll(urls).map(function (r) { return r.getContentText(); }); }
function idle(ms) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); return ms; }
function nothing() { return 1; }
function fill(rows) {
  var grid = [];
  for (var i = 0; i < rows; i++) grid.push(['lp_' + i, 'Partner ' + i, i, 'Firm ' + (i % 97), 'x']);
  var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
  sheet.insertRowsAfter(sheet.getMaxRows(), rows);
  sheet.getRange(1, 1, rows, 5).setValues(grid);
  return rows;
}
function readAll() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getDataRange().getValues().length; }
function typed(n) {
  var grid = [];
  for (var i = 0; i < n; i++) grid.push(['1/2/2023 13:45', '$1,234.50']);
  var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
  sheet.insertRowsAfter(sheet.getMaxRows(), n);
  sheet.getRange(1, 1, n, 2).setValues(grid);
  return n;
}
`;

/** A script of `n` functions: compiling it takes V8 a measurable time. */
const bigScript = (n: number) =>
  PROBES +
  Array.from(
    { length: n },
    (_, i) => `function f${i}(a, b) { var x = a * ${i} + b; return [x, String(x), { k: x }]; }`,
  ).join('\n');
/** The service answers every request after this long (real time). */
const SERVICE_LATENCY_MS = 400;
/** What the charge may hold beyond the modelled cost: the CPU time of a probe's few calls. */
const CPU_SLACK_MS = 150;

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '300', '--latency', String(SERVICE_LATENCY_MS)]);
});
afterAll(() => svc.stop());

const byId = (id: string) =>
  `${svc.url}/api/limited-partners-data/getLimitedPartnerById?apiKey=${DEMO_KEY}&limitedPartnerId=${id}`;
const page = (limit: number) =>
  `${svc.url}/api/limited-partners-data/getAllActiveLimitedPartners?apiKey=${DEMO_KEY}&limit=${limit}&page=1`;
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function charged<T>(emu: ReturnType<typeof probe>, name: string, args: unknown[]): { value: T; ms: number } {
  const run = emu.run<T>(name, args);
  expect(run.error).toBeUndefined();
  return { value: run.value as T, ms: run.ledger.endedAt - run.ledger.startedAt };
}

describe('emulator: the modelled clock', () => {
  test('a fetch is charged the latency and its bytes at the rate, not the real wait for the service', () => {
    const model = { latencyMs: 30, bytesPerMs: 50 };
    const emu = probe(PROBES, { modelledClock: model });
    charged(emu, 'get', [byId('lp_0000a')]); // the process's first fetch starts the fetch thread
    const { value, ms } = charged<string>(emu, 'get', [byId('lp_0000b')]);
    const cost = model.latencyMs + bytes(value) / model.bytesPerMs;
    expect(cost + CPU_SLACK_MS).toBeLessThan(SERVICE_LATENCY_MS);
    expect(ms).toBeGreaterThanOrEqual(cost);
    expect(ms).toBeLessThan(cost + CPU_SLACK_MS);

    const wall = probe(PROBES);
    expect(charged(wall, 'get', [byId('lp_0000b')]).ms).toBeGreaterThanOrEqual(SERVICE_LATENCY_MS);
  });

  test('a fetchAll batch is charged its slowest request, not the sum nor another one', () => {
    const model = { latencyMs: 200, bytesPerMs: 100 };
    const emu = probe(PROBES, { modelledClock: model });
    const { value, ms } = charged<string[]>(emu, 'all', [[byId('lp_0000a'), page(100), byId('lp_0000b')]]);
    const costs = value.map((text) => model.latencyMs + bytes(text) / model.bytesPerMs);
    const slowest = Math.max(...costs);
    expect(slowest).toBe(costs[1]);
    expect(slowest + CPU_SLACK_MS).toBeLessThan(costs.reduce((a, b) => a + b, 0));
    expect(ms).toBeGreaterThanOrEqual(slowest);
    expect(ms).toBeLessThan(slowest + CPU_SLACK_MS);
  });

  test('a request abandoned at the fetch timeout is charged the timeout', () => {
    const fetchTimeoutMs = 250;
    const emu = probe(PROBES, { modelledClock: { latencyMs: 30 }, fetchTimeoutMs });
    const run = emu.run('get', [byId('lp_0000c')]);
    expect(run.error).toMatch(/^Exception: Timeout: /);
    const ms = run.ledger.endedAt - run.ledger.startedAt;
    expect(ms).toBeGreaterThanOrEqual(fetchTimeoutMs);
    expect(ms).toBeLessThan(fetchTimeoutMs + CPU_SLACK_MS);
  });

  test('time the process spends off the CPU (as on a busy machine) is not charged; on the default clock it is', () => {
    const offCpuMs = 600;
    expect(charged(probe(PROBES, { modelledClock: { latencyMs: 30 } }), 'idle', [offCpuMs]).ms).toBeLessThan(
      CPU_SLACK_MS,
    );
    expect(charged(probe(PROBES), 'idle', [offCpuMs]).ms).toBeGreaterThanOrEqual(offCpuMs);
  });

  test('a fetchAll has at most fetchConcurrency requests in flight: more are charged in rounds', () => {
    const model = { latencyMs: 200, bytesPerMs: 1e9, fetchConcurrency: 2 };
    const emu = probe(PROBES, { modelledClock: model });
    const four = charged<string[]>(emu, 'all', [
      [byId('lp_0000a'), byId('lp_0000b'), byId('lp_0000c'), byId('lp_0000d')],
    ]);
    expect(four.ms).toBeGreaterThanOrEqual(2 * model.latencyMs);
    expect(four.ms).toBeLessThan(2 * model.latencyMs + CPU_SLACK_MS);
    const three = charged<string[]>(emu, 'all', [[byId(partnerId(100)), byId(partnerId(101)), byId(partnerId(102))]]);
    expect(three.ms).toBeGreaterThanOrEqual(2 * model.latencyMs);

    // The default: FETCH_CONCURRENCY at once, one more waits for a lane.
    const byDefault = probe(PROBES, { modelledClock: { latencyMs: 200, bytesPerMs: 1e9 } });
    const urls = (n: number) => Array.from({ length: n }, (_, i) => byId(partnerId(100 + i)));
    expect(charged(byDefault, 'all', [urls(FETCH_CONCURRENCY)]).ms).toBeLessThan(200 + CPU_SLACK_MS);
    expect(charged(byDefault, 'all', [urls(FETCH_CONCURRENCY + 1)]).ms).toBeGreaterThanOrEqual(400);
  });

  test("a setValues is charged its modelled cost, not the emulator's own typing of each cell on top", () => {
    const emu = probe(PROBES, { modelledClock: { latencyMs: 30 } });
    const cells = 2 * 5000;
    const run = emu.run<number>('typed', [cells / 2]);
    expect(run.error).toBeUndefined();
    expect(emu.workbook.sheets[0].values[0][0]).toBeInstanceOf(Date);
    // The row insertion and the write; the few other calls fall within the slack.
    const modelled = 2 * COST.sheetWrite + COST.sheetWritePerCell * cells;
    const compiled = run.ledger.compiles.reduce((n, c) => n + c.ms, 0) + run.ledger.evaluatedMs;
    const ms = run.ledger.endedAt - run.ledger.startedAt - compiled;
    expect(ms).toBeGreaterThanOrEqual(modelled);
    // Typing 10,000 dates and amounts takes the emulator well over the slack.
    expect(ms).toBeLessThan(modelled + CPU_SLACK_MS);
  });

  test("a concurrent execution is charged a service's answer as a sequential one is, not the emulator's copy of it into its realm", async () => {
    const rows = 60_000;
    const emu = probe(PROBES, { modelledClock: { latencyMs: 30 } });
    expect(emu.run('fill', [rows]).error).toBeUndefined();
    const modelled = COST.sheetRead + COST.sheetReadPerCell * rows * 5;
    const own = (ledger: {
      startedAt: number;
      endedAt: number;
      evaluatedMs: number;
      compiles: Array<{ ms: number }>;
    }) => ledger.endedAt - ledger.startedAt - ledger.evaluatedMs - ledger.compiles.reduce((n, c) => n + c.ms, 0);
    // The least of three: CPU time is the process's (see the wave test below), so other work only adds.
    const sequential: number[] = [];
    const concurrent: number[] = [];
    for (let i = 0; i < 3; i++) {
      sequential.push(own(emu.run('readAll', []).ledger));
      const [run] = await emu.runConcurrently([{ name: 'readAll', args: [] }]);
      expect(run.value).toBe(rows);
      concurrent.push(own(run.ledger));
    }
    expect(Math.min(...sequential)).toBeGreaterThanOrEqual(modelled);
    // Copying 300,000 cells into a job's realm takes the emulator well over the slack.
    expect(Math.min(...concurrent)).toBeLessThan(modelled + CPU_SLACK_MS);
  });

  test('every execution is charged the compilation of the script, not only the first', () => {
    const model = { latencyMs: 30 };
    const small = probe(PROBES, { modelledClock: model });
    const big = probe(bigScript(20_000), { modelledClock: model });
    for (const emu of [small, big]) charged(emu, 'nothing', []);
    const again = (emu: ReturnType<typeof probe>) =>
      Math.min(...Array.from({ length: 3 }, () => charged(emu, 'nothing', []).ms));
    // 20,000 functions take V8 tens of milliseconds to compile; the probe alone well under one.
    expect(again(big)).toBeGreaterThan(again(small) + 5);
  });

  test('a wave of concurrent executions is charged CPU time: a job off the CPU is not charged; on the default clock it is', async () => {
    const offCpuMs = 600;
    const jobs = [0, 1, 2].map(() => ({ name: 'idle', args: [offCpuMs] }));
    // CPU time is the process's (cpu-speed.ts, cpuTimeMs): other threads' work in the window, such as the collector
    // freeing an earlier test's big script, is charged too. It only adds, so the least of three waves is the charge.
    const waves: number[] = [];
    for (let i = 0; i < 3; i++) {
      const runs = await probe(PROBES, { modelledClock: { latencyMs: 30 } }).runConcurrently(jobs);
      waves.push(Math.max(...runs.map((run) => run.ledger.endedAt - run.ledger.startedAt)));
    }
    expect(Math.min(...waves)).toBeLessThan(CPU_SLACK_MS);
    const wallRuns = await probe(PROBES).runConcurrently(jobs);
    for (const run of wallRuns) expect(run.ledger.endedAt - run.ledger.startedAt).toBeGreaterThanOrEqual(offCpuMs);
  });
});
