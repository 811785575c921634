/**
 * The history sheet of an import, in Apps Script (src/import/watch.ts decides what goes in it).
 * The sheet is the import's by record: a developer metadata tag on the sheet naming the import,
 * and a warning-only protection of the whole sheet, so Sheets warns whoever edits it. A sheet of
 * that name that is not tagged is never written, unless it is empty (a sheet this import created
 * and was stopped before tagging: nothing in it to lose). Each run's rows are one write, with
 * the run's time in column A on every row: that time is the run's record, so the runs the sheet
 * holds are read back from that column whatever order the analyst sorted the rows in, and a row
 * without one (typed by the analyst) belongs to no run and is never deleted.
 */
import type { HistoryPort } from '../import/ports';
import { type Cell, isDate } from '../table/cells';
import { numberFormatOf } from '../table/formats';
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

/** Each data row's run time (NaN for a row that carries none), top to bottom. */
function rowTimes(sheet: Sheet): number[] {
  const last = sheet.getLastRow();
  if (last < 2) return [];
  return (sheet.getRange(2, 1, last - 1, 1).getValues() as Cell[][]).map(([v]) => timeOf(v));
}

export function historyPort(): HistoryPort {
  return {
    runs: (name, importId) => {
      const sheet = owned(name, importId);
      if (!sheet || sheet.getLastRow() < 1) return { header: [], runs: [] };
      const header = (sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] as Cell[]).map(String);
      const rows = new Map<number, number>();
      for (const at of rowTimes(sheet)) if (!Number.isNaN(at)) rows.set(at, (rows.get(at) ?? 0) + 1);
      return { header, runs: [...rows].map(([at, n]) => ({ at, rows: n })) };
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
    prune: (name, runs) => {
      const sheet = findSheet(name);
      if (!sheet || !runs.length) return;
      const drop = new Set(runs);
      const times = rowTimes(sheet);
      // Sheets refuses to delete every row below the frozen header: keep one blank row.
      const count = times.filter((t) => drop.has(t)).length;
      if (sheet.getMaxRows() <= count + 1) sheet.insertRowsAfter(sheet.getMaxRows(), 1);
      // Bottom up, one call per block of adjacent rows, so the rows above keep their places.
      for (let end = times.length - 1; end >= 0; end--) {
        if (!drop.has(times[end])) continue;
        let start = end;
        while (start > 0 && drop.has(times[start - 1])) start--;
        sheet.deleteRows(start + 2, end - start + 1);
        end = start;
      }
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
      // The run's time, then each field's own format (dates, money, counts), as the import's sheet shows them.
      header.forEach((field, c) => {
        const format = c === 0 ? TIME_FORMAT : numberFormatOf(field);
        if (format) sheet.getRange(at, c + 1, rows.length, 1).setNumberFormat(format);
      });
    },
  };
}
