/**
 * Merge by id: the new rows of an import laid over the table already in the sheet. The header
 * row is found by meaning: the first of the top rows with a cell reading "id" in any case (rows
 * above it, a title for instance, stay as they are); a sheet with data but no such row is refused
 * (MergeRefused), never silently replaced. Rows are matched by id; the analyst's own columns
 * (any column whose header is not an imported field) stay with their partner wherever it moves,
 * formulas included (same-row references follow the row); partners no longer in the list keep
 * their rows, below the active ones, and so does every further row of a repeated id. Every
 * difference becomes a change-log entry: new partner, no longer active (or, for a partner still
 * listed that the import's filters now leave out, no longer matches), repeated id (kept), or a
 * field's old and new value.
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
  changes: Change[];
  kept: number;
}

export const MAX_CHANGES = 10000;
/** How far down the header row (the one with "id") may be, below a title or notes. */
export const HEADER_SEARCH_ROWS = 10;

/** Merge by id cannot be done without changing analyst data: the run fails and the sheet stays as it is. */
export class MergeRefused extends Error {}

/** A header cell as headers are compared: trimmed, any case. */
export const norm = (h: Cell | undefined): string => String(h ?? '').trim().toLowerCase();
const blank = (row: readonly Cell[] | undefined) => !row || row.every((v) => v === '' || v === undefined || v === null);

export const sameCell = (a: Cell, b: Cell): boolean => {
  const norm = (v: Cell) => (isDate(v) ? `d${v.getTime()}` : typeof v === 'number' ? `n${v}` : `s${String(v)}`);
  return norm(a) === norm(b);
};

/** Moves same-row, non-absolute references of a formula from row `from` to row `to` (1-based). */
export function repointFormula(formula: string, from: number, to: number): string {
  if (from === to) return formula;
  return formula.replace(/(^|[^A-Za-z0-9_$])(\$?[A-Z]{1,3})(\d+)(?![\d(])/g, (m, pre: string, col: string, row: string) => (Number(row) === from ? `${pre}${col}${to}` : m));
}

/** `unmatched`: ids in the list that the import's filters leave out; their rows stay as a partner no longer active does. */
export function mergeTables(existing: { values: Cell[][]; formulas: string[][] } | null, fields: readonly string[], incoming: readonly Cell[][], unmatched: ReadonlySet<string> = new Set()): MergeResult {
  const newIdCol = fields.indexOf('id');
  if (!existing || existing.values.every((row) => blank(row))) {
    return { grid: [[...fields], ...incoming.map((r) => [...r])], changes: [], kept: 0 };
  }
  const top = Math.min(HEADER_SEARCH_ROWS, existing.values.length);
  const h = existing.values.slice(0, top).findIndex((row) => row.some((c) => norm(c) === 'id'));
  if (h < 0) {
    throw new MergeRefused(`Merge by id needs an "id" column, and none of the first ${top} rows of the sheet has a cell reading "id"; nothing was changed. Name the id column "id", or import with replace into another sheet.`);
  }
  const header = existing.values[h].map((c) => String(c ?? ''));
  const oldIdCol = header.findIndex((c) => norm(c) === 'id');
  const colOf = new Map<string, number>();
  header.forEach((c, i) => {
    if (!colOf.has(norm(c))) colOf.set(norm(c), i);
  });
  const isField = (c: string) => fields.some((f) => norm(f) === norm(c));
  const analystCols = header.map((c, i) => ({ h: c, i })).filter(({ h: c, i }) => !isField(c) && (c !== '' || existing.values.some((r, k) => k > h && r[i] !== '' && r[i] !== undefined)));
  const cellOf = (r: number, c: number): OutCell => {
    const f = existing.formulas[r]?.[c];
    return f ? { formula: f } : (existing.values[r][c] ?? '');
  };
  // Rows above the header (a title, notes) stay exactly as they were, formulas included.
  const width = Math.max(...existing.values.slice(0, h).map((r) => r.length), 0);
  const grid: OutCell[][] = existing.values.slice(0, h).map((row, r) => Array.from({ length: Math.max(width, row.length) }, (_, c) => cellOf(r, c)));
  const oldRows = new Map<string, number>();
  existing.values.forEach((row, r) => {
    const id = String(row[oldIdCol] ?? '');
    if (r > h && id && !oldRows.has(id)) oldRows.set(id, r);
  });
  const changes: Change[] = [];
  const log = (c: Change) => {
    if (changes.length < MAX_CHANGES) changes.push(c);
  };
  grid.push([...fields, ...analystCols.map((c) => c.h)]);
  const carry = (oldRow: number | undefined, newRow: number): OutCell[] =>
    analystCols.map(({ i }) => {
      if (oldRow === undefined) return '';
      const f = existing.formulas[oldRow]?.[i];
      return f ? { formula: repointFormula(f, oldRow + 1, newRow) } : (existing.values[oldRow][i] ?? '');
    });
  const seen = new Set<string>();
  for (const row of incoming) {
    const id = String(row[newIdCol]);
    if (seen.has(id)) continue;
    seen.add(id);
    const oldRow = oldRows.get(id);
    if (oldRow === undefined) log({ id, change: 'new partner', field: '', before: '', after: '' });
    else {
      fields.forEach((f, k) => {
        const col = colOf.get(norm(f));
        if (col !== undefined && !sameCell(existing.values[oldRow][col] ?? '', row[k])) log({ id, change: 'changed', field: f, before: existing.values[oldRow][col] ?? '', after: row[k] });
      });
    }
    grid.push([...row, ...carry(oldRow, grid.length + 1)]);
  }
  let kept = 0;
  existing.values.forEach((old, r) => {
    if (r <= h) return;
    const id = String(old[oldIdCol] ?? '');
    const first = id !== '' && oldRows.get(id) === r;
    if (first && seen.has(id)) return;
    if (!id && blank(old)) return;
    // A partner no longer listed, a row without an id, or a further row of a repeated id: kept, never dropped.
    if (id && first) log({ id, change: unmatched.has(id) ? 'no longer matches' : 'no longer active', field: '', before: '', after: '' });
    else if (id) log({ id, change: 'repeated id (kept)', field: '', before: '', after: '' });
    kept++;
    grid.push([...fields.map((f) => {
      const col = colOf.get(norm(f));
      return col !== undefined ? (old[col] ?? '') : '';
    }), ...carry(r, grid.length + 1)]);
  });
  return { grid, changes, kept };
}
