/**
 * What the import owns in a sheet, by its record, and whether replace may rewrite the sheet. The
 * record: the sheet's tag (the import's id, the record's version), the field each of its columns
 * holds (their metadata), and for each row it owns the partner's id and a short hash of each cell
 * it wrote there (kept by the target port: src/gas/sheets.ts). A cell is the import's when it is in
 * one of the import's columns, on the first row of a recorded id below the header row, and hashes
 * as one the import wrote in that row (so a sort, moved columns or columns swapped by cut and paste
 * keep it the import's); every other cell with content is the analyst's, and each can be named, in
 * any number. Replace may rewrite a sheet if and only if it holds no cell of the analyst's:
 * otherwise it changes nothing and names them. The header's names are the analyst's (headerName).
 */
import { fnv1a } from '../api/hash';
import { grouped } from '../api/numbers';
import type { Cell } from '../table/cells';
import {
  blankCell,
  cellKey,
  type Fields,
  gridOf,
  HEADER_SEARCH_ROWS,
  headerName,
  isFormula,
  movedField,
  norm,
  type OutCell,
  tableLayout,
} from './merge';
import type { OwnedTable } from './ports';
import type { Offer } from './spec';

/** The version of the record an import keeps; a sheet tagged with another is adopted anew. */
export const RECORD_VERSION = 2;

/** A value's short hash with its field, as Sheets gives the value back (./merge.ts cellKey). */
const cellHash = (field: string, v: Cell): string => fnv1a(`${field}\u0001${cellKey(v)}`).toString(36);

/** The record of `grid`: for each row `owns` names, its id and the hashes of its cells in the import's `columns` that `owns` names. */
export function recordOf(
  grid: readonly OutCell[][],
  columns: Fields,
  owns: (r: number, c: number) => boolean,
): string[] {
  const idCol = columns.indexOf('id');
  return grid.flatMap((row, r) => {
    if (blankCell(row[idCol]) || !owns(r, idCol)) return [];
    const hashes = columns.flatMap((f, c) =>
      f && !blankCell(row[c]) && !isFormula(row[c]) && owns(r, c) ? [cellHash(f, row[c])] : [],
    );
    return [`${hashes.join('.')}|${String(row[idCol])}`];
  });
}

/**
 * The join of a sheet with `importId`'s record: where its table is, and whether cell (r, c) is one the import wrote
 * as it is now (never, without this import's tag of this version).
 */
export function joined(table: OwnedTable, importId: string) {
  const { h, idCol, first } = tableLayout(table.values, table.fields);
  // Each cell the record names, as `hash|id`.
  const wrote = new Set<string>();
  const tagged = table.tag?.import === importId && table.tag.version === RECORD_VERSION;
  if (tagged)
    for (const line of table.written)
      for (const hash of line.slice(0, line.indexOf('|')).split('.')) wrote.add(hash + line.slice(line.indexOf('|')));
  const grid = gridOf(table);
  // A column's cells are its record's field's, or the field whose cells were moved there by cut and paste.
  const fieldOf = table.fields.map((f, c) => (h >= 0 ? movedField(table.values[h], table.fields, c) : undefined) ?? f);
  const ours = (r: number, c: number): boolean => {
    const [id, f, v] = [String(table.values[r][idCol] ?? ''), fieldOf[c], grid[r][c]];
    return !!f && !isFormula(v) && first.get(id) === r && wrote.has(`${cellHash(f, v)}|${id}`);
  };
  return { h, idCol, grid, ours, tagged };
}

/**
 * The analyst lets the import own the table: the columns headed like its fields (on the header row, else the first
 * row) become its own, with the rows below it that have an id; a title above and a row without an id (a TOTAL row)
 * stay the analyst's.
 */
export function adoption(table: OwnedTable, fields: readonly string[]) {
  const top = table.values.slice(0, HEADER_SEARCH_ROWS);
  const h = Math.max(
    0,
    top.findIndex((row) => row.some((v) => norm(v) === 'id')),
  );
  const header = table.values[h] ?? [];
  const columns = header.map((name, c) =>
    fields.find((f) => norm(f) === norm(name) && header.findIndex((x) => norm(x) === norm(name)) === c),
  );
  return { grid: gridOf(table), columns, owns: (r: number, _c?: number) => r > h };
}

/** A1 name of a 0-based cell: its column's letters, then its row. */
const letters = (c: number): string =>
  (c < 26 ? '' : letters(Math.floor(c / 26) - 1)) + String.fromCharCode(65 + (c % 26));
export const a1 = (row: number, col: number): string => `${letters(col)}${row + 1}`;

/**
 * Why replace may not rewrite the sheet (see the file's comment), or undefined when it may: every cell of the sheet the
 * import did not write as it is now, in order (formulas, imported cells edited, the rest). `message` names the first
 * `limit` ("(C2 (a formula), B3 (edited) and 2 more)") and `overwrote` says them for Replace anyway; `all` names each.
 */
export function replaceRefusal(
  table: OwnedTable | null,
  importing: { id: string; fields: readonly string[] },
  sheetName: string,
  limit = 3,
): { message: string; overwrote: string; all: string; offers: Offer[] } | undefined {
  if (!table) return undefined;
  const { h, idCol, grid, ours, tagged } = joined(table, importing.id);
  const named: string[][] = [[], [], []];
  grid.forEach((row, r) => {
    row.forEach((v, c) => {
      if (blankCell(v)) return;
      const f = table.fields[c];
      const kind = isFormula(v) ? 0 : f && (r === 0 || !blankCell(row[idCol])) ? 1 : 2;
      // A header of the import's columns reading its field's name is the replace's to write; one the analyst named is
      // kept on the first row (as a merge keeps it), but for a field it no longer writes.
      const header = r === h && kind === 1 && tagged;
      const kept = h === 0 && importing.fields.includes(f as string);
      if (header ? kept || headerName(table.values[h], table.fields, c) === f : kind && ours(r, c)) return;
      named[kind].push(a1(r, c) + [' (a formula)', ' (edited)', ''][kind]);
    });
  });
  const all = named.flat();
  if (!all.length) return undefined;
  const what = `(${all.slice(0, limit).join(', ')}${all.length > limit ? ` and ${grouped(all.length - limit)} more` : ''})`;
  return {
    message: tagged
      ? `Replace stopped: "${sheetName}" is not as the import left it ${what}. Undo those edits, import with merge by id, or choose Replace anyway.`
      : `Replace stopped: "${sheetName}" holds cells the import did not write ${what}. Let the import own this table, import into another sheet, or choose Replace anyway.`,
    overwrote: ` Replaced anyway: overwrote cells ${tagged ? 'not as the import left them' : 'the import did not write'} ${what}.`,
    all: all.join(', '),
    offers: tagged ? ['force'] : ['adopt', 'force'],
  };
}
