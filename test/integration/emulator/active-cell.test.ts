/**
 * A custom function sees its calling cell, as in Sheets: with `RunOptions.activeCell`,
 * SpreadsheetApp.getActiveRange(), getCurrentCell(), getActiveSheet() and the active
 * spreadsheet's getActiveRange() return that cell on its sheet; the function may read any other
 * cell but still write none. Without `activeCell` nothing changes (the active sheet; no range).
 */
import { probe } from '../../helpers/probe';

const SCRIPT = `
function where() {
  var r = SpreadsheetApp.getActiveRange();
  return [r.getSheet().getName(), r.getA1Notation(), r.getRow(), r.getColumn(), r.getNumRows(), r.getNumColumns(),
    SpreadsheetApp.getCurrentCell().getA1Notation(), SpreadsheetApp.getActiveSheet().getName(),
    SpreadsheetApp.getActiveSpreadsheet().getActiveRange().getA1Notation(), SpreadsheetApp.getActiveSpreadsheet().getActiveSheet().getName()];
}
function neighbours() {
  var r = SpreadsheetApp.getActiveRange();
  return r.getSheet().getRange(r.getRow() - 1, 1, 3, 1).getValues().map(function (x) { return x[0]; });
}
function writeSelf() { SpreadsheetApp.getActiveRange().setValue('x'); return 'wrote'; }
function activeSheetName() { return SpreadsheetApp.getActiveSheet().getName(); }
function activeRange() { return SpreadsheetApp.getActiveRange().getA1Notation(); }
`;

function emulator() {
  const emu = probe(SCRIPT);
  const data = emu.workbook.addSheet('Data');
  for (let r = 0; r < 6; r++) data.set(r, 0, `lp_${r}`);
  return emu;
}

test('getActiveRange, getCurrentCell and getActiveSheet return the calling cell and its sheet', () => {
  const emu = emulator();
  for (const [row, col, a1] of [
    [3, 2, 'B3'],
    [5, 28, 'AB5'],
  ] as const) {
    const run = emu.run('where', [], { kind: 'custom-function', activeCell: { sheet: 'Data', row, col } });
    expect(run.error).toBeUndefined();
    expect(run.value).toEqual(['Data', a1, row, col, 1, 1, a1, 'Data', a1, 'Data']);
  }
});

test('the calling cell can read its neighbours on its own sheet', () => {
  const emu = emulator();
  const run = emu.run('neighbours', [], { kind: 'custom-function', activeCell: { sheet: 'Data', row: 3, col: 2 } });
  expect(run.value).toEqual(['lp_1', 'lp_2', 'lp_3']);
});

test('writing to the calling cell is still denied', () => {
  const emu = emulator();
  const run = emu.run('writeSelf', [], { kind: 'custom-function', activeCell: { sheet: 'Data', row: 3, col: 2 } });
  expect(run.error).toBe('Exception: You do not have permission to call Range.setValue');
  expect(emu.workbook.byName('Data')?.get(2, 1)).toBe('');
});

test('without activeCell: the active sheet as before, and no active range is modelled', () => {
  const emu = emulator();
  expect(emu.run('activeSheetName', [], { kind: 'custom-function' }).value).toBe('Sheet1');
  expect(emu.run('activeRange', [], { kind: 'custom-function' }).error).toMatch(
    /^not emulated: Spreadsheet\.getActiveRange/,
  );
});

test('an activeCell on a sheet the workbook lacks fails loudly', () => {
  const emu = emulator();
  expect(emu.run('where', [], { kind: 'custom-function', activeCell: { sheet: 'Nope', row: 1, col: 1 } }).error).toBe(
    'activeCell names no sheet of the workbook: Nope',
  );
});
