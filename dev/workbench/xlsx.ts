/**
 * Exports the workbench's workbook to .xlsx with exceljs, values typed, formulas kept with their
 * last result. Sheets allows sheet names Excel refuses (`/ \ ? * [ ] :`, a leading or trailing
 * quote, more than 31 characters, `History`, two names equal once cut or compared without case),
 * so every name is mapped to one Excel accepts, distinct from the others, and formulas that name a
 * renamed sheet name it by its new name: the export works whatever the sheets are called. A date
 * keeps its time (one without a date format gets the workbench's `yyyy-mm-dd hh:mm`).
 */
import ExcelJS from 'exceljs';
import { isDate } from '../emulator/realm';
import type { Workbook } from '../emulator/workbook';
import { DEFAULT_DATE } from './display';

const MAX_NAME = 31;

/** Excel-safe, distinct names for the given sheet names, in the same order. */
export function excelSheetNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let base =
      name
        .replace(/[/\\?*[\]:]/g, '-')
        .replace(/^'+|'+$/g, '')
        .trim() || 'Sheet';
    if (base.toLowerCase() === 'history') base = `${base} (sheet)`;
    let candidate = base.slice(0, MAX_NAME).trim();
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      candidate = `${base.slice(0, MAX_NAME - suffix.length).trim()}${suffix}`;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** A sheet's name as a formula writes it: quoted unless it is a plain identifier. */
const reference = (name: string) => (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);

/** The formula with references to renamed sheets (`'Old name'!A1`) pointing at their new names. */
function renameReferences(formula: string, renamed: ReadonlyMap<string, string>): string {
  let out = formula;
  for (const [from, to] of renamed) out = out.split(`${reference(from)}!`).join(`${reference(to)}!`);
  return out;
}

export async function toXlsx(book: Workbook): Promise<Buffer> {
  const out = new ExcelJS.Workbook();
  out.creator = 'Investor Data workbench';
  const names = excelSheetNames(book.sheets.map((s) => s.name));
  const renamed = new Map(book.sheets.map((s, i) => [s.name, names[i]] as const).filter(([from, to]) => from !== to));
  book.sheets.forEach((s, i) => {
    const ws = out.addWorksheet(names[i], {
      state: s.hidden ? 'hidden' : 'visible',
      views: s.frozenRows ? [{ state: 'frozen', ySplit: s.frozenRows }] : [],
    });
    const rows = s.lastRow();
    const cols = s.lastColumn();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const value = s.get(r, c);
        const formula = s.formulas.get(`${r},${c}`);
        if (value === '' && !formula) continue;
        const cell = ws.getCell(r + 1, c + 1);
        cell.value = formula
          ? { formula: renameReferences(formula.slice(1), renamed), result: value as string | number | boolean | Date }
          : value;
        // A date keeps its time: without a date format of its own it gets the one the workbench shows.
        const format = s.formats.get(`${r},${c}`);
        if (format && (!isDate(value) || /[ymdhs]/i.test(format))) cell.numFmt = format;
        else if (isDate(value)) cell.numFmt = DEFAULT_DATE;
      }
    }
  });
  return Buffer.from(await out.xlsx.writeBuffer());
}
