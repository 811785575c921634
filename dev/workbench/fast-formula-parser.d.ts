/**
 * Types for the parts of fast-formula-parser (which ships none) that the workbench's formula
 * engine uses: the parser with its cell, range, name and function hooks, the dependency parser,
 * and FormulaError.
 */
declare module 'fast-formula-parser' {
  interface CellRef {
    sheet?: string;
    row: number;
    col: number;
  }
  interface RangeRef {
    sheet?: string;
    from: { row: number; col: number };
    to: { row: number; col: number };
  }
  interface Position {
    sheet: string;
    row: number;
    col: number;
  }
  /** An argument as a function receives it. */
  interface Arg {
    value: unknown;
    isArray?: boolean;
    isRangeRef?: boolean;
    isCellRef?: boolean;
    omitted?: boolean;
  }

  class FormulaError extends Error {
    constructor(error: string, msg?: string, details?: unknown);
    readonly error: string;
    readonly details?: unknown;
    static REF: FormulaError;
    static NAME: FormulaError;
  }

  class DepParser {
    parse(formula: string, position: Position): Array<CellRef | RangeRef>;
  }

  class FormulaParser {
    constructor(config: {
      onCell?: (ref: CellRef) => unknown;
      onRange?: (ref: RangeRef) => unknown[][];
      onVariable?: (name: string, sheet: string, position: Position) => unknown;
      functions?: Record<string, (...args: Arg[]) => unknown>;
    });
    parse(formula: string, position: Position, allowReturnArray?: boolean): unknown;
    static FormulaError: typeof FormulaError;
    static DepParser: typeof DepParser;
  }

  export = FormulaParser;
}
