/**
 * Merge by id: the new rows of an import laid over the table already in the sheet. The import's
 * columns are those whose metadata names a field (src/gas/sheets.ts), wherever the analyst moved
 * them; every other column is the analyst's and stays where it is, and a field newly added gets a
 * new column at the right. The header row is the one whose cell in the import's id column reads
 * "id"; rows above it stay as they are, and its names are the analyst's (headerName). A sheet with
 * data but no column the import wrote is refused (MergeRefused) until the analyst lets the import
 * own its table. Rows are matched by id, and no row ever moves: a partner still listed takes the
 * new values in its own first row, in the import's columns (an analyst's formula there stays); any
 * other row keeps every cell; new partners go below the last row, in the import's order. So the
 * analyst's sort stays and every formula still points at the partner it pointed at. Each
 * difference becomes a change-log entry (Change).
 */
import { firstOfEachId } from '../api/records';
import { type Cell, isDate } from '../table/cells';
import type { Offer } from './spec';

export interface FormulaCell {
  formula: string;
}
export type OutCell = Cell | FormulaCell;
/** The field each column's record names: the import's columns; undefined for the analyst's. */
export type Fields = ReadonlyArray<string | undefined>;

export interface Change {
  id: string;
  change: 'new partner' | 'no longer active' | 'no longer matches' | 'repeated id (kept)' | 'changed';
  field: string;
  before: Cell;
  after: Cell;
}

/** What a merge writes, with the change log's entries for it. */
export interface MergeResult {
  grid: OutCell[][];
  /** The field each column of `grid` holds (Fields). */
  columns: Array<string | undefined>;
  changes: Change[];
  /** Rows kept whole: partners no longer listed, rows without an id, further rows of a repeated id. */
  kept: number;
  /** Whether the import wrote row r of `grid`: a listed partner's row or a new partner's (its cells in the import's columns). */
  owns: (r: number, c?: number) => boolean;
}

export const MAX_CHANGES = 10000;
/** How far down the header row (the one with "id") may be, below a title or notes. */
export const HEADER_SEARCH_ROWS = 10;

/** Merge by id cannot be done without changing analyst data: the run fails and the sheet stays as it is. */
export class MergeRefused extends Error {
  /** The choices the message names (a table the import did not write may be let own). */
  constructor(
    message: string,
    readonly offers: Offer[] = [],
  ) {
    super(message);
  }
}

/** A header cell as headers are compared: trimmed, any case. */
export const norm = (h: Cell | undefined): string => `${h ?? ''}`.trim().toLowerCase();
export const blankCell = (v: OutCell | undefined): boolean => v === '' || v === undefined;
export const isFormula = (c: OutCell | undefined): c is FormulaCell => typeof c === 'object' && 'formula' in c;

/** A value as Sheets gives it back, as values are compared: a date to the second, a number to 15 digits, never its text. */
export const cellKey = (v: Cell): string =>
  isDate(v)
    ? `d${Math.round(v.getTime() / 1000)}`
    : typeof v === 'number'
      ? `n${Number(v.toPrecision(15))}`
      : `${typeof v}${v}`;
export const sameCell = (a: Cell, b: Cell): boolean => cellKey(a) === cellKey(b);

/** A sheet's cells as one grid, formulas as formula cells. */
export const gridOf = (t: { values: Cell[][]; formulas: string[][] }): OutCell[][] =>
  t.values.map((row, r) => row.map((v, c) => (t.formulas[r]?.[c] ? { formula: t.formulas[r][c] } : v)));

/**
 * Where the import's table is in a sheet: its header row `h`, the first of the top rows where one of the import's
 * columns (by `fields`, the columns' records) reads "id" (-1 when none); its id column, the one reading "id" there, the
 * id field's own first (columns swapped by cut and paste move their cells, not their records); and each id's first
 * row below the header: the only row of that partner the import writes.
 */
export function tableLayout(values: ReadonlyArray<readonly Cell[]>, fields: Fields) {
  const own = fields.indexOf('id');
  const isId = (row: readonly Cell[], c: number) => !!fields[c] && norm(row[c]) === 'id';
  const h = values.slice(0, HEADER_SEARCH_ROWS).findIndex((row) => row.some((_, c) => isId(row, c)));
  const idCol = h < 0 || isId(values[h], own) ? own : values[h].findIndex((_, c) => isId(values[h], c));
  const first = new Map<string, number>();
  for (let r = values.length - 1; r > h; r--) {
    const id = String(values[r][idCol] ?? '');
    if (id) first.set(id, r);
  }
  return { h, idCol, first };
}

/**
 * The field whose exact name the header of the import's column `c` reads while that field's own column (by `fields`,
 * the columns' records) reads otherwise, within the row: cut and paste moved that field's cells there without their record.
 */
export function movedField(row: readonly Cell[], fields: Fields, c: number): string | undefined {
  return fields.find((f, k) => row[c] === f && row[k] !== undefined && row[k] !== f);
}

/**
 * The one header rule, both modes': the header of the import's column `c` (its record `fields[c]`) on header row
 * `row`. Its name is the analyst's to choose and is kept; a blank one, or one moved there (movedField), gets the
 * column's own field's name.
 */
export const headerName = (row: readonly Cell[], fields: Fields, c: number): Cell =>
  norm(row[c]) === '' || movedField(row, fields, c) ? (fields[c] as string) : row[c];

/** `unmatched`: ids in the list that the import's filters leave out; their rows stay as a partner no longer active does. */
export function mergeTables(
  existing: { values: Cell[][]; formulas: string[][]; fields: Fields } | null,
  fields: readonly string[],
  incoming: readonly Cell[][],
  sheetName: string,
  unmatched: ReadonlySet<string> = new Set(),
): MergeResult {
  const old = existing ? gridOf(existing) : [];
  if (!existing || old.every((row) => row.every(blankCell)))
    return { grid: [[...fields], ...incoming], columns: [...fields], changes: [], kept: 0, owns: (r) => r > 0 };
  if (!existing.fields.includes('id'))
    throw existing.fields.some(Boolean)
      ? new MergeRefused(
          `The id column the import wrote in "${sheetName}" is gone, so its rows cannot be matched; nothing was changed. Undo the deletion, or import into another sheet.`,
        )
      : new MergeRefused(
          `"${sheetName}" holds a table the import did not write; nothing was changed. Let the import own this table (its columns named like fields become the import's), or import into another sheet.`,
          ['adopt'],
        );
  const values = existing.values;
  const { h, idCol, first: firstRow } = tableLayout(values, existing.fields);
  // Rows are matched by the id column's own record: cells moved from it (a column inserted or pasted) are not its.
  if (h < 0 || idCol !== existing.fields.indexOf('id'))
    throw new MergeRefused(
      `Merge by id needs the header "id" on the import's id column of "${sheetName}", in its first ${Math.min(HEADER_SEARCH_ROWS, values.length)} rows; nothing was changed. Name that column "id" again.`,
    );
  // A loop, not a spread: one argument per row overflows the stack past about 125,000 rows.
  const width = old.reduce((w, r) => Math.max(w, r.length), 0);
  // The import's columns where they are now (a field it no longer writes leaves its column to the analyst), new fields at the right.
  const columns = Array.from({ length: width }, (_, c) => existing.fields[c]).map((f) =>
    fields.includes(f as string) ? f : undefined,
  );
  for (const f of fields) if (!columns.includes(f)) columns.push(f);
  const idOf = (r: number) => String(values[r][idCol] ?? '');
  const idOfRow = (row: readonly Cell[]) => String(row[fields.indexOf('id')]);
  const listed = new Map(firstOfEachId(incoming, idOfRow).map((row) => [idOfRow(row), row] as const));
  const wrote = (r: number) => r >= values.length || (firstRow.get(idOf(r)) === r && listed.has(idOf(r)));
  const changes: Change[] = [];
  const log = (id: string, change: Change['change'], field = '', before: Cell = '', after: Cell = '') => {
    if (changes.length < MAX_CHANGES) changes.push({ id, change, field, before, after });
  };
  // Every row stays where it is: a listed partner's first row takes the new values in the import's columns (an analyst's formula there stays).
  const grid: OutCell[][] = old.map((_, r) =>
    columns.map((f, c) => {
      if (!f || isFormula(old[r][c])) return old[r][c] ?? '';
      if (r === h) return c < width ? headerName(values[h], existing.fields, c) : f;
      return wrote(r) ? (listed.get(idOf(r)) as Cell[])[fields.indexOf(f)] : (old[r][c] ?? '');
    }),
  );
  for (const [id, row] of listed) {
    const at = firstRow.get(id);
    // New partners go below the table's last row, in the import's order.
    if (at === undefined) grid.push(columns.map((f) => (f ? row[fields.indexOf(f)] : '')));
    if (at === undefined) log(id, 'new partner');
    else
      fields.forEach((f, k) => {
        const c = columns.indexOf(f);
        const was = values[at][c] ?? '';
        if (c < width && !isFormula(old[at][c]) && !sameCell(was, row[k])) log(id, 'changed', f, was, row[k]);
      });
  }
  // A partner no longer listed, a row without an id, or a further row of a repeated id: kept whole, in its place.
  const kept = old.filter((row, r) => {
    const id = idOf(r);
    if (r <= h || wrote(r) || (!id && row.every(blankCell))) return false;
    const first = firstRow.get(id) === r;
    if (id) log(id, !first ? 'repeated id (kept)' : unmatched.has(id) ? 'no longer matches' : 'no longer active');
    return true;
  }).length;
  return { grid, columns, changes, kept, owns: wrote };
}
