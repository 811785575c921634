/**
 * Merge by id: the new rows of an import laid over the table already in the sheet. Rows are
 * matched by `id`; the analyst's own columns (any column whose header is not an imported field)
 * stay with their partner wherever it moves, formulas included (same-row references follow the
 * row); partners no longer in the list keep their rows, below the active ones. Every difference
 * becomes a change-log entry: new partner, no longer active, or a field's old and new value.
 */
import { type Cell, isDate } from '../table/cells';

export interface FormulaCell {
  formula: string;
}
export type OutCell = Cell | FormulaCell;

export interface Change {
  id: string;
  change: 'new partner' | 'no longer active' | 'changed';
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

export const sameCell = (a: Cell, b: Cell): boolean => {
  const norm = (v: Cell) => (isDate(v) ? `d${v.getTime()}` : typeof v === 'number' ? `n${v}` : `s${String(v)}`);
  return norm(a) === norm(b);
};

/** Moves same-row, non-absolute references of a formula from row `from` to row `to` (1-based). */
export function repointFormula(formula: string, from: number, to: number): string {
  if (from === to) return formula;
  return formula.replace(/(^|[^A-Za-z0-9_$])(\$?[A-Z]{1,3})(\d+)(?![\d(])/g, (m, pre: string, col: string, row: string) => (Number(row) === from ? `${pre}${col}${to}` : m));
}

export function mergeTables(existing: { values: Cell[][]; formulas: string[][] } | null, fields: readonly string[], incoming: readonly Cell[][]): MergeResult {
  const header = existing?.values[0]?.map((h) => String(h)) ?? [];
  const oldIdCol = header.indexOf('id');
  const newIdCol = fields.indexOf('id');
  if (!existing || existing.values.length === 0 || oldIdCol < 0) {
    return { grid: [[...fields], ...incoming.map((r) => [...r])], changes: [], kept: 0 };
  }
  const analystCols = header.map((h, i) => ({ h, i })).filter(({ h, i }) => !fields.includes(h) && (h !== '' || existing.values.some((r) => r[i] !== '' && r[i] !== undefined)));
  const oldRows = new Map<string, number>();
  existing.values.forEach((row, r) => {
    const id = String(row[oldIdCol] ?? '');
    if (r > 0 && id && !oldRows.has(id)) oldRows.set(id, r);
  });
  const changes: Change[] = [];
  const log = (c: Change) => {
    if (changes.length < MAX_CHANGES) changes.push(c);
  };
  const grid: OutCell[][] = [[...fields, ...analystCols.map((c) => c.h)]];
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
        const col = header.indexOf(f);
        if (col >= 0 && !sameCell(existing.values[oldRow][col] ?? '', row[k])) log({ id, change: 'changed', field: f, before: existing.values[oldRow][col] ?? '', after: row[k] });
      });
    }
    grid.push([...row, ...carry(oldRow, grid.length + 1)]);
  }
  let kept = 0;
  existing.values.forEach((old, r) => {
    if (r === 0) return;
    const id = String(old[oldIdCol] ?? '');
    if (id && seen.has(id)) return;
    if (!id && old.every((v) => v === '' || v === undefined)) return;
    if (id && oldRows.get(id) !== r) return;
    if (id) log({ id, change: 'no longer active', field: '', before: '', after: '' });
    kept++;
    grid.push([...fields.map((f) => (header.indexOf(f) >= 0 ? (old[header.indexOf(f)] ?? '') : '')), ...carry(r, grid.length + 1)]);
  });
  return { grid, changes, kept };
}
