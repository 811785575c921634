/**
 * The history sheet of an import, in Apps Script (src/import/watch.ts decides what goes in it).
 * The sheet is the import's by record: a developer metadata tag on the sheet naming the import,
 * and a warning-only protection of the whole sheet, so Sheets warns whoever edits it. A sheet of
 * that name that is not tagged is never written, unless it is empty (a sheet this import created
 * and was stopped before tagging: nothing in it to lose). Each run's rows are one write, with
 * the run's time in column A, so the runs the sheet holds are read back from that column.
 */
import type { HistoryPort } from '../import/ports';
import { type Cell, isDate } from '../table/cells';
import { book, ensureSideSheet, findSheet, writeBlock } from './sheets';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export const HISTORY_KEY = 'investorData.history';
const PROTECTED = 'Investor Data history of import';
/** The columns Sheets gives a new sheet. */
const NEW_SHEET_COLS = 26;
const TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

function tagOf(sheet: Sheet): string | null {
  const m = sheet.getDeveloperMetadata().find((d) => d.getKey() === HISTORY_KEY);
  return m ? m.getValue() : null;
}

/** The sheet, made this import's when it is untagged and empty; throws when it belongs to someone else. */
function owned(name: string, importId: string): Sheet | null {
  const sheet = findSheet(name);
  if (!sheet) return null;
  const tag = tagOf(sheet);
  if (tag === importId) return sheet;
  if (tag === null && sheet.getLastRow() === 0 && sheet.getLastColumn() === 0) {
    claim(sheet, importId);
    return sheet;
  }
  throw new Error(`The sheet "${name}" is not this import's history; rename or delete it to keep history.`);
}

function claim(sheet: Sheet, importId: string): void {
  sheet.addDeveloperMetadata(HISTORY_KEY, importId);
  sheet.protect().setDescription(`${PROTECTED} ${importId}: each run adds its rows here.`).setWarningOnly(true);
}

/** An import deleted: its history sheet stays, as the analyst's (no tag, no protection). */
export function releaseHistory(name: string): void {
  const sheet = findSheet(name);
  if (!sheet) return;
  for (const m of sheet.getDeveloperMetadata()) if (m.getKey() === HISTORY_KEY) m.remove();
  for (const p of sheet.getProtections(SpreadsheetApp.ProtectionType.SHEET))
    if (p.getDescription().startsWith(PROTECTED)) p.remove();
}

const timeOf = (v: Cell): number => (isDate(v) ? v.getTime() : Number.NaN);

export function historyPort(): HistoryPort {
  return {
    runs: (name, importId) => {
      const sheet = owned(name, importId);
      const last = sheet?.getLastRow() ?? 0;
      if (!sheet || last < 1) return { header: [], runs: [] };
      const header = (sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] as Cell[]).map(String);
      if (last < 2) return { header, runs: [] };
      const runs: Array<{ at: number; rows: number }> = [];
      for (const [v] of sheet.getRange(2, 1, last - 1, 1).getValues() as Cell[][]) {
        const at = timeOf(v);
        const run = runs[runs.length - 1];
        if (run && (run.at === at || (Number.isNaN(at) && Number.isNaN(run.at)))) run.rows++;
        else runs.push({ at, rows: 1 });
      }
      return { header, runs };
    },
    grid: (name) => {
      let others = 0;
      let rows = 0;
      let cols = NEW_SHEET_COLS;
      for (const s of book().getSheets()) {
        if (s.getName().toLowerCase() === name.toLowerCase()) [rows, cols] = [s.getMaxRows(), s.getMaxColumns()];
        else others += s.getMaxRows() * s.getMaxColumns();
      }
      return { others, rows, cols };
    },
    prune: (name, rows) => {
      const sheet = findSheet(name);
      if (!sheet || rows < 1) return;
      // Sheets refuses to delete every row below the frozen header: keep one blank row.
      if (sheet.getMaxRows() <= rows + 1) sheet.insertRowsAfter(sheet.getMaxRows(), 1);
      sheet.deleteRows(2, rows);
    },
    append: (name, importId, header, rows) => {
      let sheet = owned(name, importId);
      if (!sheet) {
        sheet = ensureSideSheet(name, false);
        claim(sheet, importId);
      }
      if (sheet.getLastRow() === 0) {
        writeBlock(sheet, 1, [[...header]]);
        sheet.setFrozenRows(1);
      }
      const at = sheet.getLastRow() + 1;
      writeBlock(sheet, at, rows);
      sheet.getRange(at, 1, rows.length, 1).setNumberFormat(TIME_FORMAT);
    },
  };
}
