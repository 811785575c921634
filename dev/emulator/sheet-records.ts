/**
 * A sheet's own developer metadata and whole-sheet protections, as Google documents them for
 * Sheet.addDeveloperMetadata / getDeveloperMetadata and Sheet.protect / getProtections: metadata
 * is a key and an optional value on the sheet (it stays with the sheet when it is renamed, and is
 * deleted with it); a protection covers the whole sheet with a description and may be
 * warning-only (Sheets then asks a person before an edit; a script's edits go through, as the
 * executing user is modelled as an editor of everything). Only the sheet level is modelled.
 */
import type { Execution } from './execution';
import { COST } from './execution';
import type { MetadataData, ProtectionData, SheetData, Workbook } from './workbook';
export const PROTECTION_TYPES = { RANGE: 'RANGE', SHEET: 'SHEET' } as const;

export class EmulatedMetadata {
  constructor(private readonly exec: Execution, private readonly sheet: SheetData, readonly data: MetadataData) {}
  getId(): number {
    return this.data.id;
  }
  getKey(): string {
    this.exec.charge('DeveloperMetadata.getKey', 0);
    return this.data.key;
  }
  getValue(): string | null {
    this.exec.charge('DeveloperMetadata.getValue', 0);
    return this.data.value;
  }
  setValue(value: string): EmulatedMetadata {
    this.exec.charge('DeveloperMetadata.setValue', COST.sheetWrite);
    this.data.value = value;
    return this;
  }
  remove(): void {
    this.exec.charge('DeveloperMetadata.remove', COST.sheetWrite);
    this.sheet.metadata = this.sheet.metadata.filter((m) => m !== this.data);
  }
}

export class EmulatedProtection {
  constructor(private readonly exec: Execution, private readonly sheet: SheetData, readonly data: ProtectionData) {}
  getDescription(): string {
    return this.data.description;
  }
  setDescription(description: string): EmulatedProtection {
    this.exec.charge('Protection.setDescription', COST.sheetWrite);
    this.data.description = String(description);
    return this;
  }
  isWarningOnly(): boolean {
    return this.data.warningOnly;
  }
  setWarningOnly(warningOnly: boolean): EmulatedProtection {
    this.exec.charge('Protection.setWarningOnly', COST.sheetWrite);
    this.data.warningOnly = !!warningOnly;
    return this;
  }
  remove(): void {
    this.exec.charge('Protection.remove', COST.sheetWrite);
    this.sheet.protections = this.sheet.protections.filter((p) => p !== this.data);
  }
}

/** Adds metadata to the sheet (a script's write: refused to custom functions by the caller). */
export function addSheetMetadata(exec: Execution, book: Workbook, sheet: SheetData, key: string, value?: string): void {
  if (typeof key !== 'string' || !key) throw exec.makeError('Exception: Invalid argument: key');
  sheet.metadata.push({ id: book.nextRecordId++, key, value: value === undefined ? null : String(value), type: 'SHEET' });
}

export function sheetMetadata(exec: Execution, sheet: SheetData): EmulatedMetadata[] {
  return sheet.metadata.map((m) => new EmulatedMetadata(exec, sheet, m));
}

/** Protects the whole sheet; a sheet has at most one sheet protection (protect() again returns it). */
export function protectSheet(exec: Execution, book: Workbook, sheet: SheetData): EmulatedProtection {
  let p = sheet.protections.find((x) => x.sheet);
  if (!p) sheet.protections.push((p = { id: book.nextRecordId++, sheet: true, description: '', warningOnly: false }));
  return new EmulatedProtection(exec, sheet, p);
}

export function sheetProtections(exec: Execution, sheet: SheetData, type: unknown): EmulatedProtection[] {
  const want = String(type) === PROTECTION_TYPES.SHEET;
  return sheet.protections.filter((p) => p.sheet === want).map((p) => new EmulatedProtection(exec, sheet, p));
}
