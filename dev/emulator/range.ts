/**
 * Range of the emulated SpreadsheetApp: values with Google's shape checks and error text, typed
 * input as Sheets reads it (formulas from `=` text; numbers, percents, currency, dates and
 * booleans from text, with the number format Sheets picks where the cell has none), formulas,
 * number formats, developer metadata on a whole row or column (refused elsewhere, as Google does)
 * and protections (./records.ts); reads and writes charged to the execution, writes refused in
 * custom functions.
 */
import type { Execution } from './execution';
import { COST } from './execution';
import {
  addMetadata,
  ARBITRARY_RANGE_ERROR,
  EmulatedFinder,
  type EmulatedMetadata,
  type EmulatedProtection,
  metadataOf,
  protect,
  type RecordHost,
} from './records';
import { columnLetters, InputError, interpretInput, type SheetData } from './workbook';

type R = GoogleAppsScript.Spreadsheet.Range;
type Sh = GoogleAppsScript.Spreadsheet.Sheet;
const as = <T>(v: unknown): T => v as T;

/** What a range needs of its sheet (the emulated Sheet has it; a type here keeps the two files apart). */
export interface RangeSheet {
  readonly data: SheetData;
  readonly exec: Execution;
  /** What developer metadata and protections need of the spreadsheet (./records.ts). */
  readonly book: { readonly host: RecordHost };
}

export class EmulatedRange
  implements
    Pick<
      R,
      | 'getValues'
      | 'getValue'
      | 'setValues'
      | 'setValue'
      | 'getFormulas'
      | 'getFormula'
      | 'setFormula'
      | 'setFormulas'
      | 'getRow'
      | 'getColumn'
      | 'getNumRows'
      | 'getNumColumns'
      | 'getLastRow'
      | 'getLastColumn'
      | 'getA1Notation'
      | 'clear'
      | 'clearContent'
      | 'setNumberFormat'
      | 'setNumberFormats'
      | 'getNumberFormats'
      | 'getSheet'
    >
{
  /** `whole`: made from A1 row or column notation ("4:4", "C:C"). */
  constructor(
    private readonly sh: RangeSheet,
    private readonly row: number,
    private readonly col: number,
    private readonly rows: number,
    private readonly cols: number,
    private readonly whole?: 'ROW' | 'COLUMN',
  ) {}

  private get exec(): Execution {
    return this.sh.exec;
  }
  private get data(): SheetData {
    return this.sh.data;
  }
  /*
   * A read or write of many cells is charged its modelled cost (COST: a call and a part a cell), which
   * stands for Google's whole work, typing each written value included; the emulator's own copying and
   * typing of the cells runs uncharged (it was charged on top, as the script's CPU time: about 0.2 s
   * of a 50,230-cell setValues' 0.53 s modelled, a cost Google does not add twice).
   */
  private read(method: string): void {
    this.exec.charge(`Range.${method}`, COST.sheetRead + COST.sheetReadPerCell * this.rows * this.cols);
    this.exec.ledger.sheetReads++;
  }
  private write(method: string, cells = this.rows * this.cols): void {
    this.exec.charge(`Range.${method}`, COST.sheetWrite + COST.sheetWritePerCell * cells);
    if (this.exec.readOnly) this.exec.deny(`Range.${method}`);
    this.exec.ledger.sheetWrites++;
    this.exec.ledger.cellsWritten += cells;
  }
  private grid<T>(cell: (r: number, c: number) => T): T[][] {
    return Array.from({ length: this.rows }, (_, i) =>
      Array.from({ length: this.cols }, (_, j) => cell(this.row - 1 + i, this.col - 1 + j)),
    );
  }
  private out(v: unknown): unknown {
    return Object.prototype.toString.call(v) === '[object Date]' ? this.exec.makeDate((v as Date).getTime()) : v;
  }

  getValues(): unknown[][] {
    this.read('getValues');
    return this.exec.uncharged(() => this.grid((r, c) => this.out(this.data.get(r, c))));
  }
  getValue(): unknown {
    this.read('getValue');
    return this.out(this.data.get(this.row - 1, this.col - 1));
  }
  setValues(values: unknown[][]): R {
    this.write('setValues');
    this.checkShape(values);
    this.exec.uncharged(() => {
      const parsed = values.map((row) => row.map((v) => this.input(v)));
      parsed.forEach((row, i) => row.forEach((p, j) => this.store(this.row - 1 + i, this.col - 1 + j, p)));
    });
    return as<R>(this);
  }
  /** Google's shape checks and wording for a grid written to this range. */
  private checkShape(grid: unknown[][]): void {
    if (!Array.isArray(grid) || grid.length !== this.rows) {
      throw this.exec.makeError(
        `Exception: The number of rows in the data does not match the number of rows in the range. The data has ${Array.isArray(grid) ? grid.length : 0} but the range has ${this.rows}.`,
      );
    }
    grid.forEach((row) => {
      if (!Array.isArray(row) || row.length !== this.cols) {
        throw this.exec.makeError(
          `Exception: The number of columns in the data does not match the number of columns in the range. The data has ${Array.isArray(row) ? row.length : 0} but the range has ${this.cols}.`,
        );
      }
    });
  }
  setValue(value: unknown): R {
    this.write('setValue');
    const p = this.input(value);
    for (let i = 0; i < this.rows; i++)
      for (let j = 0; j < this.cols; j++) this.store(this.row - 1 + i, this.col - 1 + j, p);
    return as<R>(this);
  }
  private store(r: number, c: number, p: ReturnType<typeof interpretInput>): void {
    this.data.set(r, c, p.value, p.formula);
    const key = `${r},${c}`;
    if (p.format && !this.data.formats.has(key)) this.data.formats.set(key, p.format);
  }
  private input(v: unknown): ReturnType<typeof interpretInput> {
    try {
      return interpretInput(v, this.sh.book.host.book.timeZone);
    } catch (e) {
      if (e instanceof InputError) throw this.exec.makeError(e.message);
      throw e;
    }
  }
  getFormulas(): string[][] {
    this.read('getFormulas');
    return this.exec.uncharged(() => this.grid((r, c) => this.data.formulas.get(`${r},${c}`) ?? ''));
  }
  getFormula(): string {
    this.read('getFormula');
    return this.data.formulas.get(`${this.row - 1},${this.col - 1}`) ?? '';
  }
  setFormula(formula: string): R {
    this.write('setFormula');
    const p = this.formulaInput(formula);
    for (let i = 0; i < this.rows; i++)
      for (let j = 0; j < this.cols; j++) this.store(this.row - 1 + i, this.col - 1 + j, p);
    return as<R>(this);
  }
  /**
   * One call for the whole grid, with setValues' shape checks. A cell given '' becomes empty (its
   * value, not only its formula, is gone); text that is not a formula is stored as typed text,
   * as Sheets does, not as a formula.
   */
  setFormulas(formulas: string[][]): R {
    this.write('setFormulas');
    this.checkShape(formulas);
    this.exec.uncharged(() => {
      const parsed = formulas.map((row) => row.map((f) => this.formulaInput(f)));
      parsed.forEach((row, i) => row.forEach((p, j) => this.store(this.row - 1 + i, this.col - 1 + j, p)));
    });
    return as<R>(this);
  }
  private formulaInput(f: unknown): ReturnType<typeof interpretInput> {
    return f === '' || f === null || f === undefined ? { value: '' } : this.input(String(f));
  }
  getRow(): number {
    return this.row;
  }
  getColumn(): number {
    return this.col;
  }
  getNumRows(): number {
    return this.rows;
  }
  getNumColumns(): number {
    return this.cols;
  }
  getLastRow(): number {
    return this.row + this.rows - 1;
  }
  getLastColumn(): number {
    return this.col + this.cols - 1;
  }
  getA1Notation(): string {
    const a = `${columnLetters(this.col)}${this.row}`;
    return this.rows === 1 && this.cols === 1
      ? a
      : `${a}:${columnLetters(this.col + this.cols - 1)}${this.row + this.rows - 1}`;
  }
  clear(): R {
    this.write('clear');
    for (let i = 0; i < this.rows; i++)
      for (let j = 0; j < this.cols; j++) {
        this.data.set(this.row - 1 + i, this.col - 1 + j, '');
        this.data.formats.delete(`${this.row - 1 + i},${this.col - 1 + j}`);
      }
    return as<R>(this);
  }
  clearContent(): R {
    this.write('clearContent');
    for (let i = 0; i < this.rows; i++)
      for (let j = 0; j < this.cols; j++) this.data.set(this.row - 1 + i, this.col - 1 + j, '');
    return as<R>(this);
  }
  setNumberFormat(format: string): R {
    this.write('setNumberFormat', 0);
    for (let i = 0; i < this.rows; i++)
      for (let j = 0; j < this.cols; j++) this.data.formats.set(`${this.row - 1 + i},${this.col - 1 + j}`, format);
    return as<R>(this);
  }
  setNumberFormats(formats: string[][]): R {
    this.write('setNumberFormats', 0);
    formats.forEach((row, i) =>
      row.forEach((f, j) => this.data.formats.set(`${this.row - 1 + i},${this.col - 1 + j}`, f)),
    );
    return as<R>(this);
  }
  getNumberFormats(): string[][] {
    this.read('getNumberFormats');
    return this.grid((r, c) => this.data.formats.get(`${r},${c}`) ?? 'General');
  }
  getSheet(): Sh {
    return as<Sh>(this.sh);
  }
  /** On one whole row or column only; anywhere else Google refuses it. */
  addDeveloperMetadata(key: string, value?: string): R {
    const one = this.whole === 'ROW' ? this.rows === 1 : this.whole === 'COLUMN' && this.cols === 1;
    if (!one) throw this.exec.makeError(ARBITRARY_RANGE_ERROR);
    addMetadata(
      this.sh.book.host,
      this.data.metadata,
      key,
      value,
      this.whole as 'ROW' | 'COLUMN',
      this.whole === 'ROW' ? this.row - 1 : this.col - 1,
    );
    return as<R>(this);
  }
  /** Row and column metadata wholly inside this range. */
  getDeveloperMetadata(): EmulatedMetadata[] {
    return metadataOf(this.sh.book.host, this.data.metadata, this.data, (m) => this.contains(m));
  }
  createDeveloperMetadataFinder(): EmulatedFinder {
    return new EmulatedFinder(() => this.getDeveloperMetadata());
  }
  private contains(m: { type: string; index?: number }): boolean {
    const i = (m.index as number) + 1;
    if (m.type === 'ROW')
      return this.col === 1 && this.cols === this.data.maxCols && i >= this.row && i < this.row + this.rows;
    if (m.type === 'COLUMN')
      return this.row === 1 && this.rows === this.data.maxRows && i >= this.col && i < this.col + this.cols;
    return false;
  }
  protect(): EmulatedProtection {
    return protect(this.sh.book.host, this.data, this.row - 1, this.col - 1, this.rows, this.cols, false);
  }
}
