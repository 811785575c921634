/**
 * Merge by id: the new rows of an import laid over the table already in the sheet, by the
 * import's record of its columns. Each column the import wrote carries metadata naming its field
 * (src/gas/sheets.ts), so merge knows its own columns wherever the analyst moved them; every other
 * column is the analyst's and stays where it is, and a field newly added gets a new column at the
 * right, never an analyst's column of the same name. The header row is the one whose cell in the
 * import's id column reads "id" (rows above it, a title for instance, stay as they are); a header
 * the analyst renamed keeps their name (analystHeader), and a blank one, or one moved without its
 * record (exactly another field's name), gets its field's. A sheet
 * with data but no column the import wrote is refused (MergeRefused) until the analyst lets the
 * import own its table. Rows are matched by id, and no row ever moves: a partner still listed
 * takes the new values in its own row, in the import's columns only (an analyst's formula there is
 * kept, not overwritten); a partner no longer in the list, a row without an id and a further row of
 * a repeated id keep their row and every cell; new partners are added below the table's last row,
 * in the import's order. So the analyst's sort stays, and every formula, on this sheet or another,
 * still points at the partner it pointed at, with nothing rewritten. Every difference becomes a
 * change-log entry: new partner, no longer active (or, for a partner still listed that the
 * import's filters now leave out, no longer matches), repeated id (kept), or a field's old and new
 * value.
 */
import { firstOfEachId } from '../api/records';
import { type Cell, isDate } from '../table/cells';

export interface FormulaCell {
  formula: string;
}
export type OutCell = Cell | FormulaCell;

export interface Change {
  id: string;
  change: 'new partner' | 'no longer active' | 'no longer matches' | 'repeated id (kept)' | 'changed';
  field: string;
  before: Cell;
  after: Cell;
}

export interface MergeResult {
  grid: OutCell[][];
  /** The field each column of `grid` holds for the import; undefined for the analyst's columns. */
  columns: Array<string | undefined>;
  changes: Change[];
  /** Rows kept whole: partners no longer listed, rows without an id, further rows of a repeated id. */
  kept: number;
  /**
   * Whether the import wrote cell (r, c) of `grid`: a cell of the header, a listed partner's row or a new partner's,
   * except a header the analyst named their own way (the merge keeps it, and it stays theirs).
   */
  owns: (r: number, c: number) => boolean;
}

export const MAX_CHANGES = 10000;
/** How far down the header row (the one with "id") may be, below a title or notes. */
export const HEADER_SEARCH_ROWS = 10;

/** Merge by id cannot be done without changing analyst data: the run fails and the sheet stays as it is. */
export class MergeRefused extends Error {}

/** A header cell as headers are compared: trimmed, any case. */
export const norm = (h: Cell | undefined): string =>
  String(h ?? '')
    .trim()
    .toLowerCase();
const blank = (row: readonly Cell[] | undefined) => !row || row.every((v) => v === '' || v === undefined || v === null);

export const sameCell = (a: Cell, b: Cell): boolean => {
  const norm = (v: Cell) => (isDate(v) ? `d${v.getTime()}` : typeof v === 'number' ? `n${v}` : `s${String(v)}`);
  return norm(a) === norm(b);
};

/**
 * Whether a header cell of one of the import's columns is one the analyst named their own way, which both modes
 * keep: a formula, or text that is not blank and is not exactly a field's name while that field's own column
 * (`headerOf`, undefined without one) reads otherwise: such a column was moved by cut and paste without its record,
 * and gets its own field's name again. (A header reading its own field's name is that field's column: kept as is.)
 */
export const analystHeader = (
  cell: Cell | undefined,
  formula: string | undefined,
  fields: readonly string[],
  headerOf: (field: string) => Cell | undefined,
): boolean =>
  !!formula || (norm(cell) !== '' && !fields.some((f) => cell === f && headerOf(f) !== undefined && headerOf(f) !== f));

/** `unmatched`: ids in the list that the import's filters leave out; their rows stay as a partner no longer active does. */
export function mergeTables(
  existing: { values: Cell[][]; formulas: string[][]; fields: ReadonlyArray<string | undefined> } | null,
  fields: readonly string[],
  incoming: readonly Cell[][],
  sheetName: string,
  unmatched: ReadonlySet<string> = new Set(),
): MergeResult {
  if (
    !existing ||
    (existing.values.every((row) => blank(row)) && existing.formulas.every((row) => row.every((f) => !f)))
  ) {
    const grid = [[...fields], ...incoming.map((r) => [...r])];
    return { grid, columns: [...fields], changes: [], kept: 0, owns: () => true };
  }
  const idCol = existing.fields.indexOf('id');
  if (idCol < 0) {
    throw new MergeRefused(
      existing.fields.some(Boolean)
        ? `The id column the import wrote in "${sheetName}" is gone, so its rows cannot be matched; nothing was changed. Undo the deletion, or import into another sheet.`
        : `"${sheetName}" holds a table the import did not write; nothing was changed. Let the import own this table (its columns named like fields become the import's), or import into another sheet.`,
    );
  }
  const top = Math.min(HEADER_SEARCH_ROWS, existing.values.length);
  const h = existing.values.slice(0, top).findIndex((row) => norm(row[idCol]) === 'id');
  if (h < 0)
    throw new MergeRefused(
      `Merge by id needs the header "id" on the import's id column of "${sheetName}", in its first ${top} rows; nothing was changed. Name that column "id" again.`,
    );
  const width = Math.max(0, ...existing.values.map((r) => r.length), ...existing.formulas.map((r) => r.length));
  // The import's columns where they are now (a field it no longer writes leaves its column to the analyst), new fields at the right.
  const columns: Array<string | undefined> = Array.from({ length: width }, (_, c) =>
    fields.includes(existing.fields[c] as string) ? existing.fields[c] : undefined,
  );
  for (const f of fields) if (!columns.includes(f)) columns.push(f);
  const colOf = (f: string) => columns.indexOf(f);
  const cellOf = (r: number, c: number): OutCell => {
    const f = existing.formulas[r]?.[c];
    return f ? { formula: f } : (existing.values[r]?.[c] ?? '');
  };
  // Each id's first row below the header: the only rows a listed partner's values go to.
  const firstRow = new Map<string, number>();
  existing.values.forEach((row, r) => {
    const id = String(row[idCol] ?? '');
    if (r > h && id && !firstRow.has(id)) firstRow.set(id, r);
  });
  const idOf = (row: readonly Cell[]) => String(row[fields.indexOf('id')]);
  const listed = new Map(firstOfEachId(incoming, idOf).map((row) => [idOf(row), row] as const));
  const changes: Change[] = [];
  const log = (c: Change) => {
    if (changes.length < MAX_CHANGES) changes.push(c);
  };
  const headerOf = (f: string) => existing.values[h][existing.fields.indexOf(f)];
  const named = (c: number) => analystHeader(existing.values[h][c], existing.formulas[h]?.[c], fields, headerOf);
  // Every row stays where it is: a listed partner's first row takes the new values in the import's columns (an analyst's formula there stays).
  const grid: OutCell[][] = existing.values.map((_, r) => {
    if (r === h) return columns.map((f, c) => (f && !named(c) ? f : cellOf(h, c)));
    const id = String(existing.values[r][idCol] ?? '');
    const row = firstRow.get(id) === r ? listed.get(id) : undefined;
    return columns.map((f, c) => (row && f && !existing.formulas[r]?.[c] ? row[fields.indexOf(f)] : cellOf(r, c)));
  });
  for (const [id, row] of listed) {
    const old = firstRow.get(id);
    if (old === undefined) {
      log({ id, change: 'new partner', field: '', before: '', after: '' });
      // New partners go below the table's last row, in the import's order.
      grid.push(columns.map((f) => (f ? row[fields.indexOf(f)] : '')));
      continue;
    }
    fields.forEach((f, k) => {
      const before = existing.values[old][colOf(f)] ?? '';
      if (colOf(f) < width && !existing.formulas[old]?.[colOf(f)] && !sameCell(before, row[k]))
        log({ id, change: 'changed', field: f, before, after: row[k] });
    });
  }
  let kept = 0;
  existing.values.forEach((old, r) => {
    if (r <= h) return;
    const id = String(old[idCol] ?? '');
    const first = firstRow.get(id) === r;
    if ((first && listed.has(id)) || (!id && blank(old) && !existing.formulas[r]?.some(Boolean))) return;
    // A partner no longer listed, a row without an id, or a further row of a repeated id: kept whole, in its place.
    if (id)
      log({
        id,
        change: !first ? 'repeated id (kept)' : unmatched.has(id) ? 'no longer matches' : 'no longer active',
        field: '',
        before: '',
        after: '',
      });
    kept++;
  });
  const wrote = grid.map((_, r) => {
    const id = String(existing.values[r]?.[idCol] ?? '');
    return r === h || r >= existing.values.length || (firstRow.get(id) === r && listed.has(id));
  });
  const owns = (r: number, c: number) => wrote[r] && (r !== h || grid[h][c] === columns[c]);
  return { grid, columns, changes, kept, owns };
}
