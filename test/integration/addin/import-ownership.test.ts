/**
 * The import owns what it wrote, by record, tried as an analyst would through the sidebar's
 * endpoints (saveImport, startImport, continueImport, replaceAnyway, adoptTable): an edited
 * imported value, an edited id and a hand-typed table are never overwritten silently; sorting the
 * table keeps it the import's; a header the analyst renamed stays theirs; a scheduled run keeps
 * the sheet and says why. Merge by id keeps every analyst cell where it belongs (a TOTAL row's
 * formula, a column inserted between imported ones, a column named like a newly added field) and
 * never moves a row (the analyst's sort and formulas referring to other rows stay right), and
 * formats follow their field.
 * A replace killed at each of its sheet writes leaves the old or the new table, which the next
 * run accepts. The analyst's edits are made on the emulated sheet directly, as typed in Sheets.
 */
import { COST, Execution } from '../../../dev/emulator/execution';
import { shiftRecords } from '../../../dev/emulator/records';
import type { SheetData } from '../../../dev/emulator/workbook';
import type { Emulator } from '../../../dev/emulator/runtime';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { addin } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { activeIds, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '60', '--max-page-size', '50']);
});
afterAll(() => svc.stop());

function data(emu: Emulator, name: string): SheetData {
  const s = emu.workbook.byName(name);
  if (!s) throw new Error(`no sheet ${name}`);
  return s;
}

/** The choices the import's last run recorded for the sidebar to offer (Let the import own this table, Replace anyway). */
function offersOf(emu: Emulator, id: string): string[] | undefined {
  const list = call(emu, 'listImports', []);
  return list.ok ? list.imports.find((i) => i.id === id)?.last?.offers : undefined;
}

/** An import run once into `name`. */
function imported(fields: string[], mode: 'replace' | 'merge' = 'replace', name = 'Partners') {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: name, fields, mode });
  expect(runImport(a.emu, id).pop()?.status).toBe('done');
  return { emu: a.emu, id, s: data(a.emu, name) };
}

/** The analyst sorts the table's rows (below the header) by a column, as Sheets' sort does: the values move, the rows' records stay. */
function sortRows(
  s: SheetData,
  col: number,
  order = (x: unknown, y: unknown) => String(y).localeCompare(String(x)),
): void {
  const rows = s.values
    .slice(1, s.lastRow())
    .map((r) => [...r])
    .sort((x, y) => order(x[col], y[col]));
  rows.forEach((row, r) => row.forEach((v, c) => s.set(r + 1, c, v)));
}

/** The analyst inserts a column before 0-based `at`, as Insert column does. */
function insertColumn(s: SheetData, at: number): void {
  s.insert('COLUMN', at, 1);
  shiftRecords(s, 'COLUMN', at, 1);
}

describe('replace never overwrites the analyst silently', () => {
  test('an edited imported value is kept and named; undoing the edit lets the next run through', () => {
    const { emu, id, s } = imported(['id', 'fullName', 'firm', 'ticketSize']);
    const firm = s.get(4, 2);
    s.set(4, 2, 'Corrected Capital');
    const before = sheet(emu, 'Partners');
    const refused = runImport(emu, id).pop();
    expect(refused?.status).toBe('failed');
    expect(refused?.message).toContain('"Partners" is not as the import left it (C5 (edited))');
    expect(sheet(emu, 'Partners')).toEqual(before);
    expect(offersOf(emu, id)).toEqual(['force']);
    s.set(4, 2, firm);
    expect(runImport(emu, id).pop()?.status).toBe('done');
    expect(offersOf(emu, id)).toBeUndefined();
  });

  test('an id the analyst typed over an imported one is kept and named', () => {
    const { emu, id, s } = imported(['id', 'fullName', 'firm', 'ticketSize']);
    s.set(3, 0, 'my-own-id');
    expect(runImport(emu, id).pop()?.message).toMatch(
      /not as the import left it \(A4 \(edited\), B4 \(edited\), C4 \(edited\) and \d+ more\)/,
    );
    expect(s.get(3, 0)).toBe('my-own-id');
  });

  test("a table typed by hand with the same headers is the analyst's until they let the import own it", () => {
    const a = addin(svc.url);
    const s = a.emu.workbook.addSheet('Typed');
    [
      ['id', 'fullName', 'firm', 'ticketSize'],
      ['x1', 'Ann', 'Acme', 5],
      ['x2', 'Bob', 'Bcorp', 7],
    ].forEach((row, r) => row.forEach((v, c) => s.set(r, c, v)));
    const id = saveImport(a.emu, {
      sheetName: 'Typed',
      fields: ['id', 'fullName', 'firm', 'ticketSize'],
      mode: 'replace',
    });
    const refused = runImport(a.emu, id).pop();
    expect(refused?.message).toContain(
      '"Typed" holds cells the import did not write (A1, B1, C1 and 9 more). Let the import own this table',
    );
    expect(s.get(1, 1)).toBe('Ann');
    expect(offersOf(a.emu, id)).toEqual(['adopt', 'force']);
    expect(call(a.emu, 'adoptTable', [id]).ok).toBe(true);
    expect(runImport(a.emu, id).pop()?.status).toBe('done');
    expect(sheet(a.emu, 'Typed').map((r) => r[0])).not.toContain('x1');
  });

  test('sorting the imported table does not make the next replace refuse', () => {
    const { emu, id, s } = imported(['id', 'fullName', 'firm', 'ticketSize']);
    sortRows(s, 1);
    expect(runImport(emu, id).pop()?.status).toBe('done');
  });

  test("a header the analyst renamed stays theirs through replaces; its column stays the import's by its record", () => {
    const { emu, id, s } = imported(['id', 'fullName', 'firm', 'ticketSize']);
    s.set(0, 1, 'Partner');
    expect(runImport(emu, id).pop()?.status).toBe('done');
    expect(s.get(0, 1)).toBe('Partner');
    // Renamed back, then one value edited below it: that cell alone is named, not the column.
    s.set(0, 1, 'fullName');
    const name = s.get(2, 1);
    s.set(2, 1, 'Edited Name');
    const refused = runImport(emu, id).pop();
    expect(refused?.message).toContain('"Partners" is not as the import left it (B3 (edited))');
    s.set(2, 1, name);
    expect(runImport(emu, id).pop()?.status).toBe('done');
    // A header cleared holds nothing to lose: the field's name is written again.
    s.set(0, 1, '');
    expect(runImport(emu, id).pop()?.status).toBe('done');
    expect(s.get(0, 1)).toBe('fullName');
  });

  test('a scheduled run never guesses: it keeps the sheet, the log says why, and the sidebar shows it; Replace anyway, kept, lets later runs through', () => {
    const { emu, id, s } = imported(['id', 'fullName']);
    s.set(2, 1, 'Mine');
    const before = sheet(emu, 'Partners');
    call(emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]);
    emu.advance(2 * 3_600_000);
    expect(sheet(emu, 'Partners')).toEqual(before);
    const log = sheet(emu, 'Investor Data log');
    expect(log[log.length - 1].slice(4, 6)).toEqual(['schedule', 'failed']);
    expect(String(log[log.length - 1][RUN_LOG_HEADER.indexOf('Message')])).toContain('(B3 (edited))');
    const listed = call(emu, 'listImports', []);
    expect(listed.ok && listed.imports[0].last?.message).toContain('(B3 (edited))');
    const forced = call(emu, 'replaceAnyway', [id, true]);
    expect(forced.ok && forced.status).toBe('done');
    expect(s.get(2, 1)).not.toBe('Mine');
    s.set(2, 1, 'Mine again');
    emu.advance(2 * 3_600_000);
    expect(s.get(2, 1)).not.toBe('Mine again');
    call(emu, 'scheduleImport', [id, null]);
  });

  test("the import's columns carry their field and a warning-only protection that names the import", () => {
    const { emu, id, s } = imported(['id', 'fullName', 'firm']);
    expect(s.metadata.filter((m) => m.type === 'COLUMN').map((m) => [m.index, m.value])).toEqual([
      [0, 'id'],
      [1, 'fullName'],
      [2, 'firm'],
    ]);
    expect(s.protections).toEqual([
      expect.objectContaining({
        r: 0,
        c: 0,
        rows: s.lastRow(),
        cols: 3,
        warningOnly: true,
        description: expect.stringContaining(id),
      }),
    ]);
    expect(emu.workbook.byName('Partners')).toBe(s);
  });
});

describe('the record of what the import wrote', () => {
  /** The import's record sheet of `name` (hidden, two columns: the record and the pending one). */
  const recordSheet = (emu: Emulator, name = 'Partners') =>
    data(emu, `__record_${emu.workbook.byName(name)?.id ?? ''}`);

  test('packs its rows many a cell: 60 partners take one cell, and the next replace accepts the sheet', async () => {
    const { emu, id } = imported(['id', 'fullName', 'firm']);
    const record = recordSheet(emu);
    expect(record.lastRow()).toBe(1);
    const rows = JSON.parse(String(record.values[0].find(Boolean))) as string[];
    expect(rows.map((row) => row.slice(row.indexOf('|') + 1)).sort()).toEqual((await activeIds(svc)).sort());
    expect(runImport(emu, id).pop()?.status).toBe('done');
  });

  test('a record cell that is not a list of rows holds none: the next replace stops and asks', () => {
    const { emu, id } = imported(['id', 'fullName']);
    const record = recordSheet(emu);
    const slot = record.values[0].findIndex(Boolean);
    record.set(0, slot, 'typed over');
    const last = runImport(emu, id).pop();
    expect(last?.status).toBe('failed');
    expect(last?.message).toContain('"Partners" is not as the import left it');
  });

  test("the write reads the sheet back by its values alone (the grid it wrote names the analyst's formulas)", () => {
    const { emu } = imported(['id', 'fullName', 'ticketSize']);
    const ledger = emu.history.find((l) => l.name === 'startImport');
    expect(ledger?.calls['Range.getValues']).toBeGreaterThan(0);
    expect(ledger?.calls['Range.getFormulas'] ?? 0).toBe(0);
  });
});

describe('merge by id keeps every analyst cell where it belongs', () => {
  test('a merge into a table typed by hand offers only to let the import own it', () => {
    const a = addin(svc.url);
    const typed = a.emu.workbook.addSheet('Typed');
    ['id', 'firm'].forEach((v, c) => typed.set(0, c, v));
    typed.set(1, 0, 'x1');
    const id = saveImport(a.emu, { sheetName: 'Typed', fields: ['id', 'firm'], mode: 'merge' });
    expect(runImport(a.emu, id).pop()?.message).toContain('holds a table the import did not write');
    expect(offersOf(a.emu, id)).toEqual(['adopt']);
  });

  test('a TOTAL row without an id keeps its formula', () => {
    const { emu, id, s } = imported(['id', 'fullName', 'ticketSize'], 'merge');
    const last = s.lastRow();
    s.set(last, 0, 'TOTAL');
    s.set(last, 2, 0, `=SUM(C2:C${last})`);
    expect(runImport(emu, id).pop()?.status).toBe('done');
    const total = sheet(emu, 'Partners').findIndex((r) => r[0] === 'TOTAL');
    expect(s.formulas.get(`${total},2`)).toBe(`=SUM(C2:C${last})`);
  });

  test('a column inserted between imported ones keeps its place, and a formula reading it still reads it', () => {
    const { emu, id, s } = imported(['id', 'fullName', 'ticketSize'], 'merge');
    insertColumn(s, 2);
    s.set(0, 2, 'Score');
    s.set(0, 4, 'Times 10');
    for (let r = 1; r < s.lastRow(); r++) {
      s.set(r, 2, r);
      s.set(r, 4, r * 10, `=C${r + 1}*10`);
    }
    expect(runImport(emu, id).pop()?.status).toBe('done');
    const after = sheet(emu, 'Partners');
    expect(after[0]).toEqual(['id', 'fullName', 'Score', 'ticketSize', 'Times 10']);
    for (let r = 1; r < after.length; r++) expect(s.formulas.get(`${r},4`)).toBe(`=C${r + 1}*10`);
  });

  test("no row moves: the analyst's sort stays, and formulas referring to another row or, from another sheet, to a partner's row keep their partner", async () => {
    const joining = (await activeIds(svc))[20];
    await svc.mutate({ deactivate: [joining] });
    let gone = '';
    try {
      const { emu, id, s } = imported(['id', 'fullName', 'ticketSize', 'upvotes'], 'merge');
      // The analyst sorts by ticket size, largest first, and adds formulas reading other rows.
      sortRows(s, 2, (x, y) => (Number(y) || 0) - (Number(x) || 0));
      s.set(0, 4, 'Note');
      s.set(2, 4, '', '=C3&" below "&A2');
      emu.workbook.addSheet('Summary').set(0, 0, '', '=Partners!C5');
      const before = sheet(emu, 'Partners');
      gone = String(before[7][0]);
      const touched = String(before[4][0]);
      await svc.mutate({ deactivate: [gone], reactivate: [joining], touch: [touched], reorder: 'reverse' });
      const last = runImport(emu, id).pop();
      expect(last?.status).toBe('done');
      expect(last?.message).toMatch(/ 1 new, 1 no longer active, 1 field change\.$/);
      const after = sheet(emu, 'Partners');
      // Every row holds the partner it held, in the analyst's order; the partner who joined is below them.
      expect(after.map((r) => r[0])).toEqual([...before.map((r) => r[0]), joining]);
      expect(after[after.length - 1][1]).not.toBe('');
      // The partner no longer active keeps its row and every cell; the one that changed is updated in its own row.
      expect(after[7]).toEqual(before[7]);
      expect(Number(after[4][3])).toBe(Number(before[4][3]) + 1);
      expect(after[4].slice(0, 3)).toEqual(before[4].slice(0, 3));
      // The formulas are as the analyst wrote them, and the rows they read hold the same partners.
      expect(s.formulas.get('2,4')).toBe('=C3&" below "&A2');
      expect(emu.workbook.byName('Summary')?.formulas.get('0,0')).toBe('=Partners!C5');
      expect([...s.formulas.keys()]).toEqual(['2,4']);
    } finally {
      await svc.mutate({ reactivate: gone ? [gone] : [], reorder: 'reverse' });
    }
  });

  test('an analyst column named like a field newly added to the import is kept', () => {
    const { emu, id, s } = imported(['id', 'fullName'], 'merge');
    s.set(0, 2, 'region');
    for (let r = 1; r < s.lastRow(); r++) s.set(r, 2, `my note ${r}`);
    expect(saveImport(emu, { id, sheetName: 'Partners', fields: ['id', 'fullName', 'region'], mode: 'merge' })).toBe(
      id,
    );
    expect(runImport(emu, id).pop()?.status).toBe('done');
    const after = sheet(emu, 'Partners');
    expect(after[0]).toEqual(['id', 'fullName', 'region', 'region']);
    expect(after.slice(1).every((r) => String(r[2]).startsWith('my note '))).toBe(true);
  });

  test.each(['replace', 'merge'] as const)(
    '%s: each column shows its field as people read it (times, dollars, counts grouped), and keeps no format of another field after the order changes',
    (mode) => {
      const FORMATS: Record<string, string | undefined> = {
        id: undefined,
        updatedAt: 'yyyy-mm-dd hh:mm',
        ticketSize: '$#,##0',
        totalPortfolio: '#,##0',
        fullName: undefined,
      };
      const formats = () => sheet(emu, 'Partners')[0].map((f, c) => [f, s.formats.get(`1,${c}`)]);
      const expected = () => sheet(emu, 'Partners')[0].map((f) => [f, FORMATS[String(f)]]);
      const { emu, id, s } = imported(['id', 'updatedAt', 'ticketSize', 'totalPortfolio'], mode);
      expect(formats()).toEqual(expected());
      const fields = ['id', 'totalPortfolio', 'fullName', 'ticketSize', 'updatedAt'];
      expect(saveImport(emu, { id, sheetName: 'Partners', fields, mode })).toBe(id);
      expect(runImport(emu, id).pop()?.status).toBe('done');
      expect(formats().map(([f, format]) => [f, format === 'General' ? undefined : format])).toEqual(expected());
    },
  );
});

describe('a replace killed at each of its writes', () => {
  /** Sheet and property writes of an execution: the points where Apps Script may end it. */
  const isWrite = (name: string, cost: number) =>
    cost >= COST.sheetWrite || /\.(setProperty|setProperties|deleteProperty)$/.test(name);
  const charge = Execution.prototype.charge;
  /** Runs `body` with every write counted; from the `killAt`-th one on, the execution is out of time. */
  function counting<T>(body: () => T, killAt = Number.POSITIVE_INFINITY): { value: T; writes: number } {
    let writes = 0;
    const spy = jest.spyOn(Execution.prototype, 'charge').mockImplementation(function (
      this: Execution,
      name: string,
      cost = COST.call,
    ) {
      if (isWrite(name, cost) && ++writes >= killAt) this.ledger.timedOut = true;
      return charge.call(this, name, cost);
    });
    try {
      return { value: body(), writes };
    } finally {
      spy.mockRestore();
    }
  }
  /** An import run once; then the service's order is reversed, so the next run writes another table. */
  async function changed() {
    const first = imported(['id', 'fullName', 'firm', 'updatedAt']);
    const old = sheet(first.emu, 'Partners');
    await svc.mutate({ reorder: 'reverse' });
    return { ...first, old };
  }

  test('leaves the old table or the new one, and the next run accepts the sheet and ends with the new one', async () => {
    const counted = await changed();
    let fresh: unknown[][];
    let points: number;
    try {
      const run = counting(() => counted.emu.run('startImport', [counted.id], { kind: 'sidebar' }));
      expect(run.value.error).toBeUndefined();
      points = run.writes;
      fresh = sheet(counted.emu, 'Partners');
    } finally {
      await svc.mutate({ reorder: 'reverse' });
    }
    expect(fresh).not.toEqual(counted.old);
    expect(points).toBeGreaterThan(10);
    for (let point = 1; point <= points; point++) {
      const { emu, id, old } = await changed();
      try {
        const killed = counting(() => emu.run('startImport', [id], { kind: 'sidebar' }), point);
        expect(killed.value.error).toBe('Exceeded maximum execution time');
        expect([old, fresh]).toContainEqual(sheet(emu, 'Partners'));
        expect([point, runImport(emu, id).pop()?.status]).toEqual([point, 'done']);
        expect(sheet(emu, 'Partners')).toEqual(fresh);
      } finally {
        await svc.mutate({ reorder: 'reverse' });
      }
    }
  });
});
