/**
 * The ids a filled-down formula's neighbours will ask for. A custom function sees its calling
 * cell (`SpreadsheetApp.getActiveRange()`) and may read the sheet: this reads the column of
 * formulas around it and the cells their first arguments name, so a cold cell can fetch for its
 * neighbours too (src/api/partners.ts). Anything unexpected gives no neighbours, never an error:
 * the cell then works alone, as before.
 */
import { MAX_NEIGHBOURS, type Neighbours } from '../api/lookup-cache';
import { idText } from '../table/input';
import { type FirstArgument, runAround } from '../table/neighbours';

/** Rows looked at above and below the calling cell. */
const WINDOW_ROWS = 2000;

/** A neighbour's id, read by the same rule as the formula's own; a cell that holds none is skipped. */
function neighbourId(v: unknown): string | undefined {
  try {
    return idText(v) ?? undefined;
  } catch {
    return undefined;
  }
}

export function neighboursOf(fn: string): Neighbours | undefined {
  try {
    const cell = SpreadsheetApp.getActiveRange();
    if (cell?.getNumRows() !== 1 || cell.getNumColumns() !== 1) return undefined;
    const sheet = cell.getSheet();
    const row = cell.getRow();
    const col = cell.getColumn();
    const last = sheet.getLastRow();
    if (row > last) return undefined;
    const from = Math.max(1, row - WINDOW_ROWS);
    const to = Math.min(last, row + WINDOW_ROWS);
    const formulas = sheet
      .getRange(from, col, to - from + 1, 1)
      .getFormulas()
      .map((r) => String(r[0] ?? ''));
    const run = runAround(formulas, from, row, fn);
    if (run.length < 2) return undefined;
    const spans = new Map<string, { sheet?: string; col: number; min: number; max: number }>();
    for (const { arg } of run) {
      if (arg.kind !== 'cell') continue;
      const key = `${arg.sheet ?? ''}\u0000${arg.col}`;
      const s = spans.get(key);
      if (s) {
        s.min = Math.min(s.min, arg.row);
        s.max = Math.max(s.max, arg.row);
      } else spans.set(key, { sheet: arg.sheet, col: arg.col, min: arg.row, max: arg.row });
    }
    const values = new Map<string, unknown[]>();
    for (const [key, s] of spans) {
      const target = s.sheet === undefined ? sheet : sheet.getParent().getSheetByName(s.sheet);
      if (!target) continue;
      values.set(
        key,
        target
          .getRange(s.min, s.col, s.max - s.min + 1, 1)
          .getValues()
          .map((r) => r[0]),
      );
    }
    const idOf = (arg: FirstArgument): string | undefined => {
      if (arg.kind === 'text') return neighbourId(arg.text);
      const key = `${arg.sheet ?? ''}\u0000${arg.col}`;
      const s = spans.get(key);
      const column = values.get(key);
      return s && column ? neighbourId(column[arg.row - s.min]) : undefined;
    };
    const block = Math.floor((row - 1) / MAX_NEIGHBOURS);
    const ids: string[] = [];
    const all: string[] = [];
    for (const entry of run) {
      const id = idOf(entry.arg);
      if (id === undefined) continue;
      all.push(id);
      if (Math.floor((entry.row - 1) / MAX_NEIGHBOURS) === block) ids.push(id);
    }
    return { ids, column: all, group: `${sheet.getName()}:${col}:${block}` };
  } catch {
    return undefined;
  }
}
