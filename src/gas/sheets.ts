/**
 * Sheet writes and reads for imports and logs, always whole blocks (one setValues per block,
 * never cell by cell). Every text cell goes through the shared cell-safety rule, so nothing the
 * service sends can become a formula; only formulas the analyst wrote are written as formulas.
 * An import's record (src/import/ownership.ts) is the sheet's tag (developer metadata: its import's
 * id, the record's version and which column of the record sheet holds the record, and which the
 * pending one), the field each whole column it writes holds (metadata on the column), and the
 * record's rows, packed many a cell, on a hidden sheet of two columns named by the sheet's id (a
 * metadata value holds at most 30,000 characters a sheet, too few for a row's hashes at scale);
 * its columns are protected warning-only, so Sheets itself warns whoever edits them.
 */
import { numberFormatOf } from '../table/formats';
import { RECORD_VERSION } from '../import/ownership';
import type { OutCell, OwnedTable, SheetTag } from '../import/ports';
import { type Cell, MAX_CELL_CHARS, safeText } from '../table/cells';
import { logLayout } from '../table/log-layout';
import { columnName } from '../table/names';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export function book(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  return SpreadsheetApp.getActiveSpreadsheet();
}

/** Dates' wall-clock time in the spreadsheet's time zone, as yyyy-MM-ddTHH:mm:ss (the zone is read once, when first needed). */
export function sheetWallTime(): (d: Date) => string {
  let zone: string | undefined;
  return (d) => {
    zone ??= book().getSpreadsheetTimeZone();
    return Utilities.formatDate(d, zone, "yyyy-MM-dd'T'HH:mm:ss");
  };
}

export function findSheet(name: string): Sheet | null {
  return book().getSheetByName(name);
}

export function ensureSheet(name: string): Sheet {
  return findSheet(name) ?? book().insertSheet(name);
}

/** A sheet the add-in keeps for itself: created without taking the analyst away from the sheet they are on, hidden if asked. */
export function ensureSideSheet(name: string, hidden: boolean): Sheet {
  const existing = findSheet(name);
  if (existing) return existing;
  const active = book().getActiveSheet();
  const sheet = book().insertSheet(name);
  if (hidden) sheet.hideSheet();
  book().setActiveSheet(active);
  return sheet;
}

export function removeSheet(name: string): void {
  const sheet = findSheet(name);
  if (sheet) book().deleteSheet(sheet);
}

function toSheetCell(cell: OutCell): Cell {
  if (typeof cell === 'object' && cell !== null && 'formula' in cell) return cell.formula;
  return typeof cell === 'string' ? safeText(cell, 'sheet') : cell;
}

function ensureSize(sheet: Sheet, rows: number, cols: number): void {
  const maxRows = sheet.getMaxRows();
  if (rows > maxRows) sheet.insertRowsAfter(maxRows, rows - maxRows);
  const maxCols = sheet.getMaxColumns();
  if (cols > maxCols) sheet.insertColumnsAfter(maxCols, cols - maxCols);
}

/** The longest row's length, by a loop: a spread passes one argument per row, which overflows the stack past about 125,000 rows. */
function widest(grid: readonly (readonly unknown[])[], atLeast = 0): number {
  let width = atLeast;
  for (const r of grid) if (r.length > width) width = r.length;
  return width;
}

/**
 * Writes `rows` rows of columns from..from+width-1 of `grid` at (row, col) in one call, growing the
 * grid first if needed: each cell made safe in the one copy setValues takes, blank past a row's end.
 */
function writeColumns(
  sheet: Sheet,
  row: number,
  col: number,
  grid: readonly (readonly OutCell[] | undefined)[],
  rows: number,
  from: number,
  width: number,
): void {
  ensureSize(sheet, row + rows - 1, col + width - 1);
  const values = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: width }, (_, k) => toSheetCell(grid[r]?.[from + k] ?? '')),
  );
  sheet.getRange(row, col, rows, width).setValues(values);
}

/** Writes a block at (row, col) in one call, growing the grid first if needed. */
export function writeBlock(sheet: Sheet, row: number, grid: readonly OutCell[][], col = 1): void {
  if (grid.length === 0) return;
  writeColumns(sheet, row, col, grid, grid.length, 0, widest(grid));
}

/**
 * Replaces a sheet's table: the new grid, padded with blanks over whatever the old table covered,
 * so there is no moment at which the sheet is cleared but not yet written. One setValues, or one
 * per run of columns between the columns `untouched` names (0-based), which are not written at
 * all: the analyst's, whose cells may be an array formula's result (a value written there, even
 * the one it showed, blocks the array) or an edit made since the table was read.
 */
export function replaceTable(
  sheet: Sheet,
  grid: readonly OutCell[][],
  untouched: (col: number) => boolean = () => false,
): void {
  const rows = Math.max(grid.length, sheet.getLastRow());
  const cols = widest(grid, sheet.getLastColumn());
  for (let c = 0; c < cols; ) {
    if (untouched(c)) {
      c++;
      continue;
    }
    let end = c;
    while (end + 1 < cols && !untouched(end + 1)) end++;
    writeColumns(sheet, 1, c + 1, grid, rows, c, end - c + 1);
    c = end + 1;
  }
  sheet.setFrozenRows(1);
}

const TAG_KEY = 'investorData.import';
const FIELD_KEY = 'investorData.field';
const PROTECTED = 'Written by the Investor Data import';

/** The field metadata of the sheet's columns, with the 0-based column each is on. */
function fieldMetadata(sheet: Sheet): Array<{ m: GoogleAppsScript.Spreadsheet.DeveloperMetadata; col: number }> {
  return sheet
    .createDeveloperMetadataFinder()
    .withKey(FIELD_KEY)
    .find()
    .map((m) => ({ m, col: (m.getLocation().getColumn() as GoogleAppsScript.Spreadsheet.Range).getColumn() - 1 }));
}

/** The tag as kept on a sheet: the record's column on the record sheet (none before the first commit), and the pending one's. */
interface KeptTag extends SheetTag {
  slot?: number;
  pending?: number;
}

const recordName = (sheet: Sheet) => `__record_${sheet.getSheetId()}`;

function keptTag(sheet: Sheet): KeptTag | null {
  const tag = sheet.getDeveloperMetadata().find((m) => m.getKey() === TAG_KEY);
  return tag ? (JSON.parse(tag.getValue() ?? 'null') as KeptTag) : null;
}

/** The rows a cell of the record sheet holds: a JSON list of them; a cell that is not one holds none. */
function rowsIn(cell: Cell | undefined): string[] {
  if (!cell) return [];
  try {
    const rows: unknown = JSON.parse(String(cell));
    return Array.isArray(rows) ? rows.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * A record's rows packed into cells, as many a cell as fit in MAX_CELL_CHARS, each cell a JSON list
 * (an id may hold any character, a line break too): 10,000 rows take a handful of cells, not 10,000.
 */
function packed(rows: readonly string[]): string[] {
  const cells: string[] = [];
  let cell: string[] = [];
  let chars = 2;
  for (const row of rows) {
    const n = JSON.stringify(row).length + 1;
    if (cell.length && chars + n > MAX_CELL_CHARS) {
      cells.push(JSON.stringify(cell));
      [cell, chars] = [[], 2];
    }
    cell.push(row);
    chars += n;
  }
  if (cell.length) cells.push(JSON.stringify(cell));
  return cells;
}

/** The rows of the sheet's record (current and pending) on its record sheet. */
function recordRows(sheet: Sheet, tag: KeptTag | null): string[] {
  const records = findSheet(recordName(sheet));
  const last = records?.getLastRow() ?? 0;
  if (!records || !tag || last === 0) return [];
  const kept = records.getRange(1, 1, last, 2).getValues() as Cell[][];
  return [tag.slot, tag.pending].flatMap((k) => (k === undefined ? [] : kept.flatMap((row) => rowsIn(row[k]))));
}

/**
 * The sheet's cells, the field each column's metadata names, the import's tag and its record's rows (current and
 * pending); its formulas and record read only when asked for (a write's read-back needs neither).
 */
export function readTable(sheet: Sheet): OwnedTable {
  const fields: Array<string | undefined> = [];
  for (const { m, col } of fieldMetadata(sheet)) fields[col] = m.getValue() ?? undefined;
  const tag = keptTag(sheet);
  let written: string[] | undefined;
  let formulas: string[][] | undefined;
  const range = sheet.getLastRow() === 0 ? null : sheet.getDataRange();
  return {
    values: range ? (range.getValues() as Cell[][]) : [],
    get formulas() {
      formulas ??= range ? range.getFormulas() : [];
      return formulas;
    },
    fields,
    tag,
    get written() {
      written ??= recordRows(sheet, tag);
      return written;
    },
  };
}

function writeTag(sheet: Sheet, tag: KeptTag): void {
  const mine = sheet.getDeveloperMetadata().find((m) => m.getKey() === TAG_KEY);
  if (mine) mine.setValue(JSON.stringify(tag));
  else sheet.addDeveloperMetadata(TAG_KEY, JSON.stringify(tag));
}

/** Writes `rows` into column `slot` of the sheet's record sheet (hidden, two columns), packed, over whatever it held. */
function writeRecord(sheet: Sheet, slot: number, rows: readonly string[]): void {
  let records = findSheet(recordName(sheet));
  if (!records) {
    records = ensureSideSheet(recordName(sheet), true);
    records.deleteColumns(3, records.getMaxColumns() - 2);
  }
  const cells = packed(rows);
  const height = Math.max(cells.length, records.getLastRow());
  writeBlock(
    records,
    1,
    Array.from({ length: height }, (_, r) => [cells[r] ?? '']),
    slot + 1,
  );
}

/** Keeps `rows` as the pending record of import `importId` on the sheet, in the record column its current record is not in. */
export function recordPending(sheet: Sheet, importId: string, rows: readonly string[]): void {
  const tag = keptTag(sheet);
  const slot = tag?.import === importId && tag.version === RECORD_VERSION ? tag.slot : undefined;
  const pending = slot === 0 ? 1 : 0;
  writeRecord(sheet, pending, rows);
  writeTag(sheet, { import: importId, version: RECORD_VERSION, slot, pending });
}

/** Makes the pending record the sheet's record, with `rows` in its place when given. */
export function commitRecord(sheet: Sheet, importId: string, rows?: readonly string[]): void {
  const slot = keptTag(sheet)?.pending ?? 0;
  if (rows) writeRecord(sheet, slot, rows);
  writeTag(sheet, { import: importId, version: RECORD_VERSION, slot });
}

/**
 * Writes an import's table: first each column's field metadata (a column only gains a field
 * when it is about to hold it), then the cells in one write, then the formats the fields need
 * (a format the import set for another field is cleared), then the warning-only protection.
 */
export function writeOwned(
  sheet: Sheet,
  grid: readonly OutCell[][],
  columns: ReadonlyArray<string | undefined>,
  importId: string,
): void {
  ensureSize(sheet, grid.length, columns.length);
  const before: Array<string | undefined> = [];
  for (const { m, col } of fieldMetadata(sheet)) {
    before[col] = m.getValue() ?? undefined;
    if (columns[col] !== before[col]) m.remove();
  }
  columns.forEach((f, c) => {
    if (f && f !== before[c]) sheet.getRange(`${columnName(c)}:${columnName(c)}`).addDeveloperMetadata(FIELD_KEY, f);
  });
  // The analyst's columns within the table (no field now, none before) are theirs: never written.
  const width = widest(grid);
  replaceTable(sheet, grid, (c) => c < width && !columns[c] && !before[c]);
  const rows = Math.max(sheet.getLastRow(), grid.length) - 1;
  columns.forEach((f, c) => {
    if (rows > 0 && (numberFormatOf(f) || numberFormatOf(before[c])))
      sheet.getRange(2, c + 1, rows, 1).setNumberFormat(numberFormatOf(f) || 'General');
  });
  unprotect(sheet);
  for (let c = 0; c < columns.length; c++) {
    if (!columns[c] || columns[c - 1]) continue;
    let end = c;
    while (columns[end + 1]) end++;
    sheet
      .getRange(1, c + 1, grid.length, end - c + 1)
      .protect()
      .setDescription(`${PROTECTED} ${importId}: an edit here makes its next replace stop and ask.`)
      .setWarningOnly(true);
  }
}

function unprotect(sheet: Sheet): void {
  for (const p of sheet.getProtections(SpreadsheetApp.ProtectionType.RANGE))
    if (p.getDescription().startsWith(PROTECTED)) p.remove();
}

/** An import deleted: its sheet keeps its cells, which are the analyst's from now on (no tag, record, field metadata or protection). */
export function releaseSheet(sheet: Sheet): void {
  for (const m of sheet.createDeveloperMetadataFinder().find())
    if (m.getKey() === TAG_KEY || m.getKey() === FIELD_KEY) m.remove();
  removeSheet(recordName(sheet));
  unprotect(sheet);
}

/**
 * Appends rows to a log sheet, creating it (with the header) when absent. A sheet whose header row
 * the analyst changed keeps it: each value goes under its own column name (../table/log-layout.ts).
 */
export function appendLog(name: string, header: readonly string[], rows: readonly Cell[][]): void {
  if (rows.length === 0) return;
  const sheet = ensureSideSheet(name, false);
  const last = sheet.getLastRow();
  if (last === 0) {
    writeBlock(sheet, 1, [[...header], ...rows]);
    sheet.setFrozenRows(1);
    return;
  }
  const width = Math.max(1, sheet.getLastColumn());
  const layout = logLayout(sheet.getRange(1, 1, 1, width).getValues()[0], header);
  if (layout.added.length) sheet.getRange(1, width + 1, 1, layout.added.length).setValues([layout.added]);
  writeBlock(
    sheet,
    last + 1,
    rows.map((row) => layout.place(row)),
  );
}
