/**
 * What the import owns in a sheet, and what replace and merge by id may write there. The record
 * (src/gas/sheets.ts keeps it): the sheet's tag (the import's id, the record's version), the field
 * each of its columns holds (their metadata), and for each row it owns the partner's id and a short
 * hash of each cell it wrote there. A cell is the import's when it is in one of the import's
 * columns, on the first row of a recorded id below the header row, and hashes as one the import
 * wrote in that row (so a sort, moved columns or columns swapped by cut and paste keep it the
 * import's); every other cell with content is the analyst's, and each can be named, in any number.
 * The header row is the one whose cell in the import's id column reads "id"; its names are the
 * analyst's (headerName, the one header rule of both modes).
 *
 * Replace may rewrite a sheet if and only if it holds no cell of the analyst's: otherwise it changes
 * nothing and names them. Merge by id matches rows by id and never moves one: a partner still
 * listed takes the new values in its own first row, in the import's columns (an analyst's formula
 * there stays); any other row, and every column of the analyst's, keeps every cell; new partners go
 * below the last row, and a field newly added gets a new column at the right. So the analyst's sort
 * stays and every formula still points at the partner it pointed at. A sheet with data but no column
 * the import wrote is refused (MergeRefused) until the analyst lets the import own its table.
 */
import { fnv1a } from '../api/hash';
import { grouped } from '../api/numbers';
import { firstOfEachId } from '../api/records';
import { type Cell, isDate } from '../table/cells';
import type { Offer } from './spec';

/** A cell as the import writes it: a value, or a formula (an analyst's, kept). */
export type OutCell = Cell | { formula: string };
/** The field each column's record names: the import's columns; undefined for the analyst's. */
export type Fields = ReadonlyArray<string | undefined>;

export interface Change {
  id: string;
  change: 'new partner' | 'no longer active' | 'no longer matches' | 'repeated id (kept)' | 'changed';
  field: string;
  before: Cell;
  after: Cell;
}

/** The import's tag on a sheet it wrote. */
export interface SheetTag {
  import: string;
  version: number;
}

/** A sheet as ownership sees it: its cells, the field each column's metadata names, its tag and record rows. */
export interface OwnedTable {
  values: Cell[][];
  formulas: string[][];
  fields: Fields;
  tag: SheetTag | null;
  /** The record's rows (`hash.hash…|id`): the current record's and, after an execution ended mid-write, the pending one's. */
  written: readonly string[];
}

/** What a merge writes, with the change log's entries for it. */
export interface MergeResult {
  grid: OutCell[][];
  /** The field each column of `grid` holds (Fields). */
  columns: Array<string | undefined>;
  changes: Change[];
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
export const isFormula = (c: OutCell | undefined): c is { formula: string } => typeof c === 'object' && 'formula' in c;

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
    return { grid: [[...fields], ...incoming], columns: [...fields], changes: [], owns: (r) => r > 0 };
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
  // A partner no longer listed, or a further row of a repeated id: kept whole, in its place (as a row without an id is).
  const kept = (id: string, r: number) =>
    firstRow.get(id) !== r ? 'repeated id (kept)' : unmatched.has(id) ? 'no longer matches' : 'no longer active';
  for (let r = h + 1; r < values.length; r++) if (idOf(r) && !wrote(r)) log(idOf(r), kept(idOf(r), r));
  return { grid, columns, changes, owns: wrote };
}

/** The version of the record an import keeps; a sheet tagged with another is adopted anew. */
export const RECORD_VERSION = 2;

/** A value's short hash with its field, as Sheets gives the value back (cellKey). */
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
  // A formula never hashes as a value the record names.
  const ours = (r: number, c: number): boolean => {
    const [id, f] = [String(table.values[r][idCol] ?? ''), fieldOf[c]];
    return !!f && first.get(id) === r && wrote.has(`${cellHash(f, grid[r][c] as Cell)}|${id}`);
  };
  return { h, idCol, grid, ours, tagged };
}

/**
 * The analyst lets the import own the table: the columns headed like its fields (on the header row, else the first
 * row) become its own, with the rows below it that have an id; a title above and a row without an id (a TOTAL row)
 * stay the analyst's.
 */
export function adoption(table: OwnedTable, fields: readonly string[]) {
  const headed = (row: readonly Cell[]) => row.some((v) => norm(v) === 'id');
  const h = Math.max(0, table.values.slice(0, HEADER_SEARCH_ROWS).findIndex(headed));
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
      const f = table.fields[c];
      // A header of the import's columns reading its field's name is the replace's to write; one the analyst named is
      // kept on the first row (as a merge keeps it), but for a field it no longer writes.
      const header = r === h && tagged && f && !isFormula(v);
      const kept =
        header && ((h === 0 && importing.fields.includes(f)) || headerName(table.values[h], table.fields, c) === f);
      if (blankCell(v) || (header ? kept : ours(r, c))) return;
      const kind = isFormula(v) ? 0 : f && (r === 0 || !blankCell(row[idCol])) ? 1 : 2;
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

/** The header a replace writes: on the first row, the names the analyst gave there are kept, as a merge keeps them (headerName). */
export function replaceHeader(table: OwnedTable | null, fields: readonly string[]): Cell[] {
  const at = table && tableLayout(table.values, table.fields).h === 0 ? table : null;
  return fields.map((f) => {
    const c = at?.fields.indexOf(f) ?? -1;
    return at && c >= 0 && !at.formulas[0][c] ? headerName(at.values[0], at.fields, c) : f;
  });
}
