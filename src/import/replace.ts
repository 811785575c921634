/**
 * What an import in replace mode may erase. Replace rewrites the table it wrote before; it must
 * never erase what the analyst added beside, below or in it (a formula typed right of the data, a
 * notes column, a line under the table, rows typed without an id). The import's own cells are:
 * - columns within the width of a field list it wrote in this sheet whose header names one of
 *   those fields (a column headed "email" that it never wrote is the analyst's, even once
 *   "email" is added to the import); without such a record, the fields it writes now;
 * - the header row, and rows with an id in its id column, down to the most rows it wrote in this
 *   sheet (the runs keep that, `RunState.wrote` / `writing`); for a table from before they did,
 *   down to the first row without an id.
 * Anything else that is not blank, and any formula anywhere (replace writes none), is the
 * analyst's: the run is refused with the places named and the sheet untouched, and merge by id,
 * which keeps such columns with their partners, is suggested.
 */
import { LP_FIELDS } from '../api/records';
import type { Cell } from '../table/cells';
import { norm } from './merge';
import type { SheetContents } from './ports';

/**
 * What the import may own in one sheet: the tables it wrote there (its runs keep them); without
 * any such record (a table from before they did), the fields it writes now.
 */
export interface Ownership {
  fields: readonly string[];
  wrote?: ReadonlyArray<{ fields: readonly string[]; rows: number }>;
}

const filled = (v: Cell | undefined) => v !== '' && v !== undefined && v !== null;
const FIELD_NAMES = new Set(LP_FIELDS.map(norm));

/** A1 name of a 0-based cell. */
export function a1(row: number, col: number): string {
  let letters = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}

/** The region an import owns in a sheet (see the file's comment). */
function ownRegion(existing: SheetContents, own: Ownership): { col: (c: number) => boolean; row: (r: number) => boolean } {
  const wrote = own.wrote ?? [];
  // A field the import writes now but never wrote here does not make an analyst's column of that name its own.
  const lists = wrote.length ? wrote.map((w) => w.fields) : [own.fields];
  const names = new Set(lists.flat().map(norm));
  const cols = Math.max(...lists.map((f) => f.length));
  const header = existing.values[0] ?? [];
  const col = (c: number) => c < cols && names.has(norm(header[c]));
  let idCol = -1;
  for (let c = 0; c < cols && idCol < 0; c++) if (col(c) && norm(header[c]) === 'id') idCol = c;
  const hasId = (r: number) => idCol >= 0 && filled(existing.values[r]?.[idCol]);
  let last = 0;
  if (wrote.length) last = Math.max(...wrote.map((w) => w.rows));
  else while (last + 1 < existing.values.length && hasId(last + 1)) last++;
  return { col, row: (r) => r === 0 || (r <= last && hasId(r)) };
}

/**
 * The analyst's cells that replacing `existing` would erase: how many, the first `limit` named
 * (formulas first, then in reading order), and the headers of such columns that name a field
 * (likely a column an earlier import wrote).
 */
export function analystCells(existing: SheetContents | null, own: Ownership, limit = 3): { places: string[]; count: number; fieldColumns: string[] } {
  if (!existing) return { places: [], count: 0, fieldColumns: [] };
  const region = ownRegion(existing, own);
  const formulas: string[] = [];
  const values: string[] = [];
  const fieldColumns: string[] = [];
  let count = 0;
  existing.values.forEach((row, r) => {
    const width = Math.max(row.length, existing.formulas[r]?.length ?? 0);
    for (let c = 0; c < width; c++) {
      const formula = existing.formulas[r]?.[c] ?? '';
      if (formula !== '') {
        count++;
        if (formulas.length < limit) formulas.push(`${a1(r, c)} (a formula)`);
      } else if (filled(row[c]) && !(region.row(r) && region.col(c))) {
        count++;
        if (values.length < limit) values.push(a1(r, c));
        if (r === 0 && !own.wrote?.length && FIELD_NAMES.has(norm(row[c])) && fieldColumns.length < limit) fieldColumns.push(String(row[c]));
      }
    }
  });
  return { places: [...formulas, ...values].slice(0, limit), count, fieldColumns };
}

/** Why replacing the sheet's table is refused, or undefined when it erases nothing of the analyst's. */
export function replaceRefusal(existing: SheetContents | null, own: Ownership, sheetName: string): string | undefined {
  const { places, count, fieldColumns } = analystCells(existing, own);
  if (!count) return undefined;
  const more = count > places.length ? ` and ${count - places.length} more` : '';
  const earlier = fieldColumns.length
    ? ` If ${fieldColumns.map((h) => `"${h}"`).join(', ')} ${fieldColumns.length === 1 ? 'is a column' : 'are columns'} an earlier import wrote, delete ${fieldColumns.length === 1 ? 'it' : 'them'}.`
    : '';
  return `Replace would erase ${count === 1 ? 'a cell' : `${count} cells`} of "${sheetName}" that the import did not write (${places.join(', ')}${more}). Import with merge by id to keep your columns beside their partners, import into another sheet, or move those cells.${earlier}`;
}
