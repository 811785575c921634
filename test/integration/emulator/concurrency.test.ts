/**
 * Concurrent executions (Emulator.runConcurrently / recalculate): jobs run at once in worker
 * threads, each on its own simulated clock, with shared state (caches, quota, the sheet, locks)
 * touched in simulated-time order. Probed with small scripts, swept over concurrency values and
 * repeated runs where order could depend on thread timing; then the real bundle: a column of
 * `=LP_GET(A2, "firm")` recalculated concurrently gives what running the cells one by one gives.
 */
import { partnerId } from '../../../dev/service/generate';
import { DEFAULT_CONCURRENCY } from '../../../dev/emulator/concurrent';
import { probe } from '../../helpers/probe';
import { addin, fillDownAndRecalculate } from '../../helpers/addin';
import { type RunningService, startService } from '../../helpers/service';

const SCRIPT = `
function writeThenPoll(mine, theirs) {
  var c = CacheService.getScriptCache();
  c.put(mine, 'here');
  for (var i = 0; i < 20; i++) { if (c.get(theirs) === 'here') return 'saw ' + theirs; Utilities.sleep(100); }
  return 'alone';
}
function appendAfter(ms, tag) {
  if (ms) Utilities.sleep(ms);
  var p = CacheService.getScriptCache();
  p.put('order', (p.get('order') || '') + tag);
  return tag;
}
function sleepFor(ms, times) { for (var i = 0; i < times; i++) Utilities.sleep(ms); return 'slept'; }
function spin() { for (;;) {} }
function badKey() {
  try { CacheService.getScriptCache().put(new Array(252).join('k'), 'v'); return 'no error'; }
  catch (e) { return [e instanceof Error, e.message]; }
}
function trigger() { return ScriptApp.newTrigger('x'); }
function uncaught() { CacheService.getScriptCache().put(new Array(252).join('k'), 'v'); }
function where() {
  var r = SpreadsheetApp.getActiveRange();
  return [r.getA1Notation(), r.getSheet().getRange(r.getRow(), 1).getValue(), SpreadsheetApp.getActiveSheet().getName()];
}
function bytesRoundTrip(text, made) {
  var zipped = Utilities.gzip(Utilities.newBlob(text)).getBytes();
  var again = Utilities.ungzip(Utilities.newBlob(Utilities.base64Decode(Utilities.base64Encode(zipped)))).getDataAsString();
  var echo = Utilities.newBlob(made).getBytes();
  return [again === text, Array.isArray(zipped), zipped.length > 256, echo.join(',') === made.join(','), Array.isArray(echo)];
}
function fetchOnce(url) { return UrlFetchApp.fetch(url).getResponseCode(); }
function fill(prefix, n) { var v = {}; for (var i = 0; i < n; i++) v[prefix + i] = 'x'; CacheService.getScriptCache().putAll(v, 600); return n; }
function clockAfterSleep(ms) { var t0 = Date.now(); Utilities.sleep(ms); return Date.now() - t0; }
function realm(xs, d) { return [Array.isArray(xs), xs instanceof Array, d instanceof Date, d.getTime(), new Date(0) instanceof Date]; }
function holdLock(after, ms, tag) {
  Utilities.sleep(after);
  var l = LockService.getScriptLock();
  l.waitLock(10000);
  var c = CacheService.getScriptCache();
  c.put('locked', (c.get('locked') || '') + tag + '+');
  Utilities.sleep(ms);
  c.put('locked', c.get('locked') + tag + '-');
  l.releaseLock();
  return tag;
}
function handles(text) {
  var blob = Utilities.gzip(Utilities.newBlob(text));
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var sheet = ss.insertSheet('T');
  ss.setActiveSheet(sheet);
  sheet.getRange(1, 1, 1, 2).setValues([[text, 'B']]);
  Logger.log('logged ' + text);
  return [Utilities.ungzip(blob).getDataAsString(), ss.getActiveSheet().getName(), sheet.getRange('A1:B1').getValues()[0]];
}
function tryBriefly(ms) { Utilities.sleep(50); return LockService.getScriptLock().tryLock(ms); }
`;

const CONCURRENCIES = [2, 3, 5, DEFAULT_CONCURRENCY];
const orderOf = (emu: ReturnType<typeof probe>) => emu.cache('script').items.get('order')?.value;

describe('concurrent executions', () => {
  test('two jobs that write then poll a cache key see each other (and do not when run one at a time)', async () => {
    for (const concurrency of CONCURRENCIES) {
      const emu = probe(SCRIPT);
      const results = await emu.runConcurrently(
        [
          { name: 'writeThenPoll', args: ['a', 'b'] },
          { name: 'writeThenPoll', args: ['b', 'a'] },
        ],
        { concurrency },
      );
      expect(results.map((r) => r.value)).toEqual(['saw b', 'saw a']);
    }
    const serial = probe(SCRIPT);
    const results = await serial.runConcurrently(
      [
        { name: 'writeThenPoll', args: ['a', 'b'] },
        { name: 'writeThenPoll', args: ['b', 'a'] },
      ],
      { concurrency: 1 },
    );
    expect(results.map((r) => r.value)).toEqual(['alone', 'saw a']);
  });

  test('a job that sleeps lets the others go first: shared state changes in simulated-time order, every run', async () => {
    const sleeps = [900, 0, 300, 600, 150];
    const tags = ['e', 'a', 'c', 'd', 'b'];
    for (const concurrency of [5, DEFAULT_CONCURRENCY]) {
      for (let repeat = 0; repeat < 25; repeat++) {
        const emu = probe(SCRIPT);
        const results = await emu.runConcurrently(
          sleeps.map((ms, i) => ({ name: 'appendAfter', args: [ms, tags[i]] })),
          { concurrency },
        );
        expect(orderOf(emu)).toBe('abcde');
        expect(results.map((r) => r.value)).toEqual(tags);
      }
    }
  });

  test('with fewer slots than jobs, a queued job starts when a running one ends', async () => {
    for (let repeat = 0; repeat < 20; repeat++) {
      const emu = probe(SCRIPT);
      const start = emu.clock.now();
      // Slots: [a 500, b 100] → c takes b's slot at ~100 and appends at ~100+50; a at ~500.
      const results = await emu.runConcurrently(
        [
          { name: 'appendAfter', args: [500, 'a'] },
          { name: 'appendAfter', args: [100, 'b'] },
          { name: 'appendAfter', args: [50, 'c'] },
        ],
        { concurrency: 2 },
      );
      expect(orderOf(emu)).toBe('bca');
      const [a, b, c] = results.map((r) => r.ledger);
      expect(c.startedAt).toBe(b.endedAt);
      expect(a.startedAt).toBe(start);
      expect(emu.clock.now()).toBe(Math.max(a.endedAt, b.endedAt, c.endedAt));
    }
  });

  test('results come back in job order and every ledger goes into history', async () => {
    const emu = probe(SCRIPT);
    const n = 12;
    const results = await emu.runConcurrently(
      Array.from({ length: n }, (_, i) => ({ name: 'appendAfter', args: [(n - i) * 100, `<${i}>`] })),
      { concurrency: 4 },
    );
    expect(results.map((r) => r.value)).toEqual(Array.from({ length: n }, (_, i) => `<${i}>`));
    expect(emu.history).toHaveLength(n);
    expect(new Set(emu.history)).toEqual(new Set(results.map((r) => r.ledger)));
  });

  test('each execution has its own 30 s limit, on its own clock', async () => {
    const emu = probe(SCRIPT);
    const start = emu.clock.now();
    const results = await emu.runConcurrently(
      [
        { name: 'sleepFor', args: [10_000, 2], options: { kind: 'custom-function' } },
        { name: 'sleepFor', args: [10_000, 2], options: { kind: 'custom-function' } },
        { name: 'sleepFor', args: [10_000, 4], options: { kind: 'custom-function' } },
        { name: 'sleepFor', args: [10_000, 2], options: { kind: 'custom-function' } },
      ],
      { concurrency: 2 },
    );
    expect(results.map((r) => r.value ?? r.error)).toEqual([
      'slept',
      'slept',
      'Exceeded maximum execution time',
      'slept',
    ]);
    expect(results[2].ledger.timedOut).toBe(true);
    // The fourth started when a slot freed (20 s in) and ran its own 20 s: 40 s of wave, no job over 30 s.
    expect(results[3].ledger.startedAt - start).toBeGreaterThanOrEqual(20_000);
    expect(emu.clock.now() - start).toBeGreaterThanOrEqual(40_000);
  });

  test('a job that computes past its limit without calling anything is stopped; the others finish', async () => {
    const emu = probe(SCRIPT);
    const results = await emu.runConcurrently(
      [
        { name: 'spin', args: [], options: { kind: 'custom-function', killAfterMs: 200 } },
        { name: 'appendAfter', args: [100, 'x'] },
      ],
      { concurrency: 2 },
    );
    expect(results[0].error).toBe('Exceeded maximum execution time');
    expect(results[0].ledger.timedOut).toBe(true);
    expect(results[1].value).toBe('x');
  });

  test('a service error keeps its message and is an Error of the script; uncaught, it is the result; denied services as in a sequential run', async () => {
    const emu = probe(SCRIPT);
    const results = await emu.runConcurrently([
      { name: 'badKey', args: [] },
      { name: 'uncaught', args: [] },
      { name: 'trigger', args: [], options: { kind: 'custom-function' } },
    ]);
    expect(results[0].value).toEqual([true, 'Exception: Argument too large: key']);
    expect(results[1].error).toBe('Exception: Argument too large: key');
    expect(results[2].error).toBe('Exception: You do not have permission to call ScriptApp.newTrigger');
    expect(results[2].error).toBe(probe(SCRIPT).run('trigger', [], { kind: 'custom-function' }).error);
  });

  test('objects travel as handles, also back as arguments; logs go to the ledger; as in a sequential run', async () => {
    const emu = probe(SCRIPT);
    const [r] = await emu.runConcurrently([{ name: 'handles', args: ['zipped'], options: { kind: 'menu' } }]);
    const sequential = probe(SCRIPT).run('handles', ['zipped'], { kind: 'menu' });
    expect(r.value).toEqual(['zipped', 'T', ['zipped', 'B']]);
    expect(r.value).toEqual(sequential.value);
    expect(r.ledger.logs).toEqual(sequential.ledger.logs);
    expect(r.ledger.calls).toEqual(sequential.ledger.calls);
    expect(emu.workbook.byName('T')?.get(0, 1)).toBe('B');
  });

  test('byte arrays cross the thread boundary intact, as arrays of the script (and sequentially the same)', async () => {
    // Every byte value, more than the 256 from which bytes travel as one typed array, and a text gzip cannot shrink much.
    const made = Array.from({ length: 600 }, (_, i) => (i % 256) - 128);
    const text = Array.from({ length: 3000 }, (_, i) => `${i}:${(i * 7919) % 10007}é`).join('|');
    const emu = probe(SCRIPT);
    const [r] = await emu.runConcurrently([{ name: 'bytesRoundTrip', args: [text, made] }]);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([true, true, true, true, true]);
    expect(emu.run('bytesRoundTrip', [text, made]).value).toEqual(r.value);
  });

  test('the script sees its own realm and its own clock', async () => {
    const emu = probe(SCRIPT);
    const [r, c] = await emu.runConcurrently([
      { name: 'realm', args: [[1, 2], new Date(42)] },
      { name: 'clockAfterSleep', args: [5000] },
    ]);
    expect(r.value).toEqual([true, true, true, 42, true]);
    expect(c.value).toBeGreaterThanOrEqual(5000);
    expect(c.value).toBeLessThan(5500);
  });

  test('recalculate: each cell sees its own calling cell, reads its row, and may not write', async () => {
    for (const concurrency of [1, 3, DEFAULT_CONCURRENCY]) {
      const emu = probe(SCRIPT);
      const data = emu.workbook.addSheet('Data');
      for (let r = 1; r <= 20; r++) data.set(r - 1, 0, `id${r}`);
      const cells = Array.from({ length: 20 }, (_, i) => ({
        sheet: 'Data',
        row: i + 1,
        col: 3,
        name: 'where',
        args: [],
      }));
      const results = await emu.recalculate(cells, { concurrency });
      expect(results.map((r) => r.value)).toEqual(cells.map((c) => [`C${c.row}`, `id${c.row}`, 'Data']));
      expect(results.every((r) => r.ledger.kind === 'custom-function')).toBe(true);
    }
  });

  test('cache limits are shared: four jobs of 300 items leave the 1,000 one cache holds', async () => {
    const emu = probe(SCRIPT);
    const results = await emu.runConcurrently(
      ['a', 'b', 'c', 'd'].map((p) => ({ name: 'fill', args: [p, 300] })),
      { concurrency: 4 },
    );
    expect(results.map((r) => r.value)).toEqual([300, 300, 300, 300]);
    expect(emu.cache('script').items.size).toBe(1000);
  });

  test('locks are held against each other: critical sections never overlap, a short tryLock gives up', async () => {
    for (const concurrency of [3, 5]) {
      const emu = probe(SCRIPT);
      // "a" locks first: "b" and tryBriefly start 100 ms and 50 ms later, time enough for a's own start (charged
      // on the wall clock here) even on a busy machine, where 20 ms once let "b" in first (1 wave in 10,000).
      const results = await emu.runConcurrently(
        [
          { name: 'holdLock', args: [0, 500, 'a'] },
          { name: 'holdLock', args: [100, 500, 'b'] },
          { name: 'tryBriefly', args: [100] },
        ],
        { concurrency },
      );
      expect(emu.cache('script').items.get('locked')?.value).toBe('a+a-b+b-');
      expect(results.map((r) => r.value)).toEqual(['a', 'b', false]);
      expect(results[1].ledger.endedAt - results[0].ledger.endedAt).toBeGreaterThanOrEqual(500);
    }
  });
});

describe('concurrent executions against the reference service', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService(['--partners', '300', '--funds', '2', '--max-page-size', '100']);
  });
  afterAll(() => svc.stop());

  test('the daily fetch quota is shared: 3 left, 5 jobs fetch, exactly 3 succeed', async () => {
    for (const concurrency of [2, 5]) {
      const emu = probe(SCRIPT, { fetchQuota: 3 });
      const results = await emu.runConcurrently(
        Array.from({ length: 5 }, () => ({ name: 'fetchOnce', args: [`${svc.url}/openapi.json`] })),
        { concurrency },
      );
      expect(results.filter((r) => r.value === 200)).toHaveLength(3);
      expect(
        results.filter((r) => r.error === 'Exception: Service invoked too many times for one day: urlfetch.'),
      ).toHaveLength(2);
      expect(emu.quota.used).toBe(3);
    }
  });

  test('50 LP_GET cells filled down and recalculated concurrently show what they show one by one', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => partnerId(i * 5));
    const serial = addin(svc.url);
    const expected = ids.map((id) => serial.cell('LP_GET', id, 'firm'));
    expect(expected.filter((c) => c.error === undefined).length).toBeGreaterThan(0);
    for (const concurrency of [4, DEFAULT_CONCURRENCY]) {
      const { emu } = addin(svc.url);
      const cells = await fillDownAndRecalculate(
        emu,
        { sheet: 'Partners', ids, name: 'LP_GET', rest: ['firm'] },
        { concurrency },
      );
      expect(cells.map((c) => c.value ?? c.error)).toEqual(expected.map((c) => c.value ?? c.error));
      expect(cells[0].formula).toBe('=LP_GET(A2, "firm")');
      expect(cells.map((c) => c.row)).toEqual(ids.map((_, i) => i + 2));
      expect(cells.every((c) => c.run.ledger.kind === 'custom-function' && !c.run.ledger.timedOut)).toBe(true);
      expect(emu.history).toHaveLength(ids.length);
    }
  });
});
