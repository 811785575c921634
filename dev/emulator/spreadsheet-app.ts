/**
 * SpreadsheetApp over the in-memory workbook: spreadsheets, sheets, ranges (A1 and row/column
 * forms), values with Google's shape checks and error text, formulas, number formats, frozen
 * rows, developer metadata and protections (./records.ts), toasts and the UI (menus, sidebar).
 * Custom functions may read but not write; the UI is refused where Google refuses it (custom
 * functions, time-driven triggers).
 */
import type { Execution } from './execution';
import { COST } from './execution';
import { EmulatedRange } from './range';
import {
  addMetadata,
  EmulatedFinder,
  type EmulatedMetadata,
  type EmulatedProtection,
  LOCATION_TYPES,
  metadataOf,
  PROTECTION_TYPES,
  protect,
  protectionsOf,
  type RecordHost,
  shiftRecords,
} from './records';
import { EmulatedUi } from './ui';
import { MAX_WORKBOOK_CELLS, parseA1, type SheetData, type Workbook } from './workbook';

type S = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sh = GoogleAppsScript.Spreadsheet.Sheet;
type R = GoogleAppsScript.Spreadsheet.Range;
const as = <T>(v: unknown): T => v as T;

export class EmulatedSheet
  implements
    Pick<
      Sh,
      | 'getName'
      | 'setName'
      | 'getSheetId'
      | 'getRange'
      | 'getDataRange'
      | 'getLastRow'
      | 'getLastColumn'
      | 'getMaxRows'
      | 'getMaxColumns'
      | 'insertRowsAfter'
      | 'insertColumnsAfter'
      | 'deleteRows'
      | 'deleteColumns'
      | 'clear'
      | 'clearContents'
      | 'setFrozenRows'
      | 'getFrozenRows'
      | 'hideSheet'
      | 'showSheet'
      | 'isSheetHidden'
      | 'getParent'
      | 'activate'
    >
{
  constructor(
    readonly data: SheetData,
    readonly exec: Execution,
    readonly book: EmulatedSpreadsheet,
  ) {}

  private call(method: string, write = false): void {
    this.exec.charge(`Sheet.${method}`, write ? COST.sheetWrite : COST.call);
    if (write && this.exec.readOnly) this.exec.deny(`Sheet.${method}`);
  }
  getName(): string {
    this.call('getName');
    return this.data.name;
  }
  setName(name: string): Sh {
    this.call('setName', true);
    this.book.checkName(name, this.data);
    this.data.name = name;
    return as<Sh>(this);
  }
  getSheetId(): number {
    return this.data.id;
  }
  getRange(a: string | number, column?: number, numRows = 1, numColumns = 1): R {
    this.call('getRange');
    let row: number;
    let col: number;
    const whole = typeof a === 'string' ? /^\$?([A-Z]+):\$?([A-Z]+)$|^\$?(\d+):\$?(\d+)$/i.exec(a.trim()) : null;
    if (whole) {
      // "C:C" / "4:4": whole columns or rows, the only ranges that take developer metadata.
      const col = (letters: string) => parseA1(`${letters}1`).c1;
      const [from, to] = whole[1] ? [col(whole[1]), col(whole[2])] : [Number(whole[3]), Number(whole[4])];
      if (from < 1 || to < from || (whole[1] ? to > this.data.maxCols : to > this.data.maxRows))
        throw this.exec.makeError('Exception: Range not found');
      return as<R>(
        whole[1]
          ? new EmulatedRange(this, 1, from, this.data.maxRows, to - from + 1, 'COLUMN')
          : new EmulatedRange(this, from, 1, to - from + 1, this.data.maxCols, 'ROW'),
      );
    }
    if (typeof a === 'string') {
      let p: ReturnType<typeof parseA1>;
      try {
        p = parseA1(a);
      } catch {
        throw this.exec.makeError('Exception: Range not found');
      }
      [row, col, numRows, numColumns] = [p.r1, p.c1, p.r2 - p.r1 + 1, p.c2 - p.c1 + 1];
    } else {
      row = a;
      col = column as number;
    }
    for (const [v, what] of [
      [row, 'row'],
      [col, 'column'],
      [numRows, 'number of rows'],
      [numColumns, 'number of columns'],
    ] as const) {
      if (!Number.isInteger(v) || v < 1)
        throw this.exec.makeError(
          `Exception: The starting ${what} of the range is too small.`.replace('starting number of', 'number of'),
        );
    }
    if (row + numRows - 1 > this.data.maxRows || col + numColumns - 1 > this.data.maxCols) {
      throw this.exec.makeError('Exception: The coordinates of the range are outside the dimensions of the sheet.');
    }
    return as<R>(new EmulatedRange(this, row, col, numRows, numColumns));
  }
  getDataRange(): R {
    this.call('getDataRange');
    return as<R>(new EmulatedRange(this, 1, 1, Math.max(1, this.data.lastRow()), Math.max(1, this.data.lastColumn())));
  }
  getLastRow(): number {
    this.call('getLastRow');
    return this.data.lastRow();
  }
  getLastColumn(): number {
    this.call('getLastColumn');
    return this.data.lastColumn();
  }
  getMaxRows(): number {
    this.call('getMaxRows');
    return this.data.maxRows;
  }
  getMaxColumns(): number {
    this.call('getMaxColumns');
    return this.data.maxCols;
  }
  insertRowsAfter(afterPosition: number, howMany: number): Sh {
    this.call('insertRowsAfter', true);
    this.book.checkGrowth(howMany * this.data.maxCols);
    this.data.insert('ROW', afterPosition, howMany);
    shiftRecords(this.data, 'ROW', afterPosition, howMany);
    return as<Sh>(this);
  }
  insertColumnsAfter(afterPosition: number, howMany: number): Sh {
    this.call('insertColumnsAfter', true);
    this.book.checkGrowth(howMany * this.data.maxRows);
    this.data.insert('COLUMN', afterPosition, howMany);
    shiftRecords(this.data, 'COLUMN', afterPosition, howMany);
    return as<Sh>(this);
  }
  deleteRows(rowPosition: number, howMany: number): void {
    this.call('deleteRows', true);
    if (howMany >= this.data.maxRows)
      throw this.exec.makeError("Exception: You can't delete all the rows on the sheet.");
    this.data.values.splice(rowPosition - 1, howMany);
    const moved = new Map<string, string>();
    for (const [key, f] of this.data.formulas) {
      const [r, c] = key.split(',').map(Number);
      if (r < rowPosition - 1) moved.set(key, f);
      else if (r >= rowPosition - 1 + howMany) moved.set(`${r - howMany},${c}`, f);
    }
    this.data.formulas = moved;
    // An array whose anchor goes goes with it; one below moves up (a simplification: Sheets recomputes its size).
    const [from, to] = [rowPosition - 1, rowPosition - 1 + howMany];
    this.data.arrays = this.data.arrays
      .filter((a) => a.row < from || a.row >= to)
      .map((a) => (a.row >= to ? { ...a, row: a.row - howMany } : a));
    this.data.maxRows -= howMany;
    shiftRecords(this.data, 'ROW', rowPosition - 1, -howMany);
  }
  deleteColumns(columnPosition: number, howMany: number): void {
    this.call('deleteColumns', true);
    if (howMany >= this.data.maxCols)
      throw this.exec.makeError("Exception: You can't delete all the columns on the sheet.");
    const [from, to] = [columnPosition - 1, columnPosition - 1 + howMany];
    for (const row of this.data.values) row?.splice(from, howMany);
    const moved = new Map<string, string>();
    for (const [key, f] of this.data.formulas) {
      const [r, c] = key.split(',').map(Number);
      if (c < from) moved.set(key, f);
      else if (c >= to) moved.set(`${r},${c - howMany}`, f);
    }
    this.data.formulas = moved;
    this.data.arrays = this.data.arrays
      .filter((a) => a.col < from || a.col >= to)
      .map((a) => (a.col >= to ? { ...a, col: a.col - howMany } : a));
    this.data.maxCols -= howMany;
    shiftRecords(this.data, 'COLUMN', from, -howMany);
  }
  clear(): Sh {
    this.call('clear', true);
    this.data.clear();
    return as<Sh>(this);
  }
  clearContents(): Sh {
    this.call('clearContents', true);
    this.data.values = [];
    this.data.formulas.clear();
    this.data.arrays = [];
    return as<Sh>(this);
  }
  setFrozenRows(rows: number): void {
    this.call('setFrozenRows', true);
    this.data.frozenRows = rows;
  }
  getFrozenRows(): number {
    this.call('getFrozenRows');
    return this.data.frozenRows;
  }
  hideSheet(): Sh {
    this.call('hideSheet', true);
    if (this.book.data.sheets.filter((s) => !s.hidden).length <= 1)
      throw this.exec.makeError("Exception: You can't hide all the sheets in a document.");
    this.data.hidden = true;
    return as<Sh>(this);
  }
  showSheet(): Sh {
    this.call('showSheet', true);
    this.data.hidden = false;
    return as<Sh>(this);
  }
  isSheetHidden(): boolean {
    this.call('isSheetHidden');
    return this.data.hidden;
  }
  getParent(): S {
    return as<S>(this.book);
  }
  addDeveloperMetadata(key: string, value?: string): Sh {
    addMetadata(this.book.host, this.data.metadata, key, value, 'SHEET');
    return as<Sh>(this);
  }
  /** The sheet's own metadata (not its rows' or columns'), as Sheet.getDeveloperMetadata returns it. */
  getDeveloperMetadata(): EmulatedMetadata[] {
    return metadataOf(this.book.host, this.data.metadata, this.data, (m) => m.type === 'SHEET');
  }
  /** Metadata of the sheet and of its rows and columns. */
  createDeveloperMetadataFinder(): EmulatedFinder {
    return new EmulatedFinder(() => metadataOf(this.book.host, this.data.metadata, this.data));
  }
  protect(): EmulatedProtection {
    return protect(this.book.host, this.data, 0, 0, this.data.maxRows, this.data.maxCols, true);
  }
  getProtections(type: unknown): EmulatedProtection[] {
    return protectionsOf(this.book.host, [this.data], type);
  }
  activate(): Sh {
    this.call('activate');
    this.book.data.active = this.book.data.sheets.indexOf(this.data);
    return as<Sh>(this);
  }
}

export class EmulatedSpreadsheet
  implements
    Pick<
      S,
      | 'getId'
      | 'getName'
      | 'getSheets'
      | 'getSheetByName'
      | 'insertSheet'
      | 'deleteSheet'
      | 'getActiveSheet'
      | 'setActiveSheet'
      | 'getActiveRange'
      | 'getCurrentCell'
      | 'toast'
      | 'getUrl'
      | 'getSpreadsheetTimeZone'
      | 'setSpreadsheetTimeZone'
    >
{
  constructor(
    readonly data: Workbook,
    readonly exec: Execution,
  ) {}

  private sheet(d: SheetData): Sh {
    return as<Sh>(new EmulatedSheet(d, this.exec, this));
  }
  /** What developer metadata and protections need of this spreadsheet. */
  get host(): RecordHost {
    return {
      book: this.data,
      exec: this.exec,
      range: (d, row, col, rows, cols) =>
        as<R>(new EmulatedRange(as<EmulatedSheet>(this.sheet(d)), row, col, rows, cols)),
    };
  }
  addDeveloperMetadata(key: string, value?: string): S {
    addMetadata(this.host, this.data.metadata, key, value, 'SPREADSHEET');
    return as<S>(this);
  }
  getDeveloperMetadata(): EmulatedMetadata[] {
    return metadataOf(this.host, this.data.metadata, undefined);
  }
  /** Every metadata of the spreadsheet: its own, and its sheets', rows' and columns'. */
  createDeveloperMetadataFinder(): EmulatedFinder {
    return new EmulatedFinder(() => [
      ...metadataOf(this.host, this.data.metadata, undefined),
      ...this.data.sheets.flatMap((s) => metadataOf(this.host, s.metadata, s)),
    ]);
  }
  getProtections(type: unknown): EmulatedProtection[] {
    return protectionsOf(this.host, this.data.sheets, type);
  }
  checkName(name: string, self?: SheetData): void {
    if (typeof name !== 'string' || !name.trim()) throw this.exec.makeError('Exception: Invalid argument: name');
    if (this.data.sheets.some((s) => s !== self && s.name.toLowerCase() === name.toLowerCase())) {
      throw this.exec.makeError(
        `Exception: A sheet with the name "${name}" already exists. Please enter another name.`,
      );
    }
  }
  checkGrowth(cells: number): void {
    if (this.data.cellCount() + cells > MAX_WORKBOOK_CELLS) {
      throw this.exec.makeError(
        `Exception: This action would increase the number of cells in the workbook above the limit of ${MAX_WORKBOOK_CELLS} cells.`,
      );
    }
  }
  /** The document's id: the emulator's documentId (ScriptApp.getUserTriggers tells documents by it). */
  getId(): string {
    return this.exec.documentId || this.data.id;
  }
  getName(): string {
    return this.data.name;
  }
  getSpreadsheetTimeZone(): string {
    this.exec.charge('Spreadsheet.getSpreadsheetTimeZone');
    return this.data.timeZone;
  }
  setSpreadsheetTimeZone(timeZone: string): S {
    this.exec.charge('Spreadsheet.setSpreadsheetTimeZone', COST.sheetWrite);
    if (this.exec.readOnly) this.exec.deny('Spreadsheet.setSpreadsheetTimeZone');
    this.data.timeZone = timeZone;
    return as<S>(this);
  }
  getUrl(): string {
    return `https://docs.google.com/spreadsheets/d/${this.data.id}/edit`;
  }
  getSheets(): Sh[] {
    this.exec.charge('Spreadsheet.getSheets');
    return this.data.sheets.map((s) => this.sheet(s));
  }
  getSheetByName(name: string): Sh | null {
    this.exec.charge('Spreadsheet.getSheetByName');
    const s = this.data.byName(name);
    return s ? this.sheet(s) : null;
  }
  insertSheet(nameOrIndex?: string | number | { template?: Sh }, maybeIndex?: number | { template?: Sh }): Sh {
    this.exec.charge('Spreadsheet.insertSheet', COST.sheetWrite);
    if (this.exec.readOnly) this.exec.deny('Spreadsheet.insertSheet');
    let name = typeof nameOrIndex === 'string' ? nameOrIndex : undefined;
    const index =
      typeof nameOrIndex === 'number' ? nameOrIndex : typeof maybeIndex === 'number' ? maybeIndex : undefined;
    if (name === undefined)
      for (let n = this.data.sheets.length + 1; !name; n++) if (!this.data.byName(`Sheet${n}`)) name = `Sheet${n}`;
    this.checkName(name);
    this.checkGrowth(1000 * 26);
    const created = this.data.addSheet(name, index);
    this.data.active = this.data.sheets.indexOf(created);
    return this.sheet(created);
  }
  deleteSheet(sheet: Sh): void {
    this.exec.charge('Spreadsheet.deleteSheet', COST.sheetWrite);
    if (this.exec.readOnly) this.exec.deny('Spreadsheet.deleteSheet');
    const d = (sheet as unknown as EmulatedSheet).data;
    if (this.data.sheets.length <= 1)
      throw this.exec.makeError("Exception: You can't remove all the sheets in a document.");
    const active = this.data.sheets[this.data.active];
    this.data.sheets = this.data.sheets.filter((s) => s !== d);
    this.data.active = Math.max(
      0,
      active === d ? Math.min(this.data.active, this.data.sheets.length - 1) : this.data.sheets.indexOf(active),
    );
  }
  getActiveSheet(): Sh {
    const cell = this.exec.activeCell;
    return this.sheet(cell ? this.callingSheet(cell.sheet) : this.data.sheets[this.data.active]);
  }
  /** A custom function's calling cell (RunOptions.activeCell); no user selection is modelled otherwise. */
  getActiveRange(): R {
    this.exec.charge('Spreadsheet.getActiveRange');
    const cell = this.exec.activeCell;
    if (!cell)
      throw new Error('not emulated: Spreadsheet.getActiveRange without a calling cell (RunOptions.activeCell)');
    return as<R>(new EmulatedRange(as<EmulatedSheet>(this.getActiveSheet()), cell.row, cell.col, 1, 1));
  }
  getCurrentCell(): R {
    return this.getActiveRange();
  }
  private callingSheet(name: string): SheetData {
    const d = this.data.byName(name);
    if (!d) throw new Error(`activeCell names no sheet of the workbook: ${name}`);
    return d;
  }
  setActiveSheet(sheet: Sh): Sh {
    this.data.active = Math.max(0, this.data.sheets.indexOf((sheet as unknown as EmulatedSheet).data));
    return sheet;
  }
  toast(msg: string, title?: string, _timeoutSeconds?: number | null): void {
    this.exec.charge('Spreadsheet.toast');
    this.data.toasts.push({ message: String(msg), title: title ?? '' });
  }
}

export class EmulatedSpreadsheetApp
  implements
    Pick<
      GoogleAppsScript.Spreadsheet.SpreadsheetApp,
      'getActiveSpreadsheet' | 'getActive' | 'getActiveSheet' | 'getActiveRange' | 'getCurrentCell' | 'getUi' | 'flush'
    >
{
  constructor(
    private readonly book: Workbook,
    private readonly exec: Execution,
    private readonly addOnName = 'Investor Data',
  ) {}
  getActiveSpreadsheet(): S {
    this.exec.charge('SpreadsheetApp.getActiveSpreadsheet');
    return as<S>(new EmulatedSpreadsheet(this.book, this.exec));
  }
  getActive(): S {
    return this.getActiveSpreadsheet();
  }
  getActiveSheet(): Sh {
    return this.getActiveSpreadsheet().getActiveSheet();
  }
  getActiveRange(): R {
    return this.getActiveSpreadsheet().getActiveRange() as R;
  }
  getCurrentCell(): R {
    return this.getActiveSpreadsheet().getCurrentCell() as R;
  }
  getUi(): GoogleAppsScript.Base.Ui {
    this.exec.charge('SpreadsheetApp.getUi');
    if (this.exec.kind === 'custom-function' || this.exec.kind === 'trigger')
      throw this.exec.makeError('Exception: Cannot call SpreadsheetApp.getUi() from this context.');
    return as<GoogleAppsScript.Base.Ui>(new EmulatedUi(this.book, this.exec, this.addOnName));
  }
  flush(): void {
    this.exec.charge('SpreadsheetApp.flush', COST.flush);
  }
  readonly DeveloperMetadataLocationType = LOCATION_TYPES;
  readonly ProtectionType = PROTECTION_TYPES;
}
