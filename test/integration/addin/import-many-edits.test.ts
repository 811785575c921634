/**
 * However many cells the analyst changed, the import's record names each: 200 imported cells
 * edited, 50 notes typed beside the table and the rows sorted. The replace that follows is refused
 * and changes nothing; its message counts the cells and names the first, its run-log row names
 * every one. A merge by id then keeps each note beside its partner. The analyst's edits are made
 * on the emulated sheet directly, as typed in Sheets.
 */
import type { Emulator } from '../../../dev/emulator/runtime';
import type { SheetData } from '../../../dev/emulator/workbook';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { addin } from '../../helpers/addin';
import { runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, servicesForThisFile } from '../../helpers/service';

const services = servicesForThisFile(1, ['--partners', '400', '--max-page-size', '100']);
let svc: RunningService;
beforeAll(() => {
  [svc] = services;
});

const FIELDS = ['id', 'fullName', 'firm'];

function data(emu: Emulator, name: string): SheetData {
  const s = emu.workbook.byName(name);
  if (!s) throw new Error(`no sheet ${name}`);
  return s;
}

/** A1 name of a 0-based cell within the first 26 columns. */
const at = (r: number, c: number) => `${String.fromCharCode(65 + c)}${r + 1}`;

test('200 imported cells edited, 50 notes typed beside the table, the rows sorted: replace names each, merge keeps each note with its partner', () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Partners', fields: FIELDS, mode: 'replace' });
  expect(runImport(a.emu, id).pop()?.status).toBe('done');
  const s = data(a.emu, 'Partners');
  const rows = s.lastRow() - 1;
  expect(rows).toBeGreaterThanOrEqual(100);
  // Two imported cells edited on each of 100 rows, a note typed beside 50 of them.
  for (let r = 1; r <= 100; r++) {
    s.set(r, 1, `${String(s.get(r, 1))} (checked)`);
    s.set(r, 2, `${String(s.get(r, 2))} (fund III)`);
    if (r <= 50) s.set(r, 3, `note:${String(s.get(r, 0))}`);
  }
  // Sorted by name, last first, as Sheets' sort does: the values move, the rows' records stay.
  const sorted = s.values
    .slice(1, s.lastRow())
    .map((row) => Array.from({ length: 4 }, (_, c) => row[c] ?? ''))
    .sort((x, y) => String(y[1]).localeCompare(String(x[1])));
  sorted.forEach((row, r) => row.forEach((v, c) => s.set(r + 1, c, v)));
  const edited: string[] = [];
  const notes: string[] = [];
  sheet(a.emu, 'Partners').forEach((row, r) => {
    if (String(row[1]).endsWith('(checked)')) edited.push(at(r, 1), at(r, 2));
    if (row[3]) notes.push(at(r, 3));
  });
  expect([edited.length, notes.length]).toEqual([200, 50]);

  const before = sheet(a.emu, 'Partners');
  const refused = runImport(a.emu, id).pop();
  expect(refused?.status).toBe('failed');
  expect(refused?.message).toMatch(
    /^Replace stopped: "Partners" is not as the import left it \([A-D]\d+ \(edited\), [A-D]\d+ \(edited\), [A-D]\d+ \(edited\) and 247 more\)\./,
  );
  expect(sheet(a.emu, 'Partners')).toEqual(before);
  const log = sheet(a.emu, 'Investor Data log');
  const message = String(log[log.length - 1][RUN_LOG_HEADER.indexOf('Message')]);
  const named = message.slice(message.indexOf('Every cell: ') + 'Every cell: '.length, -1).split(', ');
  expect(named).toHaveLength(250);
  expect(new Set(named)).toEqual(new Set([...edited.map((c) => `${c} (edited)`), ...notes]));

  expect(saveImport(a.emu, { id, sheetName: 'Partners', fields: FIELDS, mode: 'merge' })).toBe(id);
  expect(runImport(a.emu, id).pop()?.status).toBe('done');
  const merged = sheet(a.emu, 'Partners');
  const kept = merged.filter((row) => row[3]);
  expect(kept).toHaveLength(50);
  for (const row of kept) expect(row[3]).toBe(`note:${String(row[0])}`);
});
