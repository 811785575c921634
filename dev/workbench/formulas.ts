/**
 * The workbench's formula engine, for the add-in's own functions only: parses
 * `=NAME(arg, …)` where each argument is a string, number, TRUE/FALSE, a cell (A1, Sheet!A1)
 * or a range (A2:A20); evaluates it as Sheets does, through the bundle's custom function in the
 * emulator; spills the result to the right and down (refusing to overwrite data, as Sheets
 * does with #REF!, also when a value is typed into the spill area later); keeps a formula it
 * cannot parse in its cell as #ERROR! with the reason; and recomputes formulas whose direct
 * arguments changed.
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
const CALL = /^=\s*([A-Z][A-Z0-9_]*)\s*\(/i;

/** Whether a formula calls one of the add-in's functions at its top level (the formulas this engine evaluates). */
export function isAddinFormula(formula: string, known: readonly string[]): boolean {
  const m = CALL.exec(formula);
  return !!m && known.includes(m[1].toUpperCase());
}

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

/** The add-in formula in a cell, or undefined for anything else (kept as text); throws "Formula parse error" for an add-in call it cannot read. */
export function parseFormula(formula: string, known: readonly string[]): ParsedFormula | undefined {
  if (!isAddinFormula(formula, known)) return undefined;
  const m = FORMULA.exec(formula);
  if (!m || (m[2].match(/"/g)?.length ?? 0) % 2) throw new Error('Formula parse error: the parentheses or quotes do not match.');
  const args = splitArgs(m[2]).map((a): Arg => {
    if (a === '') return { kind: 'value', value: '' };
    if (/^".*"$/s.test(a)) return { kind: 'value', value: a.slice(1, -1).replace(/""/g, '"') };
    if (/^(TRUE|FALSE)$/i.test(a)) return { kind: 'value', value: a.toUpperCase() === 'TRUE' };
    if (/^-?\d+(\.\d+)?$/.test(a)) return { kind: 'value', value: Number(a) };
    try {
      return { kind: 'ref', ...parseA1(a) };
    } catch {
      throw new Error(`Formula parse error: ${a} is not a value, a cell or a range (text needs "quotes").`);
    }
  });
  return { name: m[1].toUpperCase(), args };
}

const BLOCKED = 'Array result was not expanded because it would overwrite data.';

export interface SpillOwner {
  sheet: string;
  row: number;
  col: number;
  formula: string;
  cells: Array<[number, number]>;
  error?: string;
  /** Rows and columns of the last result: the area a value typed later would block (#REF!). */
  extent?: [number, number];
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
    const s = this.sheet(sheetName);
    const owner: SpillOwner = { sheet: sheetName, row, col, formula, cells: [[row, col]] };
    let parsed: ParsedFormula | undefined;
    try {
      parsed = parseFormula(formula, this.names);
    } catch (e) {
      owner.error = (e as Error).message;
      this.owners.set(key, owner);
      s.set(row, col, '#ERROR!', formula);
      return owner;
    }
    if (!parsed) {
      this.owners.delete(key);
      s.set(row, col, '', formula);
      return undefined;
    }
    this.owners.set(key, owner);
    const result = callCustomFunction(this.emu, parsed.name, parsed.args.map((a) => this.argValue(a, sheetName)));
    if (result.error !== undefined) {
      owner.error = result.error;
      s.set(row, col, '#ERROR!', formula);
      return owner;
    }
    const grid = Array.isArray(result.value) ? (result.value as unknown[][]) : [[result.value]];
    owner.extent = [grid.length, Math.max(0, ...grid.map((r) => r.length))];
    const blocked = grid.some((r, i) => r.some((_, j) => (i || j) && (s.get(row + i, col + j) !== '' || s.formulas.has(`${row + i},${col + j}`))));
    if (blocked) {
      owner.error = BLOCKED;
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

  /** Takes a cell out of every other formula's spill, before a value or formula is put in it. */
  release(sheetName: string, row: number, col: number): void {
    for (const o of this.owners.values()) {
      if (o.sheet === sheetName && (o.row !== row || o.col !== col)) o.cells = o.cells.filter(([r, c]) => r !== row || c !== col);
    }
  }

  /** Re-evaluates formulas that take the edited cell as a direct argument, or whose result covers (or would cover) it. */
  recomputeAfterEdit(sheetName: string, row: number, col: number): number {
    let n = 0;
    for (const owner of [...this.owners.values()]) {
      if (owner.sheet === sheetName && owner.row === row && owner.col === col) continue;
      const parsed = safeParse(owner.formula, this.names);
      const argument = parsed?.args.some((a) => a.kind === 'ref' && (a.sheet ?? owner.sheet) === sheetName && row + 1 >= a.r1 && row + 1 <= a.r2 && col + 1 >= a.c1 && col + 1 <= a.c2);
      const [rows, cols] = owner.extent ?? [1, 1];
      const spill = owner.sheet === sheetName && row >= owner.row && row < owner.row + rows && col >= owner.col && col < owner.col + cols;
      if (argument || spill) {
        this.evaluate(owner.sheet, owner.row, owner.col, owner.formula);
        n++;
      }
    }
    // A result that gave way (#REF!) may have freed the area of another one that was blocked by it.
    for (const owner of [...this.owners.values()]) {
      if (owner.sheet === sheetName && owner.error === BLOCKED) {
        this.evaluate(owner.sheet, owner.row, owner.col, owner.formula);
        n++;
      }
    }
    return n;
  }

  /**
   * Forgets formulas whose cell no longer holds them and clears what they spilled, as Sheets does
   * when a formula is removed (cells `written` since, per sheet, by someone else stay).
   */
  prune(written?: ReadonlyMap<string, ReadonlySet<string>>): void {
    for (const [key, o] of this.owners) {
      const s = this.emu.workbook.byName(o.sheet);
      if (s?.formulas.get(`${o.row},${o.col}`) === o.formula) continue;
      this.owners.delete(key);
      const other = written?.get(o.sheet);
      if (s && other) for (const [r, c] of o.cells) if ((r !== o.row || c !== o.col) && !other.has(`${r},${c}`) && !s.formulas.has(`${r},${c}`)) s.set(r, c, '');
    }
  }
}

function safeParse(formula: string, known: readonly string[]): ParsedFormula | undefined {
  try {
    return parseFormula(formula, known);
  } catch {
    return undefined;
  }
}
