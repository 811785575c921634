/**
 * Developer metadata and protections of the emulated SpreadsheetApp, as Google documents them.
 * Metadata lives on the spreadsheet, a sheet, one whole row or one whole column (a row or column
 * range given in A1 row/column notation, "4:4" or "C:C"); on any other range it is refused with
 * Google's words. It moves with its row or column when rows or columns are inserted or deleted, is
 * deleted with its row, column or sheet, stays with a sheet that is renamed, and stays where it is
 * when values are sorted or rewritten (it is attached to the row or column, not to the cells' values).
 * The key and value of all metadata of one location (the spreadsheet; a sheet with its rows and
 * columns) may hold at most MAX_METADATA_CHARS characters. A finder selects by key, value,
 * location type and id. Protections cover a range or a whole sheet with a description; a
 * warning-only one lets every edit through (Sheets asks a person to confirm, never a script), and
 * script edits are never blocked here: the executing user is modelled as an editor of everything.
 */
import type { Execution } from './execution';
import { COST } from './execution';
import type { MetadataData, ProtectionData, SheetData, Workbook } from './workbook';

type R = GoogleAppsScript.Spreadsheet.Range;

export const MAX_METADATA_CHARS = 30_000;
export const ARBITRARY_RANGE_ERROR =
  'Exception: Adding developer metadata to arbitrary ranges is not currently supported. Developer metadata may only be added to the top-level spreadsheet, an individual sheet, or an entire row or column.';
export const LOCATION_TYPES = { SPREADSHEET: 'SPREADSHEET', SHEET: 'SHEET', ROW: 'ROW', COLUMN: 'COLUMN' } as const;
export const PROTECTION_TYPES = { RANGE: 'RANGE', SHEET: 'SHEET' } as const;

/** What the records need of the spreadsheet objects: the workbook, the execution, and ranges of a sheet (1-based). */
export interface RecordHost {
  book: Workbook;
  exec: Execution;
  range(sheet: SheetData, row: number, col: number, rows: number, cols: number): R;
}

const size = (list: readonly MetadataData[]) => list.reduce((n, m) => n + m.key.length + (m.value ?? '').length, 0);

/** Adds metadata to `list` (the spreadsheet's or a sheet's), within the size limit of that location. */
export function addMetadata(
  host: RecordHost,
  list: MetadataData[],
  key: unknown,
  value: unknown,
  type: MetadataData['type'],
  index?: number,
): void {
  host.exec.charge('addDeveloperMetadata', COST.sheetWrite);
  if (host.exec.readOnly) host.exec.deny('addDeveloperMetadata');
  if (typeof key !== 'string' || !key) throw host.exec.makeError('Exception: Invalid argument: key');
  const text = value === undefined || value === null ? null : String(value);
  if (size(list) + key.length + (text ?? '').length > MAX_METADATA_CHARS) {
    throw host.exec.makeError(
      `Exception: The developer metadata of this location would exceed the limit of ${MAX_METADATA_CHARS} characters.`,
    );
  }
  list.push({ id: host.book.nextRecordId++, key, value: text, type, index });
}

export class EmulatedMetadata {
  constructor(
    private readonly host: RecordHost,
    private readonly m: MetadataData,
    private readonly list: MetadataData[],
    private readonly sheet?: SheetData,
  ) {}
  getId(): number {
    return this.m.id;
  }
  getKey(): string {
    return this.m.key;
  }
  getValue(): string | null {
    return this.m.value;
  }
  setValue(value: string): EmulatedMetadata {
    this.host.exec.charge('DeveloperMetadata.setValue', COST.sheetWrite);
    if (this.host.exec.readOnly) this.host.exec.deny('DeveloperMetadata.setValue');
    const others = this.list.filter((m) => m !== this.m);
    if (size(others) + this.m.key.length + String(value).length > MAX_METADATA_CHARS) {
      throw this.host.exec.makeError(
        `Exception: The developer metadata of this location would exceed the limit of ${MAX_METADATA_CHARS} characters.`,
      );
    }
    this.m.value = String(value);
    return this;
  }
  remove(): void {
    this.host.exec.charge('DeveloperMetadata.remove', COST.sheetWrite);
    if (this.host.exec.readOnly) this.host.exec.deny('DeveloperMetadata.remove');
    const at = this.list.indexOf(this.m);
    if (at >= 0) this.list.splice(at, 1);
  }
  getLocation(): unknown {
    const { m, sheet, host } = this;
    const whole = (row: boolean) =>
      sheet && m.type === (row ? 'ROW' : 'COLUMN')
        ? row
          ? host.range(sheet, (m.index as number) + 1, 1, 1, sheet.maxCols)
          : host.range(sheet, 1, (m.index as number) + 1, sheet.maxRows, 1)
        : null;
    return {
      getLocationType: () => m.type,
      getRow: () => whole(true),
      getColumn: () => whole(false),
      getSheet: () => (m.type === 'SHEET' && sheet ? host.range(sheet, 1, 1, 1, 1).getSheet() : null),
    };
  }
}

/** Metadata of one scope, as DeveloperMetadata objects; `within` keeps those a range wholly contains. */
export function metadataOf(
  host: RecordHost,
  list: MetadataData[],
  sheet: SheetData | undefined,
  within: (m: MetadataData) => boolean = () => true,
): EmulatedMetadata[] {
  host.exec.charge('getDeveloperMetadata');
  return list.filter(within).map((m) => new EmulatedMetadata(host, m, list, sheet));
}

export class EmulatedFinder {
  private tests: Array<(m: EmulatedMetadata) => boolean> = [];
  constructor(private readonly all: () => EmulatedMetadata[]) {}
  withKey(key: string): this {
    this.tests.push((m) => m.getKey() === key);
    return this;
  }
  withValue(value: string): this {
    this.tests.push((m) => m.getValue() === value);
    return this;
  }
  withId(id: number): this {
    this.tests.push((m) => m.getId() === id);
    return this;
  }
  withLocationType(type: string): this {
    this.tests.push((m) => (m.getLocation() as { getLocationType(): string }).getLocationType() === type);
    return this;
  }
  find(): EmulatedMetadata[] {
    return this.all().filter((m) => this.tests.every((t) => t(m)));
  }
}

export class EmulatedProtection {
  constructor(
    private readonly host: RecordHost,
    private readonly sheet: SheetData,
    private readonly p: ProtectionData,
  ) {}
  private write(method: string): void {
    this.host.exec.charge(`Protection.${method}`, COST.sheetWrite);
    if (this.host.exec.readOnly) this.host.exec.deny(`Protection.${method}`);
  }
  getDescription(): string {
    return this.p.description;
  }
  setDescription(description: string): this {
    this.write('setDescription');
    this.p.description = String(description);
    return this;
  }
  isWarningOnly(): boolean {
    return this.p.warningOnly;
  }
  setWarningOnly(warningOnly: boolean): this {
    this.write('setWarningOnly');
    this.p.warningOnly = warningOnly === true;
    return this;
  }
  canEdit(): boolean {
    return true;
  }
  getProtectionType(): string {
    return this.p.sheet ? 'SHEET' : 'RANGE';
  }
  getRange(): R {
    const { p, sheet } = this;
    return p.sheet
      ? this.host.range(sheet, 1, 1, sheet.maxRows, sheet.maxCols)
      : this.host.range(sheet, p.r + 1, p.c + 1, p.rows, p.cols);
  }
  remove(): void {
    this.write('remove');
    this.sheet.protections = this.sheet.protections.filter((q) => q !== this.p);
  }
}

/** Protects a range (or, with `whole`, the sheet): a new protection, as Range.protect() and Sheet.protect() make one. */
export function protect(
  host: RecordHost,
  sheet: SheetData,
  r: number,
  c: number,
  rows: number,
  cols: number,
  whole: boolean,
): EmulatedProtection {
  host.exec.charge(whole ? 'Sheet.protect' : 'Range.protect', COST.sheetWrite);
  if (host.exec.readOnly) host.exec.deny(whole ? 'Sheet.protect' : 'Range.protect');
  if (whole && sheet.protections.some((p) => p.sheet))
    throw host.exec.makeError('Exception: The sheet is already protected.');
  const p: ProtectionData = {
    id: host.book.nextRecordId++,
    sheet: whole,
    r,
    c,
    rows,
    cols,
    description: '',
    warningOnly: false,
  };
  sheet.protections.push(p);
  return new EmulatedProtection(host, sheet, p);
}

export function protectionsOf(host: RecordHost, sheets: readonly SheetData[], type: unknown): EmulatedProtection[] {
  host.exec.charge('getProtections');
  const sheet = type === 'SHEET';
  return sheets.flatMap((s) =>
    s.protections.filter((p) => p.sheet === sheet).map((p) => new EmulatedProtection(host, s, p)),
  );
}

/** Rows or columns inserted (`count` > 0) before 0-based `at`, or deleted (`count` < 0) from `at`: the records move, and die with what they were on. */
export function shiftRecords(sheet: SheetData, dim: 'ROW' | 'COLUMN', at: number, count: number): void {
  sheet.metadata = sheet.metadata.filter(
    (m) => m.type !== dim || count > 0 || (m.index as number) < at || (m.index as number) >= at - count,
  );
  for (const m of sheet.metadata)
    if (m.type === dim && (m.index as number) >= at) m.index = (m.index as number) + count;
  for (const p of sheet.protections) {
    if (p.sheet) continue;
    const start = dim === 'ROW' ? 'r' : 'c';
    const len = dim === 'ROW' ? 'rows' : 'cols';
    if (count > 0) {
      if (p[start] >= at) p[start] += count;
      else if (p[start] + p[len] > at) p[len] += count;
    } else {
      const end = p[start] + p[len];
      const cut = Math.max(0, Math.min(end, at - count) - Math.max(p[start], at));
      p[len] -= cut;
      if (p[start] >= at) p[start] = Math.max(at, p[start] + count);
    }
  }
  sheet.protections = sheet.protections.filter((p) => p.sheet || p[dim === 'ROW' ? 'rows' : 'cols'] > 0);
}
