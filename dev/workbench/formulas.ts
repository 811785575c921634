/**
 * The workbench's formula engine. Formulas are read by fast-formula-parser, a spreadsheet formula
 * parser, as Sheets reads them: a formula it cannot read is a parse error (`#ERROR!`), an unknown
 * function or name is `#NAME?`, and a sheet that does not exist is `#REF!`; each keeps its text in
 * the cell and its reason for the status bar. A formula that calls one of the add-in's functions
 * (at any depth, with literal, cell and range arguments, on any sheet) is evaluated, the add-in's
 * functions through the bundle's custom functions in the emulator and the rest by the parser; its
 * result spills to the right and down (refusing to overwrite data, as Sheets does with #REF!, also
 * when a value is typed into the spill area later). Other valid formulas are stored, not evaluated,
 * and shown as their text. Formulas recompute when a cell they refer to changes.
 */
import FormulaParser from 'fast-formula-parser';
import { callCustomFunction } from '../emulator/hosts';
import { isDate } from '../emulator/realm';
import type { Emulator } from '../emulator/runtime';
import type { CellValue, SheetData } from '../emulator/workbook';

const { DepParser, FormulaError } = FormulaParser;
type FormulaFault = InstanceType<typeof FormulaError>;

const DATE_TOKEN = '\uE000date:';
const DATE_TOKEN_RE = /^\uE000date:(\d+)$/;

const CALL = /^=\s*([A-Z][A-Z0-9_.]*)\s*\(/i;

/** Whether a formula calls one of the add-in's functions at its top level (the formulas a script's writes make the workbench evaluate). */
export function isAddinFormula(formula: string, known: readonly string[]): boolean {
  const m = CALL.exec(formula);
  return !!m && known.includes(m[1].toUpperCase());
}

/**
 * What a formula evaluates to: a value or a table, a spreadsheet error with its reason, or `text`:
 * a formula the workbench stores without evaluating (it calls none of the add-in's functions, or a
 * function of Sheets the parser does not implement).
 */
type Outcome = { ok: true; value: unknown } | { ok: false; shown: string; reason: string } | { ok: 'text' };

/**
 * The families of the add-in's function names (`LP_`, `FUND_`): Sheets has no function of its own
 * in them, so an unknown name there (a misspelt `LP_GTE`) is `#NAME?`; an unknown name elsewhere
 * may be a Sheets function the parser does not implement, and is left as typed.
 */
const families = (names: readonly string[]) => [...new Set(names.map((n) => n.replace(/_.*$/, '_')))];

/** The reason Sheets would give for a formula the parser refused (the parser's own wording is about its grammar). */
function refusal(e: FormulaFault, unknownName: string | undefined, names: readonly string[]): Outcome {
  const inner = e.details instanceof FormulaError ? e.details : e;
  if (inner.error === '#NAME?') {
    const fn = /^Function (\S+) is not implemented/.exec(inner.message)?.[1];
    if (fn && !families(names).some((f) => fn.toUpperCase().startsWith(f))) return { ok: 'text' };
    return {
      ok: false,
      shown: '#NAME?',
      reason: fn
        ? `Unknown function: '${fn}'.`
        : `Unknown range name: '${(unknownName ?? '').toUpperCase()}' (text needs "quotes").`,
    };
  }
  if (inner.error === '#REF!')
    return { ok: false, shown: '#REF!', reason: inner.message || 'The formula refers to a sheet that does not exist.' };
  if (inner !== e || e.message)
    return { ok: false, shown: inner.error, reason: inner.message || 'Formula parse error.' };
  return { ok: false, shown: e.error, reason: e.error };
}

/** The parse error of a formula the parser could not read at all. */
function parseError(e: FormulaFault): Outcome {
  const at = (e.details as { errorLocation?: { column: number } } | undefined)?.errorLocation?.column;
  return {
    ok: false,
    shown: '#ERROR!',
    reason: `Formula parse error${at ? ` at character ${at + 1}` : ''}: the formula cannot be read (text needs "quotes", arguments are separated by commas).`,
  };
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

  constructor(
    private readonly emu: Emulator,
    private readonly names: readonly string[],
  ) {}

  private sheet(name: string): SheetData {
    const s = this.emu.workbook.byName(name);
    if (!s) throw new Error(`No sheet ${name}`);
    return s;
  }

  /** A referenced sheet, or #REF! as Sheets gives for a sheet name it cannot resolve. */
  private refSheet(name: string | undefined, home: string): SheetData {
    const s = this.emu.workbook.byName(name ?? home);
    if (!s) throw new FormulaError('#REF!', `Unresolved sheet name '${name}'.`);
    return s;
  }

  /**
   * Reads and evaluates a formula of a cell on `home` (1-based row and column). With `call` false
   * the add-in's functions are not run, only noted: that reading says whether the formula is one
   * the workbench evaluates at all.
   */
  private read(
    formula: string,
    home: string,
    row: number,
    col: number,
    call: boolean,
  ): { outcome: Outcome; calls: number } {
    let calls = 0;
    let unknownName: string | undefined;
    // The parser refuses a Date as a result (#VALUE!): dates the add-in returns travel as tokens and come back after.
    const dates: Date[] = [];
    const hide = (v: unknown) => (isDate(v) ? `${DATE_TOKEN}${dates.push(v) - 1}` : v);
    const show = (v: unknown) => {
      const m = typeof v === 'string' ? DATE_TOKEN_RE.exec(v) : null;
      return m ? dates[Number(m[1])] : v;
    };
    const functions = Object.fromEntries(
      this.names.map((name) => [
        name,
        (...args: Array<{ value: unknown; omitted?: boolean }>) => {
          calls++;
          // An argument that is an error (an unknown name, a missing sheet) is the formula's error, as in Sheets.
          const fault = args.find((a) => a.value instanceof FormulaError);
          if (fault) throw fault.value;
          if (!call) return 0;
          const result = callCustomFunction(
            this.emu,
            name,
            args.map((a) => (a.omitted ? '' : a.value)),
          );
          if (result.error !== undefined) throw new FormulaError('#ERROR!', result.error);
          return Array.isArray(result.value)
            ? (result.value as unknown[][]).map((r) => (Array.isArray(r) ? r.map(hide) : hide(r)))
            : hide(result.value);
        },
      ]),
    );
    const parser = new FormulaParser({
      functions,
      onVariable: (name) => {
        unknownName = name;
        return null;
      },
      onCell: (ref) => this.refSheet(ref.sheet, home).get(ref.row - 1, ref.col - 1),
      onRange: (ref) => {
        const s = this.refSheet(ref.sheet, home);
        return Array.from({ length: ref.to.row - ref.from.row + 1 }, (_, i) =>
          Array.from({ length: ref.to.col - ref.from.col + 1 }, (_, j) =>
            s.get(ref.from.row - 1 + i, ref.from.col - 1 + j),
          ),
        );
      },
    });
    try {
      const value = parser.parse(formula.replace(/^=/, ''), { sheet: home, row, col }, true);
      if (value instanceof FormulaError) return { outcome: refusal(value, unknownName, this.names), calls };
      return {
        outcome: {
          ok: true,
          value: Array.isArray(value) ? value.map((r) => (Array.isArray(r) ? r.map(show) : show(r))) : show(value),
        },
        calls,
      };
    } catch (e) {
      if (!(e instanceof FormulaError)) throw e;
      const located = (e.details as { errorLocation?: unknown } | undefined)?.errorLocation !== undefined;
      const grammar =
        !(e.details instanceof FormulaError) &&
        (located || /^Expecting|Redundant input|NoViableAlt/i.test(e.message.trim()));
      return { outcome: grammar ? parseError(e) : refusal(e, unknownName, this.names), calls };
    }
  }

  /** The cells a formula refers to (its arguments' cells and ranges), for recomputing it when one changes. */
  private refersTo(owner: SpillOwner, sheetName: string, row: number, col: number): boolean {
    let refs: ReturnType<InstanceType<typeof DepParser>['parse']>;
    try {
      refs = new DepParser().parse(owner.formula.replace(/^=/, ''), {
        sheet: owner.sheet,
        row: owner.row + 1,
        col: owner.col + 1,
      });
    } catch {
      return false;
    }
    return refs.some((ref) => {
      if ((ref.sheet ?? owner.sheet) !== sheetName) return false;
      const [from, to] = 'from' in ref ? [ref.from, ref.to] : [ref, ref];
      return row + 1 >= from.row && row + 1 <= to.row && col + 1 >= from.col && col + 1 <= to.col;
    });
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
    // First a reading that runs nothing: a valid formula that calls none of the add-in's functions is only stored.
    const probe = this.read(formula, sheetName, row + 1, col + 1, false);
    if (probe.outcome.ok === 'text' || (probe.outcome.ok && probe.calls === 0)) {
      this.owners.delete(key);
      s.set(row, col, '', formula);
      return undefined;
    }
    this.owners.set(key, owner);
    const result = probe.outcome.ok ? this.read(formula, sheetName, row + 1, col + 1, true).outcome : probe.outcome;
    if (result.ok === 'text') {
      this.owners.delete(key);
      s.set(row, col, '', formula);
      return undefined;
    }
    if (!result.ok) {
      owner.error = result.reason;
      s.set(row, col, result.shown, formula);
      return owner;
    }
    const grid = Array.isArray(result.value)
      ? (result.value as unknown[][]).map((r) => (Array.isArray(r) ? r : [r]))
      : [[result.value]];
    owner.extent = [grid.length, Math.max(0, ...grid.map((r) => r.length))];
    const blocked = grid.some((r, i) =>
      r.some((_, j) => (i || j) && (s.get(row + i, col + j) !== '' || s.formulas.has(`${row + i},${col + j}`))),
    );
    if (blocked) {
      owner.error = BLOCKED;
      s.set(row, col, '#REF!', formula);
      return owner;
    }
    grid.forEach((r, i) =>
      r.forEach((v, j) => {
        if (row + i >= s.maxRows || col + j >= s.maxCols) return;
        const value = (v === null || v === undefined ? '' : v) as CellValue;
        if (i === 0 && j === 0) s.set(row, col, value, formula);
        else {
          s.set(row + i, col + j, value);
          owner.cells.push([row + i, col + j]);
        }
      }),
    );
    return owner;
  }

  /** Takes a cell out of every other formula's spill, before a value or formula is put in it. */
  release(sheetName: string, row: number, col: number): void {
    for (const o of this.owners.values()) {
      if (o.sheet === sheetName && (o.row !== row || o.col !== col))
        o.cells = o.cells.filter(([r, c]) => r !== row || c !== col);
    }
  }

  /** Re-evaluates formulas that take the edited cell as a direct argument, or whose result covers (or would cover) it. */
  recomputeAfterEdit(sheetName: string, row: number, col: number): number {
    let n = 0;
    for (const owner of [...this.owners.values()]) {
      if (owner.sheet === sheetName && owner.row === row && owner.col === col) continue;
      const argument = this.refersTo(owner, sheetName, row, col);
      const [rows, cols] = owner.extent ?? [1, 1];
      const spill =
        owner.sheet === sheetName &&
        row >= owner.row &&
        row < owner.row + rows &&
        col >= owner.col &&
        col < owner.col + cols;
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
      if (s && other)
        for (const [r, c] of o.cells)
          if ((r !== o.row || c !== o.col) && !other.has(`${r},${c}`) && !s.formulas.has(`${r},${c}`)) s.set(r, c, '');
    }
  }
}
