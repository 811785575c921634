/**
 * "Refresh all formulas" in the emulator: the add-in's formulas on every sheet are rewritten in
 * contiguous runs (one setFormulas to clear and one to rewrite each run), no other cell is
 * written, cached answers become stale, 50,000 formula cells fit in one execution, and an
 * execution killed at any point loses no formula: the journal it leaves is replayed by the next
 * execution (a refresh, the sidebar opening, a trigger) into the cells still empty. A call that
 * fails puts its block back at once; near the deadline it stops between blocks.
 */
import { gzipSync } from 'node:zlib';
import { COST } from '../../../dev/emulator/execution';
import { EmulatedRange } from '../../../dev/emulator/range';
import { Emulator, type EmulatorOptions } from '../../../dev/emulator/runtime';
import type { SheetData } from '../../../dev/emulator/workbook';
import { addin } from '../../helpers/addin';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '300']);
});
afterAll(() => svc.stop());

/** Every cell's formula and value, for comparing a sheet before and after. */
function snapshot(sheets: SheetData[]): string {
  return JSON.stringify(
    sheets.map((s) => ({
      name: s.name,
      formulas: [...s.formulas].sort(),
      values: s.values.map((row) => Array.from(row ?? [], (v) => v ?? '')),
    })),
  );
}

/**
 * Two sheets: add-in formulas filled down two adjacent columns (one rectangle), a column with a
 * gap holding an analyst's value and another add-in's formula, ids and notes around them.
 */
function seed(sheets: SheetData[], rows: number): void {
  const [one, two] = sheets;
  one.maxRows = Math.max(one.maxRows, rows + 1);
  for (let r = 1; r <= rows; r++) {
    one.set(r, 0, `lp_${r}`);
    one.set(r, 1, '', `=LP_GET(A${r + 1}, "firm")`);
    one.set(r, 2, '', `=LP_GET(A${r + 1}, "fullName")`);
    if (r % 7 === 3) one.set(r, 3, 'analyst note');
    else if (r % 7 === 5) one.set(r, 3, 42, '=SUM(1,41)');
    else one.set(r, 3, '', `=FUND_GET(A${r + 1}, "name")`);
  }
  two.set(0, 0, '', '=LP_ACTIVE()');
  two.set(0, 4, 'keep me');
  two.set(5, 1, '', '=lp_fields(TRUE)');
}

/** A spreadsheet of two sheets with several journal blocks' worth of add-in formulas, and how it looks before any refresh. */
function twoSeededSheets(options: EmulatorOptions = {}) {
  const a = addin(svc.url, DEMO_KEY, options);
  a.emu.workbook.addSheet('Second');
  const sheets = a.emu.workbook.sheets;
  seed(sheets, 600);
  seedRandom(sheets[1], 2600, 7);
  return { a, sheets, before: snapshot(sheets) };
}

/** Formulas that compress poorly (seeded random ids), so that a few thousand need several journal blocks. */
function seedRandom(sheet: SheetData, rows: number, seed: number): void {
  let x = seed;
  const hex = () => {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return (x >>> 0).toString(16).padStart(8, '0');
  };
  sheet.maxRows = Math.max(sheet.maxRows, rows + 1);
  for (let r = 0; r < rows; r++) {
    sheet.set(r, 4, '', `=LP_GET("lp_${hex()}${hex()}", "${hex()}")`);
    sheet.set(r, 5, '', `=FUND_GET("vf_${hex()}${hex()}", "${hex()}")`);
  }
}

describe('Refresh all formulas', () => {
  test('rewrites each contiguous run with one call, touches no other cell, and marks cached answers stale', () => {
    const a = addin(svc.url);
    expect(a.cell('LP_GET', 'lp_0000a', 'id').run.ledger.fetches).toBe(1);
    expect(a.cell('LP_GET', 'lp_0000a', 'id').run.ledger.fetches).toBe(0);
    a.emu.workbook.addSheet('Second');
    const sheets = a.emu.workbook.sheets;
    seed(sheets, 30);
    const before = snapshot(sheets);
    const written = sheets.map((s) => (s.written = new Set<string>()));
    const run = a.emu.run('refreshAllFormulas', [], { kind: 'menu' });
    expect(run.error).toBeUndefined();
    // 30 × 2 + 22 FUND_GET + LP_ACTIVE + LP_FIELDS
    expect(run.value).toBe(84);
    expect(snapshot(sheets)).toBe(before);
    // Exactly the add-in's formula cells were written: not the ids, the note, the SUM or 'keep me'.
    sheets.forEach((s, i) => {
      const ours = [...s.formulas].filter(([, f]) => /^=(LP|FUND)_/i.test(f)).map(([k]) => k);
      expect([...written[i]].sort()).toEqual(ours.sort());
    });
    // Runs: B2:C31 (one rectangle), the FUND_GET column cut in 9 runs by the note and the SUM, two single cells: 12 runs.
    expect(run.ledger.calls['Range.setFormulas']).toBe(2 * 12);
    expect(run.ledger.calls['Range.setFormula']).toBeUndefined();
    expect(a.emu.workbook.toasts.at(-1)?.message).toBe('Refreshed 84 Investor Data formulas.');
    expect(a.emu.store('document').has('INVESTOR_DATA_REFRESH_JOURNAL')).toBe(false);
    expect(a.cell('LP_GET', 'lp_0000a', 'id').run.ledger.fetches).toBe(1);
  });

  test('50,000 formula cells in one execution, well inside the 6 minutes', () => {
    const a = addin(svc.url);
    const sheet = a.emu.workbook.sheets[0];
    sheet.maxRows = 50_001;
    for (let r = 1; r <= 50_000; r++) {
      sheet.set(r, 0, `lp_${r}`);
      sheet.set(r, 1, '', `=LP_GET(A${r + 1}, "firm")`);
    }
    const before = snapshot([sheet]);
    const run = a.emu.run('refreshAllFormulas', [], { kind: 'menu' });
    expect(run.error).toBeUndefined();
    expect(run.value).toBe(50_000);
    expect(run.ledger.timedOut).toBe(false);
    expect(run.ledger.endedAt - run.ledger.startedAt).toBeLessThan(120_000);
    expect(snapshot([sheet])).toBe(before);
  });

  test('killed at any call, from the first to the last, no formula is lost: the next execution puts back what was erased', () => {
    const { a, sheets, before } = twoSeededSheets();
    const full = a.emu.run('refreshAllFormulas', [], { kind: 'menu' });
    expect(full.error).toBeUndefined();
    const total = full.ledger.endedAt - full.ledger.startedAt;
    const calls = Object.values(full.ledger.calls).reduce((n, k) => n + k, 0);
    expect(calls).toBeGreaterThan(20);
    let erasedAtKill = 0;
    let killed = 0;
    // From before the first call to past the last one, in steps finer than the cheapest call.
    for (let at = 0; at <= total + 5; at += Math.max(1, total / 40)) {
      const run = a.emu.run('refreshAllFormulas', [], { kind: 'menu', killAfterMs: at });
      if (run.error === 'Exceeded maximum execution time') killed++;
      if (snapshot(sheets) !== before) erasedAtKill++;
      const next = a.emu.run('getSidebarState', [], { kind: 'sidebar' });
      expect(next.error).toBeUndefined();
      expect(snapshot(sheets)).toBe(before);
      expect(a.emu.store('document').has('INVESTOR_DATA_REFRESH_JOURNAL')).toBe(false);
    }
    expect(killed).toBeGreaterThan(35);
    // The sweep crossed several blocks, each with its own journal.
    expect(full.ledger.calls['DocumentProperties.setProperties']).toBeGreaterThan(1);
    // The sweep did hit the window between clearing a block and rewriting it (else it proves nothing).
    expect(erasedAtKill).toBeGreaterThan(0);
  }, 180_000);

  test.each([
    ['a bound script', false],
    ['an Editor add-on', true],
  ])(
    'in %s, killed between clearing and rewriting a block, with nobody opening anything: the hourly trigger puts the formulas back within the hour; a refresh that finishes leaves no trigger',
    (_where, addOn) => {
      const { a, sheets, before } = twoSeededSheets({ addOn });
      const timers = () => a.emu.triggers.triggers.filter((t) => t.handler === 'runScheduledImports');
      const full = a.emu.run('refreshAllFormulas', [], { kind: 'menu' });
      expect(full.error).toBeUndefined();
      expect(timers()).toEqual([]);
      const total = full.ledger.endedAt - full.ledger.startedAt;
      let erased = 0;
      for (let at = 1; at <= total; at += Math.max(1, total / 40)) {
        a.emu.run('refreshAllFormulas', [], { kind: 'menu', killAfterMs: at });
        if (snapshot(sheets) === before) continue;
        erased++;
        expect(timers()).toHaveLength(1);
        const fired = a.emu.advance(3_600_000);
        expect(fired.map((r) => [r.ledger.name, r.error])).toEqual([['runScheduledImports', undefined]]);
        expect(snapshot(sheets)).toBe(before);
        expect(timers()).toEqual([]);
        expect(a.emu.store('document').has('INVESTOR_DATA_REFRESH_JOURNAL')).toBe(false);
      }
      expect(erased).toBeGreaterThan(0);
    },
    180_000,
  );

  test('recovery writes only cells still empty: what the analyst typed after the kill stays', () => {
    const a = addin(svc.url);
    const sheet = a.emu.workbook.sheets[0];
    for (let r = 0; r < 10; r++) sheet.set(r, 1, '', `=LP_GET("lp_${r}", "firm")`);
    // Kill just after the block was cleared: find the point by sweeping until cells are empty.
    let at = 0;
    for (; at < 2000; at += 1) {
      a.emu.run('refreshAllFormulas', [], { kind: 'menu', killAfterMs: at });
      if (!sheet.formulas.has('3,1')) break;
      a.emu.run('refreshAllFormulas', [], { kind: 'menu' });
    }
    expect(sheet.formulas.has('3,1')).toBe(false);
    sheet.set(3, 1, 'typed by the analyst');
    expect(a.emu.run('refreshAllFormulas', [], { kind: 'menu' }).value).toBe(9);
    expect(sheet.get(3, 1)).toBe('typed by the analyst');
    expect(sheet.formulas.get('4,1')).toBe('=LP_GET("lp_4", "firm")');
    expect(sheet.formulas.size).toBe(9);
  });

  test('a journal holding a piece without rows is replayed: the other pieces come back', () => {
    const a = addin(svc.url);
    const sheet = a.emu.workbook.sheets[0];
    const kept = [['=LP_GET("lp_1", "firm")'], ['=LP_GET("lp_2", "firm")']];
    const pieces = [
      { sheetId: sheet.id, row: 2, col: 2, formulas: [] },
      { sheetId: sheet.id, row: 3, col: 2, formulas: kept },
    ];
    const doc = a.emu.store('document');
    doc.set('INVESTOR_DATA_REFRESH_JOURNAL', '1');
    doc.set('INVESTOR_DATA_REFRESH_JOURNAL_0', gzipSync(JSON.stringify({ pieces })).toString('base64'));
    const run = a.emu.run('refreshAllFormulas', [], { kind: 'menu' });
    expect(run.error).toBeUndefined();
    expect([sheet.formulas.get('2,1'), sheet.formulas.get('3,1')]).toEqual(kept.flat());
    expect(doc.has('INVESTOR_DATA_REFRESH_JOURNAL')).toBe(false);
  });

  test.each([1, 2, 9, 15, 16, 23, 30])(
    'a sheet call that fails (setFormulas %i of 30: clearing, then rewriting) puts the block back at once and says what failed',
    (failing) => {
      const a = addin(svc.url);
      a.emu.workbook.addSheet('Second');
      const sheets = a.emu.workbook.sheets;
      seed(sheets, 40);
      const before = snapshot(sheets);
      const real = EmulatedRange.prototype.setFormulas;
      let n = 0;
      const spy = jest.spyOn(EmulatedRange.prototype, 'setFormulas').mockImplementation(function (
        this: EmulatedRange,
        formulas: string[][],
      ) {
        if (++n === failing) throw new Error('Service Spreadsheets failed while accessing document.');
        return real.call(this, formulas);
      });
      try {
        const run = a.emu.run('refreshAllFormulas', [], { kind: 'menu' });
        expect(run.error).toBe('Service Spreadsheets failed while accessing document.');
        // The failure was reached (15 runs: B2:C41, 12 in column D between the note and the SUM, 2 on the second sheet).
        expect(n).toBeGreaterThanOrEqual(failing);
      } finally {
        spy.mockRestore();
      }
      expect(snapshot(sheets)).toBe(before);
      expect(a.emu.store('document').has('INVESTOR_DATA_REFRESH_JOURNAL')).toBe(false);
    },
  );

  test('near the deadline (a slow Sheets) it stops between blocks: no timeout, nothing erased, the toast says how far it got', () => {
    const a = addin(svc.url);
    const sheet = a.emu.workbook.sheets[0];
    sheet.maxRows = 50_001;
    for (let r = 1; r <= 50_000; r++) sheet.set(r, 1, '', `=LP_GET(A${r + 1}, "firm")`);
    const before = snapshot([sheet]);
    const perCell = COST.sheetWritePerCell;
    COST.sheetWritePerCell = 4; // 50,000 cells written twice would take 400 s
    let run: ReturnType<Emulator['run']>;
    let fromSidebar: ReturnType<Emulator['run']>;
    try {
      run = a.emu.run('refreshAllFormulas', [], { kind: 'menu' });
      fromSidebar = a.emu.run('refreshFormulas', [], { kind: 'sidebar' });
    } finally {
      COST.sheetWritePerCell = perCell;
    }
    // The sidebar is told how many of how many, so it can say the rest is still to do.
    expect(fromSidebar.value).toEqual({ ok: true, count: run.value, found: 50_000 });
    expect(run.error).toBeUndefined();
    expect(run.ledger.timedOut).toBe(false);
    expect(run.value).toBeGreaterThan(0);
    expect(run.value).toBeLessThan(50_000);
    expect(a.emu.workbook.toasts.at(-1)?.message).toBe(
      `Refreshed ${(run.value as number).toLocaleString('en-US')} of 50,000 Investor Data formulas before the time limit; run Refresh all formulas again for the rest.`,
    );
    expect(snapshot([sheet])).toBe(before);
    expect(a.emu.store('document').has('INVESTOR_DATA_REFRESH_JOURNAL')).toBe(false);
  });

  test('one writer at a time: while an import or another refresh holds the document lock, it refuses with a clear message and recovery waits', () => {
    const a = addin(svc.url);
    const sheet = a.emu.workbook.sheets[0];
    for (let r = 0; r < 10; r++) sheet.set(r, 1, '', `=LP_GET("lp_${r}", "firm")`);
    const before = snapshot([sheet]);
    a.emu.holdLock('document', 120_000);
    const refused = a.emu.run('refreshAllFormulas', [], { kind: 'menu' });
    expect(refused.error).toBe(
      'An import or another Refresh all formulas is writing to this spreadsheet; try again when it has finished.',
    );
    expect(refused.ledger.calls['Range.setFormulas']).toBeUndefined();
    expect(snapshot([sheet])).toBe(before);
    // A journal left by a killed refresh is not replayed under someone else's lock, but once it is free.
    a.emu.clock.advance(120_000);
    let at = 0;
    for (; at < 2000 && sheet.formulas.size === 10; at++) {
      a.emu.run('refreshAllFormulas', [], { kind: 'menu', killAfterMs: at });
    }
    expect(sheet.formulas.size).toBeLessThan(10);
    a.emu.holdLock('document', 60_000);
    expect(a.emu.run('getSidebarState', [], { kind: 'sidebar' }).error).toBeUndefined();
    expect(sheet.formulas.size).toBeLessThan(10);
    a.emu.clock.advance(60_000);
    expect(a.emu.run('getSidebarState', [], { kind: 'sidebar' }).error).toBeUndefined();
    expect(snapshot([sheet])).toBe(before);
  });

  test('the emulator is no kinder than Sheets: setFormulas with "" empties a cell, plain text is text, shapes are checked', () => {
    const a = addin(svc.url);
    const sheet = a.emu.workbook.sheets[0];
    sheet.set(0, 0, 5);
    const code = `function w() { var r = SpreadsheetApp.getActiveSheet().getRange(1, 1, 1, 2); r.setFormulas([['', 'hello']]); return r.getFormulas(); }
      function bad() { SpreadsheetApp.getActiveSheet().getRange(1, 1, 1, 2).setFormulas([['=1']]); }`;
    const emu = new Emulator({ code, workbook: a.emu.workbook });
    expect(emu.run('w').value).toEqual([['', '']]);
    expect(sheet.get(0, 0)).toBe('');
    expect(sheet.get(0, 1)).toBe('hello');
    expect(emu.run('bad').error).toContain('The number of columns in the data does not match');
  });
});
