/**
 * Where a log row's values go on a log sheet whose header row the analyst may have changed (columns
 * moved, deleted or added): each value goes under the column of its own name, whatever the order the
 * sheet has; names the sheet lacks are added at its right end. Nothing already on the sheet moves,
 * so logged rows stay under their own headers, and columns the analyst added are kept.
 */
import type { Cell } from './cells';

export interface LogLayout {
  /** Names to add at the right end of the sheet's header row (none when it already has them all). */
  added: string[];
  /** The row as the sheet's columns want it. */
  place(row: readonly Cell[]): Cell[];
}

export function logLayout(sheetHeader: readonly unknown[], header: readonly string[]): LogLayout {
  const names = sheetHeader.map((h) => (typeof h === 'string' ? h : String(h ?? '')));
  const added = header.filter((name) => !names.includes(name));
  const columns = [...names, ...added];
  const at = header.map((name) => columns.indexOf(name));
  return {
    added,
    place(row) {
      const out: Cell[] = Array.from({ length: columns.length }, () => '');
      at.forEach((column, i) => {
        out[column] = row[i] ?? '';
      });
      return out;
    },
  };
}
