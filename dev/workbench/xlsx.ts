/** Exports the workbench's workbook to .xlsx with exceljs, values typed, formulas kept with their last result. */
import ExcelJS from 'exceljs';
import type { Workbook } from '../emulator/workbook';

export async function toXlsx(book: Workbook): Promise<Buffer> {
  const out = new ExcelJS.Workbook();
  out.creator = 'Investor Data workbench';
  for (const s of book.sheets) {
    const ws = out.addWorksheet(s.name.slice(0, 31), { state: s.hidden ? 'hidden' : 'visible', views: s.frozenRows ? [{ state: 'frozen', ySplit: s.frozenRows }] : [] });
    const rows = s.lastRow();
    const cols = s.lastColumn();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const value = s.get(r, c);
        const formula = s.formulas.get(`${r},${c}`);
        if (value === '' && !formula) continue;
        const cell = ws.getCell(r + 1, c + 1);
        cell.value = formula ? { formula: formula.slice(1), result: value as string | number | boolean | Date } : value;
        const format = s.formats.get(`${r},${c}`);
        if (format) cell.numFmt = format;
      }
    }
  }
  return Buffer.from(await out.xlsx.writeBuffer());
}
