/**
 * What the import owns in a sheet, by its record, and whether replace may rewrite the sheet. The
 * record is explicit: the tag on the sheet (the import's id and the record's version) and, for each
 * row the import owns, the partner's id and a short hash of each cell it wrote there (kept beside
 * the sheet by the target port: src/gas/sheets.ts), with the field each of its columns holds (the
 * columns' own metadata). A cell is the import's when it is in one of the import's columns, on
 * the first row of a recorded id below the header row, and hashes as one the import wrote in that
 * row (so a sort, moved columns or columns swapped by cut and paste keep it the import's); every
 * other cell with content is the analyst's, and each can be named, in any number. A tag of another
 * version is no record: its table is adopted anew, as a table the analyst lets the import own.
 * Replace may rewrite a sheet if and only if it holds no cell of the analyst's: otherwise it changes
 * nothing and names them (formulas, then imported cells edited, then cells outside the table). The
 * header row's names in the import's columns are the analyst's to choose (./merge.ts headerName).
 */
import { fnv1a } from '../api/hash';
import { grouped } from '../api/numbers';
import { type Cell, isDate } from '../table/cells';
import { blankCell, HEADER_SEARCH_ROWS, headerName, movedField, norm, type OutCell, tableLayout } from './merge';

/** The version of the record an import keeps; a sheet tagged with another is adopted anew. */
export const RECORD_VERSION = 2;

/** The import's tag on a sheet it wrote. */
export interface SheetTag {
  import: string;
  version: number;
}

/** A sheet as ownership sees it: its cells, the field each column's metadata names, its tag and record rows. */
export interface OwnedTable {
  values: Cell[][];
  formulas: string[][];
  fields: ReadonlyArray<string | undefined>;
  tag: SheetTag | null;
  /** The record's rows (`hash.hash…|id`): the current record's and, after an execution ended mid-write, the pending one's. */
  written: readonly string[];
}

const isFormula = (c: OutCell | undefined): c is { formula: string } =>
  typeof c === 'object' && c !== null && !isDate(c) && 'formula' in c;

/** A cell's short hash with its field, as Sheets gives the cell back: a date to the second, a number to 15 digits. */
const cellHash = (field: string, v: OutCell): string =>
  fnv1a(
    `${field}\u0001` +
      (isFormula(v)
        ? `=${v.formula}`
        : isDate(v)
          ? `d${Math.round(v.getTime() / 1000)}`
          : typeof v === 'number'
            ? `n${Number(v.toPrecision(15))}`
            : `${typeof v}${String(v ?? '')}`),
  ).toString(36);

/** A sheet's cells as one grid, formulas as formula cells. */
export const gridOf = (t: { values: Cell[][]; formulas: string[][] }): OutCell[][] =>
  t.values.map((row, r) => row.map((v, c) => (t.formulas[r]?.[c] ? { formula: t.formulas[r][c] } : v)));

/** The record of `grid`: for each row `owns` names, its id and the hashes of its cells in the import's `columns` that `owns` names. */
export function recordOf(
  grid: readonly OutCell[][],
  columns: ReadonlyArray<string | undefined>,
  owns: (r: number, c: number) => boolean,
): string[] {
  const idCol = columns.indexOf('id');
  const out: string[] = [];
  grid.forEach((row, r) => {
    if (idCol < 0 || blankCell(row[idCol]) || !owns(r, idCol)) return;
    const hashes = row.flatMap((v, c) => {
      const f = columns[c];
      return f && !blankCell(v) && !isFormula(v) && owns(r, c) ? [cellHash(f, v)] : [];
    });
    out.push(`${hashes.join('.')}|${String(row[idCol])}`);
  });
  return out;
}

/**
 * The join of a sheet with `importId`'s record: where its table is, and whether cell (r, c) is one the import wrote
 * as it is now (never, without this import's tag of this version).
 */
export function joined(table: OwnedTable, importId: string) {
  const { h, idCol, first } = tableLayout(table.values, table.fields);
  const rows = new Map<string, Set<string>>();
  const tagged = table.tag?.import === importId && table.tag.version === RECORD_VERSION;
  if (tagged)
    for (const line of table.written) {
      const bar = line.indexOf('|');
      const id = line.slice(bar + 1);
      rows.set(id, new Set([...(rows.get(id) ?? []), ...line.slice(0, bar).split('.')]));
    }
  const grid = gridOf(table);
  // A column's cells are its record's field's, or the field whose cells were moved there by cut and paste.
  const fieldOf = table.fields.map((f, c) => (h >= 0 ? movedField(table.values[h], table.fields, c) : undefined) ?? f);
  const ours = (r: number, c: number): boolean => {
    const id = String(table.values[r]?.[idCol] ?? '');
    const f = fieldOf[c];
    return !!f && first.get(id) === r && !!rows.get(id)?.has(cellHash(f, grid[r][c]));
  };
  return { h, idCol, grid, ours, tagged };
}

/**
 * The analyst lets the import own the table: the columns headed like its fields (on the header row, else the first
 * row) become its own, with the rows below it that have an id; a title above and a row without an id (a TOTAL row)
 * stay the analyst's.
 */
export function adoption(table: OwnedTable, fields: readonly string[]) {
  const found = table.values.findIndex((row, r) => r < HEADER_SEARCH_ROWS && row.some((v) => norm(v) === 'id'));
  const h = Math.max(0, found);
  const header = table.values[h] ?? [];
  const columns = header.map((name, c) =>
    fields.find((f) => norm(f) === norm(name) && header.findIndex((x) => norm(x) === norm(name)) === c),
  );
  return { grid: gridOf(table), columns, owns: (r: number, _c?: number) => r > h };
}

/** A1 name of a 0-based cell. */
export function a1(row: number, col: number): string {
  let letters = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26))
    letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}

/**
 * Every cell of the sheet the import did not write as it is now (see the file's comment), named in order (formulas,
 * imported cells edited, the rest): `what` names the first `limit` ("(C2 (a formula), B3 (edited) and 2 more)"),
 * `all` every one; and whether the sheet carries this import's record. Undefined when replace may rewrite it.
 */
export function replaceDifferences(
  table: OwnedTable | null,
  importing: { id: string; fields: readonly string[] },
  limit = 3,
): { what: string; all: string; tagged: boolean } | undefined {
  if (!table) return undefined;
  const { h, idCol, grid, ours, tagged } = joined(table, importing.id);
  const named: string[][] = [[], [], []];
  grid.forEach((row, r) => {
    row.forEach((v, c) => {
      if (blankCell(v)) return;
      const f = table.fields[c];
      const kind = isFormula(v) ? 0 : f && (r === 0 || r === h || !blankCell(row[idCol])) ? 1 : 2;
      // A header of the import's columns reading its field's name is the replace's to write; one the analyst named is
      // kept on the first row (as a merge keeps it), but for a field it no longer writes.
      const header = r === h && kind === 1 && tagged;
      const kept = h === 0 && importing.fields.includes(f as string);
      if (header ? kept || headerName(table.values[h], table.fields, c) === f : tagged && kind && ours(r, c)) return;
      named[kind].push(a1(r, c) + [' (a formula)', ' (edited)', ''][kind]);
    });
  });
  const all = named.flat();
  if (!all.length) return undefined;
  const tail = all.length > limit ? ` and ${grouped(all.length - limit)} more` : '';
  return { what: `(${all.slice(0, limit).join(', ')}${tail})`, all: all.join(', '), tagged };
}

/** Why replace may not rewrite the sheet (see the file's comment): the message, and every cell it would overwrite. */
export function replaceRefusal(
  table: OwnedTable | null,
  importing: { id: string; fields: readonly string[] },
  sheetName: string,
  limit = 3,
): { message: string; all: string } | undefined {
  const d = replaceDifferences(table, importing, limit);
  if (!d) return undefined;
  const message = d.tagged
    ? `Replace stopped: "${sheetName}" is not as the import left it ${d.what}. Undo those edits, import with merge by id, or choose Replace anyway.`
    : `Replace stopped: "${sheetName}" holds cells the import did not write ${d.what}. Let the import own this table, import into another sheet, or choose Replace anyway.`;
  return { message, all: d.all };
}
