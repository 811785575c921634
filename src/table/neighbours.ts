/**
 * Reading a column of formulas the way a filled-down formula's neighbours will be evaluated:
 * for a cell holding `=LP_GET(A2, "firm")`, the run of cells above and below holding the same
 * function, and for each the cell (or text) its first argument names. Pure: the sheet access is
 * in src/gas/neighbours.ts.
 */
import { escapeRegExp } from '../api/redact';

/** What a formula's first argument names: a single cell (on its own sheet or another) or a text. */
export type FirstArgument = { kind: 'cell'; sheet?: string; row: number; col: number } | { kind: 'text'; text: string };

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** The first argument of a call to `fn` at the top of `formula`, when it is a single cell or a text; else undefined. */
export function firstArgument(formula: string, fn: string): FirstArgument | undefined {
  const head = new RegExp(`^=\\s*${escapeRegExp(fn)}\\s*\\(\\s*`, 'i').exec(formula);
  if (!head) return undefined;
  const rest = formula.slice(head[0].length);
  const text = /^"((?:[^"]|"")*)"\s*[,)]/.exec(rest);
  if (text) return { kind: 'text', text: text[1].replace(/""/g, '"') };
  const cell = /^(?:('(?:[^']|'')+'|[A-Za-z0-9_.]+)!)?\$?([A-Za-z]{1,3})\$?([1-9]\d{0,6})\s*[,)]/.exec(rest);
  if (!cell) return undefined;
  const sheet =
    cell[1] === undefined ? undefined : cell[1].startsWith("'") ? cell[1].slice(1, -1).replace(/''/g, "'") : cell[1];
  return { kind: 'cell', sheet, row: Number(cell[3]), col: columnNumber(cell[2]) };
}

/**
 * The rows (1-based, within `formulas`, which starts at sheet row `firstRow`) of the unbroken run
 * of `fn` calls around `row`, each with its first argument, nearest rows first.
 */
export function runAround(
  formulas: readonly string[],
  firstRow: number,
  row: number,
  fn: string,
): Array<{ row: number; arg: FirstArgument }> {
  const at = row - firstRow;
  const argAt = (i: number) => firstArgument(formulas[i] ?? '', fn);
  const out: Array<{ row: number; arg: FirstArgument }> = [];
  const own = argAt(at);
  if (!own) return out;
  out.push({ row, arg: own });
  let up = at - 1;
  let down = at + 1;
  let upOpen = true;
  let downOpen = true;
  while (upOpen || downOpen) {
    if (downOpen) {
      const a = argAt(down);
      if (a) out.push({ row: firstRow + down++, arg: a });
      else downOpen = false;
    }
    if (upOpen) {
      const a = argAt(up);
      if (a) out.push({ row: firstRow + up--, arg: a });
      else upOpen = false;
    }
  }
  return out;
}
