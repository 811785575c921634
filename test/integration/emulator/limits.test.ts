import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callCustomFunction, ScriptRunHost } from '../../../dev/emulator/hosts';
import { Emulator } from '../../../dev/emulator/runtime';
import { probe } from '../../helpers/probe';

const PROBES = `
function cachePut(key, value, ttl) { CacheService.getScriptCache().put(key, value, ttl); return CacheService.getScriptCache().get(key); }
function cacheGet(key) { return CacheService.getScriptCache().get(key); }
function cacheFill(n, prefix, ttl) { var v = {}; for (var i = 0; i < n; i++) v[prefix + i] = 'x'; CacheService.getScriptCache().putAll(v, ttl); }
function cacheCount(n, prefix) { var k = []; for (var i = 0; i < n; i++) k.push(prefix + i); return Object.keys(CacheService.getScriptCache().getAll(k)).length; }
function propSet(scope, key, value) { var s = scope === 'user' ? PropertiesService.getUserProperties() : PropertiesService.getScriptProperties(); s.setProperty(key, value); return s.getProperty(key); }
function propSetMany(n, size) { var o = {}; for (var i = 0; i < n; i++) o['k' + i] = new Array(size + 1).join('v'); PropertiesService.getScriptProperties().setProperties(o); }
function propGet(scope, key) { var s = scope === 'user' ? PropertiesService.getUserProperties() : PropertiesService.getScriptProperties(); return s.getProperty(key); }
function write(a1, values) { SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange(a1).setValues(values); }
function read(a1) { var r = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange(a1); return { values: r.getValues(), formulas: r.getFormulas() }; }
function dateTrip() { var r = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange(1, 1); var d = new Date(Date.UTC(2024, 1, 29, 12)); r.setValue(d); var back = r.getValue(); return [back instanceof Date, back.getTime() === d.getTime()]; }
function grow(rows) { SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].insertRowsAfter(1, rows); }
function narrow(from, n) { var s = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; s.deleteColumns(from, n); return [s.getMaxColumns(), s.getRange(1, 1, 1, 2).getValues()[0]]; }
function addSheet(name) { return SpreadsheetApp.getActiveSpreadsheet().insertSheet(name).getName(); }
function sleep(ms) { Utilities.sleep(ms); return 'slept'; }
function sleepLoop(times, ms) { for (var i = 0; i < times; i++) Utilities.sleep(ms); return 'done'; }
function trigger(kind, n) { var b = ScriptApp.newTrigger('tick').timeBased(); (kind === 'minutes' ? b.everyMinutes(n) : b.everyHours(n)).create(); return ScriptApp.getProjectTriggers().length; }
function tick() { var p = PropertiesService.getScriptProperties(); p.setProperty('ticks', String(Number(p.getProperty('ticks') || 0) + 1)); }
function ui() { return typeof SpreadsheetApp.getUi().createMenu; }
function lock(method, ms) { var l = LockService.getScriptLock(); if (method === 'try') return l.tryLock(ms); l.waitLock(ms); return true; }
function echo(x) { return x; }
function spin(ms) { var t = Date.now(); while (Date.now() - t < ms) {} return ms; }
function holdLock(ms) { var l = LockService.getScriptLock(); l.waitLock(1000); spin(ms); l.releaseLock(); return 'held'; }
function lockAfter(ms, wait) { spin(ms); return LockService.getScriptLock().tryLock(wait); }
function giveDate() { return new Date(); }
function hidden_() { return 'secret'; }
function missing() { return SpreadsheetApp.openById('x'); }
function page(name) { var t = HtmlService.createTemplateFromFile('Probe'); t.name = name; var out = t.evaluate().setTitle('T'); return [out.getTitle(), out.getContent()]; }
function file(name) { return HtmlService.createHtmlOutputFromFile(name).getContent(); }
function who() { return [Session.getEffectiveUser().getEmail(), Session.getActiveUser().getEmail(), Session.getScriptTimeZone()]; }
function zip(text) { var z = Utilities.gzip(Utilities.newBlob(text)); return Utilities.ungzip(z).getDataAsString(); }
`;

const emuWith = () => probe(PROBES);

describe('emulator limits: CacheService', () => {
  test('keys up to 250 characters; 251 throws', () => {
    const emu = emuWith();
    expect(emu.run('cachePut', ['k'.repeat(250), 'v']).value).toBe('v');
    expect(emu.run('cachePut', ['k'.repeat(251), 'v']).error).toBe('Exception: Argument too large: key');
  });

  test('values up to 100 KB; one byte more throws', () => {
    const emu = emuWith();
    expect(emu.run('cachePut', ['k', 'v'.repeat(100 * 1024)]).error).toBeUndefined();
    expect(emu.run('cachePut', ['k', 'v'.repeat(100 * 1024 + 1)]).error).toBe('Exception: Argument too large: value');
    expect(emu.run('cachePut', ['k', 'é'.repeat(51201)]).error).toBe('Exception: Argument too large: value');
  });

  test('expiry from 1 to 21,600 s, default 600 s, on the simulated clock', () => {
    const emu = emuWith();
    expect(emu.run('cachePut', ['a', 'v', 21600]).error).toBeUndefined();
    expect(emu.run('cachePut', ['a', 'v', 21601]).error).toBe('Exception: Invalid argument: expirationInSeconds');
    expect(emu.run('cachePut', ['a', 'v', 0]).error).toBe('Exception: Invalid argument: expirationInSeconds');
    emu.run('cachePut', ['d', 'v']);
    emu.advance(598_000);
    expect(emu.run('cacheGet', ['d']).value).toBe('v');
    emu.advance(3_000);
    expect(emu.run('cacheGet', ['d']).value).toBeNull();
  });

  test('at most 1,000 items: the 1,001st evicts the item nearest to expiry', () => {
    const emu = emuWith();
    emu.run('cacheFill', [1, 'short', 60]);
    emu.run('cacheFill', [999, 'long', 3600]);
    expect(emu.run('cacheCount', [1, 'short']).value).toBe(1);
    emu.run('cacheFill', [1, 'new', 3600]);
    expect(emu.run('cacheCount', [1, 'short']).value).toBe(0);
    expect(emu.run('cacheCount', [999, 'long']).value).toBe(999);
    expect(emu.cache('script').items.size).toBe(1000);
  });
});

describe('emulator limits: PropertiesService', () => {
  test('values up to 9 KB; one byte more throws; values become strings', () => {
    const emu = emuWith();
    expect(emu.run('propSet', ['script', 'k', 'v'.repeat(9 * 1024)]).error).toBeUndefined();
    expect(emu.run('propSet', ['script', 'k', 'v'.repeat(9 * 1024 + 1)]).error).toBe(
      'Exception: Argument too large: value',
    );
    expect(emu.run('propSet', ['script', 'n', 42]).value).toBe('42');
  });

  test('a store holds up to 500 KB', () => {
    const emu = emuWith();
    expect(emu.run('propSetMany', [50, 9000]).error).toBeUndefined();
    expect(emu.run('propSetMany', [60, 9000]).error).toContain('exceeded the property storage quota');
  });

  test("custom functions read the owner's user properties and cannot write", () => {
    const emu = emuWith();
    emu.run('propSet', ['user', 'key', 'owner-secret']);
    emu.run('propSet', ['user', 'key', 'other-secret'], { user: 'other@example.com' });
    expect(callCustomFunction(emu, 'propGet', ['user', 'key']).value).toBe('owner-secret');
    expect(emu.run('propGet', ['user', 'key'], { user: 'other@example.com' }).value).toBe('other-secret');
    expect(callCustomFunction(emu, 'propSet', ['script', 'k', 'v']).error).toBe(
      'Exception: You do not have permission to call ScriptProperties.setProperty',
    );
  });
});

describe('emulator limits: SpreadsheetApp', () => {
  test("setValues checks the shape with Google's message", () => {
    const emu = emuWith();
    expect(
      emu.run('write', [
        'A1:B2',
        [
          [1, 2],
          [3, 4],
        ],
      ]).error,
    ).toBeUndefined();
    expect(emu.run('write', ['A1:B2', [[1, 2]]]).error).toBe(
      'Exception: The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 2.',
    );
    expect(emu.run('write', ['A1:B2', [[1, 2], [3]]]).error).toBe(
      'Exception: The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
  });

  test('a string starting with = becomes a formula; a quote prefix keeps text; numeric text becomes a number', () => {
    const emu = emuWith();
    emu.run('write', ['A1:E1', [['=SUM(1,2)', "'=SUM(1,2)", '-oops', '+44 20', '12.5']]]);
    const { values, formulas } = emu.run<{ values: unknown[][]; formulas: string[][] }>('read', ['A1:E1']).value as {
      values: unknown[][];
      formulas: string[][];
    };
    expect(formulas[0]).toEqual(['=SUM(1,2)', '', '=-oops', '=+44 20', '']);
    expect(values[0][1]).toBe('=SUM(1,2)');
    expect(values[0][4]).toBe(12.5);
  });

  test('cells hold up to 50,000 characters; one more throws', () => {
    const emu = emuWith();
    expect(emu.run('write', ['A1', [['x'.repeat(50000)]]]).error).toBeUndefined();
    expect(emu.run('write', ['A1', [['x'.repeat(50001)]]]).error).toBe(
      'Exception: Your input contains more than the maximum of 50000 characters in a single cell.',
    );
  });

  test('a workbook holds up to 10,000,000 cells', () => {
    const emu = emuWith();
    expect(emu.run('grow', [(10_000_000 - 26_000) / 26]).error).toBeUndefined();
    expect(emu.workbook.cellCount()).toBe(10_000_000);
    expect(emu.run('grow', [1]).error).toBe(
      'Exception: This action would increase the number of cells in the workbook above the limit of 10000000 cells.',
    );
  });

  test('deleting columns frees their cells and moves those to their right; deleting them all throws', () => {
    const emu = emuWith();
    emu.run('write', ['A1:C1', [['a', 'b', 'c']]]);
    expect(emu.run('narrow', [2, 1]).value).toEqual([25, ['a', 'c']]);
    expect(emu.workbook.cellCount()).toBe(25_000);
    expect(emu.run('narrow', [1, 25]).error).toBe("Exception: You can't delete all the columns on the sheet.");
  });

  test('dates round-trip; ranges outside the grid and duplicate sheet names are refused', () => {
    const emu = emuWith();
    expect(emu.run('dateTrip').value).toEqual([true, true]);
    expect(emu.run('write', ['A1000', [[1]]]).error).toBeUndefined();
    expect(emu.run('write', ['A1001', [[1]]]).error).toBe(
      'Exception: The coordinates of the range are outside the dimensions of the sheet.',
    );
    expect(emu.run('addSheet', ['Data']).value).toBe('Data');
    expect(emu.run('addSheet', ['data']).error).toBe(
      'Exception: A sheet with the name "data" already exists. Please enter another name.',
    );
  });
});

describe('emulator limits: execution time and permissions', () => {
  test('a custom function has 30 s; a menu call 6 minutes', () => {
    const emu = emuWith();
    expect(callCustomFunction(emu, 'sleep', [29_000]).value).toBe('slept');
    expect(callCustomFunction(emu, 'sleep', [31_000]).error).toBe('Exceeded maximum execution time');
    expect(emu.run('sleepLoop', [3, 110_000], { kind: 'menu' }).value).toBe('done');
    expect(emu.run('sleepLoop', [4, 91_000], { kind: 'menu' }).error).toBe('Exceeded maximum execution time');
    expect(emu.run('sleep', [300_001]).error).toContain('Invalid argument');
  });

  test('custom functions may not use ScriptApp or the UI', () => {
    const emu = emuWith();
    expect(callCustomFunction(emu, 'trigger', ['hours', 1]).error).toBe(
      'Exception: You do not have permission to call ScriptApp.newTrigger',
    );
    expect(callCustomFunction(emu, 'ui', []).error).toBe(
      'Exception: Cannot call SpreadsheetApp.getUi() from this context.',
    );
    expect(emu.run('ui', [], { kind: 'menu' }).value).toBe('function');
  });

  test('members that are not emulated throw instead of returning undefined', () => {
    expect(emuWith().run('missing').error).toBe('not emulated: SpreadsheetApp.openById');
  });

  test('HtmlService templates escape printed values, and any execution reads a file as written; Session tells whose execution it is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'html-'));
    writeFileSync(join(dir, 'Probe.html'), '<p>Hello <?= name ?></p>');
    writeFileSync(join(dir, 'Code.js'), PROBES);
    const emu = new Emulator({ distDir: dir });
    expect(emu.run('page', ['<b>x</b>']).value).toEqual(['T', '<p>Hello &#60;b&#62;x&#60;/b&#62;</p>']);
    // Custom functions may call the HTML service (Google's custom-functions guide): it shows nothing without getUi().
    expect(callCustomFunction(emu, 'file', ['Probe']).value).toBe('<p>Hello <?= name ?></p>');
    expect(callCustomFunction(emu, 'file', ['Nope']).error).toBe('Exception: No HTML file named Nope was found.');
    expect(emu.run('who', [], { user: 'analyst@example.com' }).value).toEqual([
      'analyst@example.com',
      'analyst@example.com',
      'Etc/UTC',
    ]);
    expect(callCustomFunction(emu, 'who', []).value).toEqual([emu.owner, '', 'Etc/UTC']);
  });

  test('Utilities gzip round-trips', () => {
    expect(emuWith().run('zip', ['héllo wörld']).value).toBe('héllo wörld');
  });
});

describe('emulator limits: ScriptApp and LockService', () => {
  test('everyMinutes takes 1, 5, 10, 15 or 30; 20 triggers per user, the 21st throws', () => {
    const emu = emuWith();
    expect(emu.run('trigger', ['minutes', 7]).error).toBe(
      'Exception: The value passed to everyMinutes must be one of 1, 5, 10, 15 or 30.',
    );
    for (let i = 1; i <= 20; i++) expect(emu.run('trigger', ['minutes', 5]).value).toBe(i);
    expect(emu.run('trigger', ['minutes', 5]).error).toBe(
      'Exception: This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    );
    expect(emu.run('trigger', ['minutes', 5], { user: 'b@example.com' }).value).toBe(1);
  });

  test('in add-on mode time triggers run at most hourly', () => {
    const emu = probe(PROBES, { addOn: true });
    expect(emu.run('trigger', ['minutes', 30]).error).toContain('at most once per hour');
    expect(emu.run('trigger', ['hours', 1]).value).toBe(1);
  });

  test('triggers fire on the simulated clock', () => {
    const emu = emuWith();
    emu.run('trigger', ['hours', 1]);
    expect(emu.advance(59 * 60_000)).toHaveLength(0);
    const runs = emu.advance(3 * 60 * 60_000);
    expect(runs).toHaveLength(3);
    expect(runs.every((r) => r.ledger.kind === 'trigger' && r.error === undefined)).toBe(true);
    expect(emu.store('script').get('ticks')).toBe('3');
  });

  test("a lock held elsewhere: tryLock waits up to its timeout, waitLock throws Google's message", () => {
    const emu = emuWith();
    emu.holdLock('script', 10_000);
    expect(emu.run('lock', ['try', 5_000]).value).toBe(false);
    expect(emu.run('lock', ['wait', 1_000]).error).toBe(
      'Exception: Lock timeout: another process was holding the lock for too long.',
    );
    expect(emu.run('lock', ['try', 10_000]).value).toBe(true);
  });
});

describe('emulator: google.script.run semantics', () => {
  test('JSON-safe arguments and results only; private functions unreachable', async () => {
    const host = new ScriptRunHost(emuWith());
    await expect(host.call('echo', [{ a: [1, 'x', null, true] }])).resolves.toEqual({ a: [1, 'x', null, true] });
    await expect(host.call('echo', [new Date()])).rejects.toThrow(
      'Failed due to illegal value in property: arguments[0]',
    );
    await expect(host.call('giveDate')).rejects.toThrow('illegal value in property: result');
    await expect(host.call('hidden_')).rejects.toThrow('Script function not found: hidden_');
  });

  test('calls in flight run at once, as Google runs each as its own execution: one answers while another computes', async () => {
    const host = new ScriptRunHost(emuWith());
    const order: string[] = [];
    const long = host.call('spin', [3000]).then(() => order.push('spin'));
    const quick = host.call('echo', ['hi']).then(() => order.push('echo'));
    await Promise.all([long, quick]);
    expect(order).toEqual(['echo', 'spin']);
  });

  test('a lock another call holds is waited for as long as its holder keeps it, up to the timeout', async () => {
    const emu = emuWith();
    const host = new ScriptRunHost(emu);
    const holder = host.call('holdLock', [1500]);
    while (!emu.locks.holders?.size) await new Promise((wake) => setImmediate(wake));
    const [patient, brief] = await Promise.all([
      host.call('lockAfter', [0, 20_000]),
      host.call('lockAfter', [0, 100]),
      holder,
    ]);
    expect(patient).toBe(true);
    expect(brief).toBe(false);
  });

  test('an execution on the test thread cannot wait for a call that holds a lock: it waits out its timeout and gives up', async () => {
    const emu = emuWith();
    const host = new ScriptRunHost(emu);
    const holder = host.call('holdLock', [1500]);
    while (!emu.locks.holders?.size) await new Promise((wake) => setImmediate(wake));
    const start = emu.clock.now();
    const r = emu.run('lock', ['try', 2000]);
    expect(r.value).toBe(false);
    expect(r.ledger.endedAt - start).toBeGreaterThanOrEqual(2000);
    await holder;
  });

  test('at most 10 calls in flight; the rest wait their turn', async () => {
    const host = new ScriptRunHost(emuWith());
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => host.call('echo', [i])));
    expect(results).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(host.maxSeen).toBe(10);
  });
});
