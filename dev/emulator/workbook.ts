/**
 * The in-memory workbook behind the emulated SpreadsheetApp: sheets of values, formulas and
 * number formats, grid sizes, frozen rows, plus what the UI showed (menus, sidebar, toasts).
 * It also owns how Sheets reads typed input: a string that begins with `=` is a formula, a leading
 * apostrophe forces text, text Sheets parses (numbers, percents, currency, dates, times, booleans:
 * see typed-text.ts) becomes that value with its number format, other `+`/`-` text is a formula
 * too; more than 50,000 characters in a cell and more than 10,000,000 cells are refused. Developer
 * metadata and protections are kept here too (dev/emulator/records.ts models their API).
 */
import { isDate } from './realm';
import { parseTypedText } from './typed-text';

export type CellValue = string | number | boolean | Date;

export const MAX_CELL_CHARS = 50000;
export const MAX_WORKBOOK_CELLS = 10_000_000;
export const DEFAULT_ROWS = 1000;
export const DEFAULT_COLS = 26;

/** Developer metadata where Google allows it: the spreadsheet, a sheet, one whole row or one whole column (0-based `index`). */
export interface MetadataData {
  id: number;
  key: string;
  value: string | null;
  type: 'SPREADSHEET' | 'SHEET' | 'ROW' | 'COLUMN';
  index?: number;
}
/** A protected range (0-based, `rows`/`cols` cells) or, with `sheet`, the whole sheet. */
export interface ProtectionData {
  id: number;
  sheet: boolean;
  r: number;
  c: number;
  rows: number;
  cols: number;
  description: string;
  warningOnly: boolean;
}

/**
 * An array formula's result spilled from its anchor cell over `rows` x `cols` cells (0-based):
 * Sheets shows the values there, `getFormulas` gives '' for every cell but the anchor, and a
 * value written into any of the other cells blocks the array: the anchor shows #REF! ("Array
 * result was not expanded because it would overwrite data") and the rest of its result goes.
 */
export interface SpilledArray {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

export class SheetData {
  values: CellValue[][] = [];
  /** The array formulas whose results spill over other cells (see SpilledArray). */
  arrays: SpilledArray[] = [];
  metadata: MetadataData[] = [];
  protections: ProtectionData[] = [];
  formulas = new Map<string, string>();
  formats = new Map<string, string>();
  frozenRows = 0;
  hidden = false;
  /** When set, every cell written is added as "r,c" (the workbench evaluates the formulas a script wrote). */
  written: Set<string> | undefined;
  constructor(
    public id: number,
    public name: string,
    public maxRows = DEFAULT_ROWS,
    public maxCols = DEFAULT_COLS,
  ) {}

  get(r: number, c: number): CellValue {
    return this.values[r]?.[c] ?? '';
  }

  /**
   * Puts an array formula at (r, c), 0-based, with the result Sheets would spill from it: `values[0][0]`
   * in the anchor, the rest over the cells to its right and below.
   */
  spill(r: number, c: number, formula: string, values: CellValue[][]): void {
    values.forEach((row, i) =>
      row.forEach((v, j) => this.set(r + i, c + j, v, i === 0 && j === 0 ? formula : undefined)),
    );
    this.arrays.push({ row: r, col: c, rows: values.length, cols: Math.max(...values.map((row) => row.length)) });
  }

  /** A write of `value` at (r, c): an array whose result covers that cell is blocked (or, at its anchor, replaced). */
  private block(r: number, c: number, value: CellValue, formula?: string): void {
    const hit = this.arrays.findIndex((a) => r >= a.row && r < a.row + a.rows && c >= a.col && c < a.col + a.cols);
    if (hit < 0) return;
    const a = this.arrays[hit];
    const anchor = r === a.row && c === a.col;
    if (anchor ? formula === this.formulas.get(`${r},${c}`) : value === '' && !formula) return;
    this.arrays.splice(hit, 1);
    for (let i = 0; i < a.rows; i++)
      for (let j = 0; j < a.cols; j++) if ((i || j) && this.values[a.row + i]) this.values[a.row + i][a.col + j] = '';
    if (!anchor) this.values[a.row][a.col] = '#REF!';
  }

  /** Seeds or writes one cell (0-based); the grid grows to hold it, as a sheet does when data is pasted past its end. */
  set(r: number, c: number, value: CellValue, formula?: string): void {
    if (this.arrays.length) this.block(r, c, value, formula);
    this.maxRows = Math.max(this.maxRows, r + 1);
    this.maxCols = Math.max(this.maxCols, c + 1);
    const row = (this.values[r] ??= []);
    row[c] = value;
    const key = `${r},${c}`;
    this.written?.add(key);
    if (formula) this.formulas.set(key, formula);
    else this.formulas.delete(key);
  }

  /** The last row with a value or a formula (a formula below the last value counts, as in Sheets). */
  lastRow(): number {
    let last = 0;
    for (const key of this.formulas.keys()) last = Math.max(last, Number(key.split(',')[0]) + 1);
    for (let r = this.values.length - 1; r >= last; r--) {
      const row = this.values[r];
      if (row?.some((v) => v !== '' && v !== undefined)) return r + 1;
    }
    return last;
  }

  lastColumn(): number {
    let last = 0;
    for (const row of this.values) {
      if (!row) continue;
      for (let c = row.length - 1; c >= last; c--) {
        if (row[c] !== '' && row[c] !== undefined) {
          last = c + 1;
          break;
        }
      }
    }
    for (const key of this.formulas.keys()) last = Math.max(last, Number(key.split(',')[1]) + 1);
    return last;
  }

  /**
   * Inserts `count` empty rows or columns before 0-based `at`: values, formulas and formats move,
   * and so do developer metadata and protections (the caller shifts those, see records.ts).
   */
  insert(dim: 'ROW' | 'COLUMN', at: number, count: number): void {
    if (dim === 'ROW') {
      if (at < this.values.length) this.values.splice(at, 0, ...Array.from({ length: count }, (): CellValue[] => []));
      this.maxRows += count;
    } else {
      for (const row of this.values)
        if (row && row.length > at) row.splice(at, 0, ...new Array<CellValue>(count).fill(''));
      this.maxCols += count;
    }
    const move = (map: Map<string, string>) =>
      new Map(
        [...map].map(([key, v]): [string, string] => {
          const [r, c] = key.split(',').map(Number);
          return [dim === 'ROW' ? `${r >= at ? r + count : r},${c}` : `${r},${c >= at ? c + count : c}`, v];
        }),
      );
    this.formulas = move(this.formulas);
    this.formats = move(this.formats);
    for (const a of this.arrays) {
      if (dim === 'ROW' && a.row >= at) a.row += count;
      if (dim === 'COLUMN' && a.col >= at) a.col += count;
    }
  }

  clear(): void {
    this.arrays = [];
    this.values = [];
    this.formulas.clear();
    this.formats.clear();
  }
}

export interface MenuItem {
  caption: string;
  functionName?: string;
}

export class Workbook {
  sheets: SheetData[] = [];
  active = 0;
  private nextId = 0;
  /** Metadata on the spreadsheet itself; ids of metadata and protections are unique in the spreadsheet. */
  metadata: MetadataData[] = [];
  nextRecordId = 1;
  toasts: Array<{ message: string; title: string }> = [];
  menus = new Map<string, MenuItem[]>();
  sidebar: { title: string; html: string } | undefined;
  alerts: string[] = [];
  /** The spreadsheet's time zone (File ▸ Settings): the wall clock its dates and times are typed and shown in. */
  timeZone = 'Etc/UTC';

  constructor(
    readonly id = 'emulated-spreadsheet',
    public name = 'Untitled spreadsheet',
  ) {
    this.addSheet('Sheet1');
  }

  cellCount(): number {
    return this.sheets.reduce((n, s) => n + s.maxRows * s.maxCols, 0);
  }

  addSheet(name: string, index = this.sheets.length): SheetData {
    const sheet = new SheetData(this.nextId++, name);
    this.sheets.splice(index, 0, sheet);
    return sheet;
  }

  byName(name: string): SheetData | undefined {
    return this.sheets.find((s) => s.name === name);
  }

  /** JSON for saving (dates as ISO strings tagged with a prefix). */
  toJSON(): unknown {
    return {
      id: this.id,
      name: this.name,
      active: this.active,
      sheets: this.sheets.map((s) => ({
        id: s.id,
        name: s.name,
        maxRows: s.maxRows,
        maxCols: s.maxCols,
        frozenRows: s.frozenRows,
        hidden: s.hidden,
        // Array.from, not map: map keeps the holes of a sparse array (rows above data), which JSON writes as null.
        values: Array.from(s.values, (row) =>
          Array.from(row ?? [], (v) => (isDate(v) ? { $date: v.toISOString() } : (v ?? ''))),
        ),
        formulas: [...s.formulas],
        formats: [...s.formats],
        metadata: s.metadata,
        protections: s.protections,
      })),
      metadata: this.metadata,
      nextRecordId: this.nextRecordId,
      timeZone: this.timeZone,
    };
  }

  static fromJSON(data: unknown): Workbook {
    const d = data as {
      id: string;
      name: string;
      active: number;
      metadata?: MetadataData[];
      nextRecordId?: number;
      timeZone?: string;
      sheets: Array<{
        id: number;
        name: string;
        maxRows: number;
        maxCols: number;
        frozenRows: number;
        hidden: boolean;
        values: unknown[][];
        formulas: Array<[string, string]>;
        formats: Array<[string, string]>;
        metadata?: MetadataData[];
        protections?: ProtectionData[];
      }>;
    };
    const wb = new Workbook(d.id, d.name);
    wb.sheets = d.sheets.map((s) => {
      const sheet = new SheetData(s.id, s.name, s.maxRows, s.maxCols);
      // Files saved before rows were written densely hold null for empty rows and cells.
      sheet.values = (s.values ?? []).map((row) =>
        (row ?? []).map((v) =>
          v === null || v === undefined
            ? ''
            : typeof v === 'object' && '$date' in v
              ? new Date((v as { $date: string }).$date)
              : (v as CellValue),
        ),
      );
      sheet.formulas = new Map(s.formulas ?? []);
      sheet.formats = new Map(s.formats ?? []);
      sheet.frozenRows = s.frozenRows;
      sheet.hidden = s.hidden;
      sheet.metadata = s.metadata ?? [];
      sheet.protections = s.protections ?? [];
      return sheet;
    });
    wb.nextId = Math.max(0, ...wb.sheets.map((s) => s.id)) + 1;
    wb.active = Math.min(d.active ?? 0, wb.sheets.length - 1);
    wb.metadata = d.metadata ?? [];
    wb.nextRecordId = d.nextRecordId ?? 1;
    wb.timeZone = d.timeZone ?? 'Etc/UTC';
    return wb;
  }
}

export class InputError extends Error {}

/** What Sheets stores for a value written with setValue(s), as if it had been typed (and the number format it picks). */
export function interpretInput(
  input: unknown,
  timeZone = 'Etc/UTC',
): { value: CellValue; formula?: string; format?: string } {
  if (input === null || input === undefined) return { value: '' };
  if (isDate(input)) return { value: new Date((input as Date).getTime()) };
  if (typeof input === 'number' || typeof input === 'boolean') return { value: input };
  const text = String(input);
  if (text.length > MAX_CELL_CHARS)
    throw new InputError(
      `Exception: Your input contains more than the maximum of ${MAX_CELL_CHARS} characters in a single cell.`,
    );
  if (text.startsWith("'")) return { value: text.slice(1) };
  if (text.startsWith('=') && text.length > 1) return { value: '', formula: text };
  const typed = parseTypedText(text, new Date(), timeZone);
  if (typed) return typed;
  if (/^[+-]/.test(text)) return { value: '#ERROR!', formula: `=${text}` };
  return { value: text };
}

/** "B3" → [row, col] (1-based); column letters → index. */
export function parseA1(a1: string): { sheet?: string; r1: number; c1: number; r2: number; c2: number } {
  const m = /^(?:(?:'((?:[^']|'')+)'|([^!]+))!)?\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/i.exec(a1.trim());
  if (!m) throw new InputError(`Exception: Range not found`);
  const col = (letters: string) => [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  const r1 = Number(m[4]);
  const c1 = col(m[3]);
  return { sheet: m[1]?.replace(/''/g, "'") ?? m[2], r1, c1, r2: m[6] ? Number(m[6]) : r1, c2: m[5] ? col(m[5]) : c1 };
}

export function columnLetters(col: number): string {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
