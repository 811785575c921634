/**
 * Merge by id: the new rows of an import laid over the table already in the sheet, by the
 * import's record of its columns. Each column the import wrote carries metadata naming its field
 * (src/gas/sheets.ts), so merge knows its own columns wherever the analyst moved them; every other
 * column is the analyst's and stays where it is, and a field newly added gets a new column at the
 * right, never an analyst's column of the same name. The header row is the one whose cell in the
 * import's id column reads "id" (rows above it, a title for instance, stay as they are). A sheet
 * with data but no column the import wrote is refused (MergeRefused) until the analyst lets the
 * import own its table. Rows are matched by id: the analyst's cells stay with their partner
 * wherever it moves, formulas included (references to the formula's own row follow it, see
 * moveRow); partners no longer in the list, rows without an id and further rows of a repeated id
 * keep every cell, formulas included, below the active ones; an analyst's formula in an imported
 * column is kept, not overwritten. Every difference becomes a change-log entry: new partner, no
 * longer active (or, for a partner still listed that the import's filters now leave out, no longer
 * matches), repeated id (kept), or a field's old and new value.
 */
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
  kept: number;
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

/** Strings, references (sheet-qualified or not, one cell or a range), and any other word of a formula. */
const TOKEN =
  /"(?:[^"]|"")*"|((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)(?![\w(!])|[\w.$]+/g;

/**
 * A formula moved from row `from` to row `to` (1-based) of the sheet `sheetName`: references to
 * its own row on that sheet (a cell, or a range within that row) follow it, unless the row is
 * absolute; string literals, other sheets' references and references to other rows stay as written.
 */
export function moveRow(formula: string, from: number, to: number, sheetName: string): string {
  if (from === to) return formula;
  return formula.replace(TOKEN, (token, sheet: string | undefined, ref: string | undefined) => {
    if (
      !ref ||
      (sheet &&
        sheet
          .slice(0, -1)
          .replace(/^'([\s\S]*)'$/, '$1')
          .replace(/''/g, "'") !== sheetName)
    )
      return token;
    const ends = ref.split(':').map((end) => /^(\$?[A-Za-z]+)(\$?)(\d+)$/.exec(end) as RegExpExecArray);
    if (!ends.every((m) => m[2] === '' && Number(m[3]) === from)) return token;
    return (sheet ?? '') + ends.map((m) => `${m[1]}${to}`).join(':');
  });
}

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
    return { grid: [[...fields], ...incoming.map((r) => [...r])], columns: [...fields], changes: [], kept: 0 };
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
  const cellOf = (r: number, c: number, to = r): OutCell => {
    const f = existing.formulas[r]?.[c];
    return f ? { formula: moveRow(f, r + 1, to + 1, sheetName) } : (existing.values[r]?.[c] ?? '');
  };
  const grid: OutCell[][] = existing.values.slice(0, h).map((_, r) => columns.map((_, c) => cellOf(r, c)));
  grid.push(columns.map((f, c) => f ?? cellOf(h, c)));
  const oldRows = new Map<string, number>();
  existing.values.forEach((row, r) => {
    const id = String(row[idCol] ?? '');
    if (r > h && id && !oldRows.has(id)) oldRows.set(id, r);
  });
  const changes: Change[] = [];
  const log = (c: Change) => {
    if (changes.length < MAX_CHANGES) changes.push(c);
  };
  const seen = new Set<string>();
  for (const row of incoming) {
    const id = String(row[fields.indexOf('id')]);
    if (seen.has(id)) continue;
    seen.add(id);
    const old = oldRows.get(id);
    if (old === undefined) log({ id, change: 'new partner', field: '', before: '', after: '' });
    else {
      fields.forEach((f, k) => {
        const before = existing.values[old][colOf(f)] ?? '';
        if (colOf(f) < width && !existing.formulas[old]?.[colOf(f)] && !sameCell(before, row[k]))
          log({ id, change: 'changed', field: f, before, after: row[k] });
      });
    }
    const to = grid.length;
    grid.push(
      columns.map((f, c) =>
        old !== undefined && (!f || existing.formulas[old]?.[c]) ? cellOf(old, c, to) : f ? row[fields.indexOf(f)] : '',
      ),
    );
  }
  let kept = 0;
  existing.values.forEach((old, r) => {
    if (r <= h) return;
    const id = String(old[idCol] ?? '');
    const first = id !== '' && oldRows.get(id) === r;
    if ((first && seen.has(id)) || (!id && blank(old) && !existing.formulas[r]?.some(Boolean))) return;
    // A partner no longer listed, a row without an id, or a further row of a repeated id: kept whole, never dropped.
    if (id)
      log({
        id,
        change: !first ? 'repeated id (kept)' : unmatched.has(id) ? 'no longer matches' : 'no longer active',
        field: '',
        before: '',
        after: '',
      });
    kept++;
    const to = grid.length;
    grid.push(columns.map((_, c) => cellOf(r, c, to)));
  });
  return { grid, columns, changes, kept };
}
