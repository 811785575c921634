/**
 * Reading a filled-down column of formulas (pure): the first argument of a call at the top of a
 * formula (a cell, on its own sheet or another, absolute or not, or a text), and the unbroken run
 * of calls of the same function around a row, nearest rows first; and the list of the add-in's
 * custom function names, which finds its formulas.
 */
import { exportNamesFromIndex, isCustomFunctionName } from '../../../scripts/build-lib';
import { CUSTOM_FUNCTION_NAMES } from '../../../src/table/names';
import { firstArgument, runAround } from '../../../src/table/neighbours';
import { join } from 'node:path';

describe('firstArgument', () => {
  test.each([
    ['=LP_GET(A2, "firm")', { kind: 'cell', sheet: undefined, row: 2, col: 1 }],
    ['=lp_get( $B$10 )', { kind: 'cell', sheet: undefined, row: 10, col: 2 }],
    ['= LP_GET (AA7,"x")', { kind: 'cell', sheet: undefined, row: 7, col: 27 }],
    ['=LP_GET(ZZZ1234567)', { kind: 'cell', sheet: undefined, row: 1234567, col: 18278 }],
    ['=LP_GET(Data!C3, "firm")', { kind: 'cell', sheet: 'Data', row: 3, col: 3 }],
    ["=LP_GET('Limited partners'!A2)", { kind: 'cell', sheet: 'Limited partners', row: 2, col: 1 }],
    ["=LP_GET('Ann''s list'!A2)", { kind: 'cell', sheet: "Ann's list", row: 2, col: 1 }],
    ['=LP_GET(my_sheet.v2!a5)', { kind: 'cell', sheet: 'my_sheet.v2', row: 5, col: 1 }],
    ['=LP_GET("lp_1", "firm")', { kind: 'text', text: 'lp_1' }],
    ['=LP_GET("say ""hi""")', { kind: 'text', text: 'say "hi"' }],
    ['=LP_GET("")', { kind: 'text', text: '' }],
  ])('%s', (formula, arg) => {
    expect(firstArgument(formula, 'LP_GET')).toEqual(arg);
  });

  test.each([
    'LP_GET(A2)',
    '=FUND_GET(A2)',
    '=LP_GETX(A2)',
    '=X+LP_GET(A2)',
    '=LP_GET(A2:A9)',
    '=LP_GET(A0)',
    '=LP_GET(A12345678)',
    '=LP_GET(ABCD1)',
    '=LP_GET(A2+1)',
    '=LP_GET(TRIM(A2))',
    '=LP_GET("x"&A2)',
    '=LP_GET(A2',
    '=LP_GET("open',
  ])('%s: no single cell or text', (formula) => {
    expect(firstArgument(formula, 'LP_GET')).toBeUndefined();
  });

  test('the function name is matched as a name, not as a pattern', () => {
    expect(firstArgument('=A.B(C1)', 'A.B')).toEqual({ kind: 'cell', sheet: undefined, row: 1, col: 3 });
    expect(firstArgument('=AxB(C1)', 'A.B')).toBeUndefined();
  });
});

describe('runAround', () => {
  const column = [
    '=LP_GET(A2)',
    '=LP_GET(A3)',
    '=LP_GET(A4)',
    '',
    '=LP_GET(A6)',
    '=LP_GET(A7)',
    '=FUND_GET(A8)',
    '=LP_GET(A9)',
  ];

  test('the run around a row, nearest first (below before above at each distance), stopping at a gap or another function', () => {
    expect(runAround(column, 2, 3, 'LP_GET').map((r) => r.row)).toEqual([3, 4, 2]);
    expect(runAround(column, 2, 2, 'LP_GET').map((r) => r.row)).toEqual([2, 3, 4]);
    expect(runAround(column, 2, 6, 'LP_GET').map((r) => r.row)).toEqual([6, 7]);
    expect(runAround(column, 2, 7, 'LP_GET').map((r) => r.row)).toEqual([7, 6]);
    expect(runAround(column, 2, 9, 'LP_GET').map((r) => r.row)).toEqual([9]);
  });

  test('each row with its own argument', () => {
    expect(runAround(column, 2, 3, 'LP_GET')).toEqual([
      { row: 3, arg: { kind: 'cell', sheet: undefined, row: 3, col: 1 } },
      { row: 4, arg: { kind: 'cell', sheet: undefined, row: 4, col: 1 } },
      { row: 2, arg: { kind: 'cell', sheet: undefined, row: 2, col: 1 } },
    ]);
  });

  test('a longer run alternates below and above until both ends close', () => {
    const long = Array.from({ length: 7 }, (_, i) => `=LP_GET(A${i + 1})`);
    expect(runAround(long, 1, 4, 'LP_GET').map((r) => r.row)).toEqual([4, 5, 3, 6, 2, 7, 1]);
    expect(runAround(long, 1, 1, 'LP_GET').map((r) => r.row)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(runAround(long, 1, 7, 'LP_GET').map((r) => r.row)).toEqual([7, 6, 5, 4, 3, 2, 1]);
  });

  test('a row that holds no such call, or lies outside the column, has no run', () => {
    expect(runAround(column, 2, 5, 'LP_GET')).toEqual([]);
    expect(runAround(column, 2, 8, 'LP_GET')).toEqual([]);
    expect(runAround(column, 2, 1, 'LP_GET')).toEqual([]);
    expect(runAround(column, 2, 10, 'LP_GET')).toEqual([]);
    expect(runAround([], 1, 1, 'LP_GET')).toEqual([]);
  });
});

test("CUSTOM_FUNCTION_NAMES is exactly the add-in's custom functions", () => {
  const exposed = exportNamesFromIndex(join(__dirname, '../../../src/index.ts')).filter(isCustomFunctionName);
  expect([...CUSTOM_FUNCTION_NAMES].sort()).toEqual(exposed.sort());
});
