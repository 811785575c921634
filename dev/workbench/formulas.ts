/**
 * The workbench's formula engine, for the add-in's own functions only: parses
 * `=NAME(arg, …)` where each argument is a string, number, TRUE/FALSE, a cell (A1, Sheet!A1)
 * or a range (A2:A20); evaluates it as Sheets does, through the bundle's custom function in the
 * emulator; spills the result to the right and down (refusing to overwrite data, as Sheets
 * does with #REF!); and recomputes formulas whose direct arguments changed.
 */
import { callCustomFunction } from '../emulator/hosts';
import type { Emulator } from '../emulator/runtime';
import { type CellValue, parseA1, type SheetData } from '../emulator/workbook';

export type Arg = { kind: 'value'; value: CellValue } | { kind: 'ref'; sheet?: string; r1: number; c1: number; r2: number; c2: number };

export interface ParsedFormula {
  name: string;
  args: Arg[];
}

const FORMULA = /^=\s*([A-Z][A-Z0-9_]*)\s*\(([\s\S]*)\)\s*$/i;

function splitArgs(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      if (quoted && text[i + 1] === '"') {
        current += '""';
        i++;
        continue;
      }
      quoted = !quoted;
    }
    if (ch === ',' && !quoted) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim() || out.length) out.push(current.trim());
  return out;
}

/** The add-in formula in a cell, or undefined for anything else (kept as text). */
export function parseFormula(formula: string, known: readonly string[]): ParsedFormula | undefined {
  const m = FORMULA.exec(formula);
  if (!m || !known.includes(m[1].toUpperCase())) return undefined;
  const args = splitArgs(m[2]).map((a): Arg => {
    if (a === '') return { kind: 'value', value: '' };
    if (/^".*"$/s.test(a)) return { kind: 'value', value: a.slice(1, -1).replace(/""/g, '"') };
    if (/^(TRUE|FALSE)$/i.test(a)) return { kind: 'value', value: a.toUpperCase() === 'TRUE' };
    if (/^-?\d+(\.\d+)?$/.test(a)) return { kind: 'value', value: Number(a) };
    try {
      return { kind: 'ref', ...parseA1(a) };
    } catch {
      throw new Error(`Formula parse error: ${a}`);
    }
  });
  return { name: m[1].toUpperCase(), args };
}

export interface SpillOwner {
  sheet: string;
  row: number;
  col: number;
  formula: string;
  cells: Array<[number, number]>;
  error?: string;
}

export class FormulaEngine {
  /** Formula cells, keyed "sheet!r,c" (0-based), with the cells their result spilled into. */
  readonly owners = new Map<string, SpillOwner>();

  constructor(private readonly emu: Emulator, private readonly names: readonly string[]) {}

  private sheet(name: string): SheetData {
    const s = this.emu.workbook.byName(name);
    if (!s) throw new Error(`No sheet ${name}`);
    return s;
  }

  private argValue(arg: Arg, home: string): unknown {
    if (arg.kind === 'value') return arg.value;
    const s = this.sheet(arg.sheet ?? home);
    if (arg.r1 === arg.r2 && arg.c1 === arg.c2) return s.get(arg.r1 - 1, arg.c1 - 1);
    return Array.from({ length: arg.r2 - arg.r1 + 1 }, (_, i) => Array.from({ length: arg.c2 - arg.c1 + 1 }, (_, j) => s.get(arg.r1 - 1 + i, arg.c1 - 1 + j)));
  }

  private clearSpill(owner: SpillOwner): void {
    const s = this.emu.workbook.byName(owner.sheet);
    if (!s) return;
    for (const [r, c] of owner.cells) if (r !== owner.row || c !== owner.col) s.set(r, c, '');
  }

  /** Evaluates the formula at (row, col) of a sheet (0-based) and spills its result. */
  evaluate(sheetName: string, row: number, col: number, formula: string): SpillOwner | undefined {
    const key = `${sheetName}!${row},${col}`;
    const previous = this.owners.get(key);
    if (previous) this.clearSpill(previous);
    const parsed = parseFormula(formula, this.names);
    const s = this.sheet(sheetName);
    if (!parsed) {
      this.owners.delete(key);
      s.set(row, col, '', formula);
      return undefined;
    }
    const owner: SpillOwner = { sheet: sheetName, row, col, formula, cells: [[row, col]] };
    this.owners.set(key, owner);
    const result = callCustomFunction(this.emu, parsed.name, parsed.args.map((a) => this.argValue(a, sheetName)));
    if (result.error !== undefined) {
      owner.error = result.error;
      s.set(row, col, '#ERROR!', formula);
      return owner;
    }
    const grid = Array.isArray(result.value) ? (result.value as unknown[][]) : [[result.value]];
    const blocked = grid.some((r, i) => r.some((_, j) => (i || j) && (s.get(row + i, col + j) !== '' || s.formulas.has(`${row + i},${col + j}`))));
    if (blocked) {
      owner.error = 'Array result was not expanded because it would overwrite data.';
      s.set(row, col, '#REF!', formula);
      return owner;
    }
    grid.forEach((r, i) => r.forEach((v, j) => {
      if (row + i >= s.maxRows || col + j >= s.maxCols) return;
      const value = (v === null || v === undefined ? '' : v) as CellValue;
      if (i === 0 && j === 0) s.set(row, col, value, formula);
      else {
        s.set(row + i, col + j, value);
        owner.cells.push([row + i, col + j]);
      }
    }));
    return owner;
  }

  /** Re-evaluates formulas that take the edited cell as a direct argument. */
  recomputeAfterEdit(sheetName: string, row: number, col: number): number {
    let n = 0;
    for (const owner of [...this.owners.values()]) {
      const parsed = parseFormula(owner.formula, this.names);
      const hit = parsed?.args.some((a) => a.kind === 'ref' && (a.sheet ?? owner.sheet) === sheetName && row + 1 >= a.r1 && row + 1 <= a.r2 && col + 1 >= a.c1 && col + 1 <= a.c2);
      if (hit) {
        this.evaluate(owner.sheet, owner.row, owner.col, owner.formula);
        n++;
      }
    }
    return n;
  }

  /** Forgets formulas whose cell no longer holds them. */
  prune(): void {
    for (const [key, o] of this.owners) if (this.emu.workbook.byName(o.sheet)?.formulas.get(`${o.row},${o.col}`) !== o.formula) this.owners.delete(key);
  }
}
