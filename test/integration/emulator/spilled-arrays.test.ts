/**
 * The emulator models an array formula's spilled result as Sheets shows it: the values over the
 * cells below and to the right of its anchor, `getFormulas` '' there, and a value written into one
 * of those cells blocking the array (its anchor shows #REF!, the rest of its result goes), even
 * when it is the value the cell showed; clearing such a cell, or writing the same formula to the
 * anchor, keeps it.
 */
import { probe } from '../../helpers/probe';

const PROBES = `
function sheet() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
function write(a1, values) { sheet().getRange(a1).setValues(values); }
function setFormula(a1, f) { sheet().getRange(a1).setFormula(f); }
function read(a1) { var r = sheet().getRange(a1); return { values: r.getValues(), formulas: r.getFormulas() }; }
`;

function spilled() {
  const emu = probe(PROBES);
  const s = emu.workbook.sheets[0];
  // =ARRAYFORMULA(B1:B3*2) in A1, spilling down to A3.
  s.spill(0, 0, '=ARRAYFORMULA(B1:B3*2)', [[2], [4], [6]]);
  const run = (name: string, args: unknown[]) => {
    const r = emu.run(name, args);
    if (r.error) throw new Error(r.error);
    return r.value;
  };
  return { emu, run, read: () => run('read', ['A1:A3']) as { values: unknown[][]; formulas: string[][] } };
}

test('the spilled values read as values, with a formula in the anchor only', () => {
  expect(spilled().read()).toEqual({ values: [[2], [4], [6]], formulas: [['=ARRAYFORMULA(B1:B3*2)'], [''], ['']] });
});

test('the value a spilled cell shows, written back into it, blocks the array', () => {
  const { run, read } = spilled();
  run('write', ['A2:A2', [[4]]]);
  expect(read()).toEqual({ values: [['#REF!'], [4], ['']], formulas: [['=ARRAYFORMULA(B1:B3*2)'], [''], ['']] });
});

test('clearing a spilled cell, or writing the same formula to the anchor, keeps the array', () => {
  const { run, read } = spilled();
  run('write', ['A3:A3', [['']]]);
  run('setFormula', ['A1', '=ARRAYFORMULA(B1:B3*2)']);
  expect(read().formulas[0][0]).toBe('=ARRAYFORMULA(B1:B3*2)');
  expect(read().values[0][0]).not.toBe('#REF!');
});

test('a cell beside the array is written as any other', () => {
  const { run, emu } = spilled();
  run('write', ['B2:B2', [[9]]]);
  expect(emu.workbook.sheets[0].get(0, 0)).toBe(2);
});
