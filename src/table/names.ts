/** The names of the add-in's custom functions, for finding its formulas in a sheet. */
export const CUSTOM_FUNCTION_NAMES: readonly string[] = [
  'LP_GET',
  'LP_FIRMS',
  'LP_LABELS',
  'LP_ACTIVE',
  'FUND_GET',
  'FUND_INDUSTRIES',
  'FUND_LASTSIZE',
  'LP_FIELDS',
  'FUND_FIELDS',
  'LP_FIND',
  'LP_FILTER',
  'LP_MATCH',
];

/** The letters of a 0-based column, as A1 notation writes them (A, …, Z, AA, …). */
export const columnName = (c: number): string =>
  (c < 26 ? '' : columnName(Math.floor(c / 26) - 1)) + String.fromCharCode(65 + (c % 26));
