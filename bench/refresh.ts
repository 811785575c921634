/**
 * "Refresh all formulas" benchmarks at 1k / 10k / 50k formula cells (=LP_GET filled down column B
 * beside ids in column A), each beside two baselines in the same run: the naive one (the add-in's
 * previous code: every formula cleared, then every one rewritten, one setFormula call per cell
 * each time) and the fair one (what a careful user scripts without us: one getFormulas, one
 * setFormulas of blanks, a flush and one setFormulas back per sheet, over the formula column
 * only). Each row says how many formulas were missing when the execution ended.
 * No service is needed: a refresh writes formulas; Sheets recalculates them afterwards.
 */
import { Emulator } from '../dev/emulator/runtime';
import type { SheetData } from '../dev/emulator/workbook';
import { modelled } from './clock';
import { type Figure, figure } from './formulas';

const NAIVE = `
function naive() {
  var book = SpreadsheetApp.getActiveSpreadsheet();
  var found = [];
  book.getSheets().forEach(function (sheet) {
    var formulas = sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getFormulas();
    formulas.forEach(function (row, r) { row.forEach(function (f, c) { if (/LP_GET\\(/i.test(f)) found.push({ range: sheet.getRange(r + 1, c + 1), f: f }); }); });
  });
  found.forEach(function (x) { x.range.setFormula(''); });
  SpreadsheetApp.flush();
  found.forEach(function (x) { x.range.setFormula(x.f); });
  return found.length;
}
function fair() {
  var n = 0;
  SpreadsheetApp.getActiveSpreadsheet().getSheets().forEach(function (sheet) {
    var range = sheet.getRange(1, 2, sheet.getLastRow(), 1);
    var formulas = range.getFormulas();
    range.setFormulas(formulas.map(function (row) { return row.map(function () { return ''; }); }));
    SpreadsheetApp.flush();
    range.setFormulas(formulas);
    n += formulas.length;
  });
  return n;
}`;

export interface RefreshFigure extends Figure {
  formulas: number;
  setFormulaCalls: number;
  timedOut: boolean;
  /** Formulas missing from the sheet when the execution ended (erased and not written back). */
  lost: number;
}

function fillSheet(sheet: SheetData, n: number): void {
  sheet.maxRows = n + 1;
  for (let r = 1; r <= n; r++) {
    sheet.set(r, 0, `lp_${r}`);
    sheet.set(r, 1, '', `=LP_GET(A${r + 1}, "firm")`);
  }
}

function measure(
  name: string,
  n: number,
  run: (emu: Emulator) => ReturnType<Emulator['run']>,
  code?: string,
): RefreshFigure {
  const emu = new Emulator(modelled(code === undefined ? {} : { code }));
  const sheet = emu.workbook.sheets[0];
  fillSheet(sheet, n);
  const t = performance.now();
  const result = run(emu);
  const wall = performance.now() - t;
  const calls = result.ledger.calls;
  return {
    ...figure(name, wall, [result.ledger], result.error),
    formulas: n,
    setFormulaCalls: (calls['Range.setFormula'] ?? 0) + (calls['Range.setFormulas'] ?? 0),
    timedOut: result.ledger.timedOut,
    lost: n - sheet.formulas.size,
  };
}

export function benchRefresh(sizes: number[]): RefreshFigure[] {
  const rows: RefreshFigure[] = [];
  for (const n of sizes) {
    rows.push(measure(`refresh all, ${n} formulas`, n, (emu) => emu.run('refreshAllFormulas', [], { kind: 'menu' })));
    rows.push(
      measure(`naive: one cell at a time (${n} formulas)`, n, (emu) => emu.run('naive', [], { kind: 'menu' }), NAIVE),
    );
    rows.push(
      measure(
        `fair: one setFormulas pair per sheet (${n} formulas)`,
        n,
        (emu) => emu.run('fair', [], { kind: 'menu' }),
        NAIVE,
      ),
    );
  }
  return rows;
}
