/**
 * What an import in replace mode may erase. Replace rewrites the table it wrote before; it must
 * never erase what the analyst added beside, below or in it (a formula typed right of the data, a
 * notes column, a source line under the table). The import's own cells are those it last wrote:
 * the columns from A whose header still names the field it wrote there, down to the rows it wrote
 * (the run keeps both, `RunState.wrote`). A table written before runs kept that is taken as the
 * spec's fields from A down to the first row without an id. Anything else that is not blank, and
 * any formula anywhere (replace writes none), is the analyst's: the run is refused with the places
 * named and the sheet untouched, and merge by id, which keeps such columns with their partners,
 * is suggested.
 */
import type { Cell } from '../table/cells';
import type { Written } from './run-state';

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

/**
 * The analyst's cells that replacing `existing` would erase: how many, and the first `limit`
 * named (formulas first, then in reading order). `own` is what the import last wrote; without
 * its row count, the rows down to the first one without an id.
 */
export function analystCells(existing: TableRead | null, own: { fields: readonly string[]; rows?: number }, limit = 3): { places: string[]; count: number } {
  if (!existing) return { places: [], count: 0 };
  const header = existing.values[0] ?? [];
  // A column is the import's where its header still names the field the import wrote there.
  const ownCol = own.fields.map((f, c) => norm(header[c]) === norm(f));
  let lastRow = own.rows ?? 0;
  if (own.rows === undefined) {
    const idCol = own.fields.findIndex((f) => norm(f) === 'id');
    if (idCol >= 0 && ownCol[idCol]) while (lastRow + 1 < existing.values.length && filled(existing.values[lastRow + 1]?.[idCol])) lastRow++;
  }
  const formulas: string[] = [];
  const values: string[] = [];
  let count = 0;
  existing.values.forEach((row, r) => {
    const width = Math.max(row.length, existing.formulas[r]?.length ?? 0);
    for (let c = 0; c < width; c++) {
      const formula = existing.formulas[r]?.[c] ?? '';
      const ours = r <= lastRow && ownCol[c] === true;
      if (formula !== '') {
        count++;
        if (formulas.length < limit) formulas.push(`${a1(r, c)} (a formula)`);
      } else if (filled(row[c]) && !ours) {
        count++;
        if (values.length < limit) values.push(a1(r, c));
      }
    }
  });
  return { places: [...formulas, ...values].slice(0, limit), count };
}

/** Why replacing the sheet's table is refused, or undefined when it erases nothing of the analyst's. */
export function replaceRefusal(existing: TableRead | null, own: { fields: readonly string[]; rows?: number } | Written, sheetName: string): string | undefined {
  const { places, count } = analystCells(existing, own);
  if (!count) return undefined;
  const more = count > places.length ? ` and ${count - places.length} more` : '';
  return `Replace would erase ${count === 1 ? 'a cell' : `${count} cells`} of "${sheetName}" that the import did not write (${places.join(', ')}${more}). Import with merge by id to keep your columns beside their partners, import into another sheet, or move those cells.`;
}
