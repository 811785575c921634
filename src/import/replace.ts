/**
 * What an import in replace mode may erase. Replace rewrites the table it wrote before; it must
 * never erase what the analyst added beside or below it (a formula typed right of the data, a
 * notes column, a total row). The import's own cells are those of its header row's field columns
 * (any field of the service's records, so a table written with other columns still counts) down
 * to the last row with an id. Anything else that is not blank, and any formula anywhere (replace
 * writes none), is the analyst's: the run is refused with the places named and the sheet
 * untouched, and merge by id, which keeps such columns with their partners, is suggested.
 */
import type { Cell } from '../table/cells';

export interface TableRead {
  values: Cell[][];
  formulas: string[][];
}

const norm = (h: unknown) => String(h ?? '').trim().toLowerCase();
const filled = (v: Cell | undefined) => v !== '' && v !== undefined && v !== null;

/** A1 name of a 0-based cell. */
export function a1(row: number, col: number): string {
  let letters = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}

/** The analyst's cells that replacing `existing` would erase (at most `limit` named, formulas first, then in reading order), and how many there are. */
export function analystCells(existing: TableRead | null, fields: readonly string[], limit = 3): { places: string[]; count: number } {
  const formulas: string[] = [];
  const values: string[] = [];
  if (!existing) return { places: [], count: 0 };
  const known = new Set(fields.map(norm));
  const header = existing.values[0] ?? [];
  const idCol = header.findIndex((h) => norm(h) === 'id');
  let lastRow = 0;
  if (idCol >= 0) for (let r = existing.values.length - 1; r > 0 && !lastRow; r--) if (filled(existing.values[r]?.[idCol])) lastRow = r;
  existing.values.forEach((row, r) => {
    const width = Math.max(row.length, existing.formulas[r]?.length ?? 0);
    for (let c = 0; c < width; c++) {
      const formula = existing.formulas[r]?.[c] ?? '';
      const ours = idCol >= 0 && known.has(norm(header[c])) && r <= lastRow;
      if (formula !== '') formulas.push(`${a1(r, c)} (a formula)`);
      else if (filled(row[c]) && !ours) values.push(a1(r, c));
    }
  });
  return { places: [...formulas, ...values].slice(0, limit), count: formulas.length + values.length };
}

/** Why replacing the sheet's table is refused, or undefined when it erases nothing of the analyst's. */
export function replaceRefusal(existing: TableRead | null, fields: readonly string[], sheetName: string): string | undefined {
  const { places, count } = analystCells(existing, fields);
  if (!count) return undefined;
  const more = count > places.length ? ` and ${count - places.length} more` : '';
  return `Replace would erase ${count === 1 ? 'a cell' : `${count} cells`} of "${sheetName}" that the import did not write (${places.join(', ')}${more}). Import with merge by id to keep your columns beside their partners, import into another sheet, or move those cells.`;
}
