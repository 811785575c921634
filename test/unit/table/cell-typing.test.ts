/**
 * Cell typing as the README states it, value by value: numbers stay numbers whatever their sign
 * or form (a number sent as text included), timestamps become dates whether the service sends
 * ISO text or epoch milliseconds, booleans, lists and JSON by the field's type, and text that
 * Sheets would read as something else keeps a quote only where Sheets would parse it (a sheet
 * write, never a custom function's result).
 */
import { asDate, isDate, MAX_CELL_CHARS, safeText, toCell, TRUNCATION_MARK } from '../../../src/table/cells';

describe('numbers', () => {
  test.each([
    ['-12.5', -12.5],
    ['12.5', 12.5],
    ['-3', -3],
    [' 42 ', 42],
    ['1e3', 1000],
    ['-2.5E-2', -0.025],
    ['7e+2', 700],
    ['12.55', 12.55],
    ['1e10', 1e10],
  ])('%j sent as text for a number field is the number %d, not text', (text, n) => {
    expect(toCell(text, 'float', 'sheet')).toBe(n);
    expect(toCell(text, 'integer', 'formula')).toBe(n);
  });

  test('a list holding one number is not a number: it is written as list text', () => {
    expect(toCell(['5'], 'integer', 'formula')).toBe('5');
    expect(toCell([5], 'float', 'formula')).toBe('5');
  });

  test('numbers stay numbers, negative and fractional included', () => {
    expect(toCell(-12.5, 'float', 'sheet')).toBe(-12.5);
    expect(toCell(0, 'integer', 'sheet')).toBe(0);
  });

  test.each(['12,5', '1.2.3', '--1', '1e', '.5', '5.', 'twelve', '0x10', '', 'Infinity'])(
    '%j for a number field is not a number: it stays text, quoted in a sheet where Sheets would parse it',
    (text) => {
      expect(typeof toCell(text, 'float', 'formula')).toBe('string');
      expect(toCell(text, 'float', 'formula')).toBe(text);
      expect(toCell(text, 'float', 'sheet')).toBe(safeText(text, 'sheet'));
    },
  );

  test('a number that is not finite is not a number cell', () => {
    expect(toCell(Number.NaN, 'float', 'formula')).toBe('NaN');
    expect(typeof toCell('NaN', 'float', 'formula')).toBe('string');
  });
});

describe('timestamps', () => {
  const at = Date.UTC(2024, 1, 29, 12, 0, 0);

  test('epoch milliseconds for a datetime field become that date', () => {
    const cell = toCell(at, 'datetime', 'sheet');
    expect(isDate(cell)).toBe(true);
    expect((cell as Date).getTime()).toBe(at);
    expect(asDate(at)?.getTime()).toBe(at);
  });

  test('a small number for a datetime field (not a plausible epoch in milliseconds) stays a number', () => {
    expect(toCell(1_700_000_000, 'datetime', 'sheet')).toBe(1_700_000_000);
    expect(toCell(5, 'datetime', 'formula')).toBe(5);
    expect(asDate(1e11)).toBeUndefined();
    expect(asDate(Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  test.each([
    ['2024-02-29T12:00:00.000Z', at],
    ['2024-02-29T12:00:00Z', at],
    ['2024-02-29 12:00', Date.parse('2024-02-29T12:00')],
    ['2024-02-29T13:00:00+01:00', at],
    ['2024-02-29T13:00:00+0100', at],
    [' 2024-02-29T12:00:00Z ', at],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
  ])('ISO text %j becomes a date', (text, ms) => {
    const cell = toCell(text, 'datetime', 'formula');
    expect(isDate(cell)).toBe(true);
    expect((cell as Date).getTime()).toBe(ms);
  });

  test.each([
    '2024-13-01',
    '2024-02-30',
    '2023-02-29',
    '2024-04-31T10:00:00Z',
    '2024-00-10',
    '29/02/2024',
    'yesterday',
    '2024-02-29T12',
    'x2024-02-29',
    'on 2024-02-29',
    '2024-02-29 12:00 Z junk',
    '200000000000',
  ])('%j is not a date: it stays text', (text) => {
    expect(toCell(text, 'datetime', 'formula')).toBe(text);
    expect(asDate(text)).toBeUndefined();
  });

  test('isDate knows a date from another realm by its tag, and nothing else as one', () => {
    expect(isDate(new Date(0))).toBe(true);
    expect(isDate({ getTime: () => 0 })).toBe(false);
    expect(isDate('2024-02-29')).toBe(false);
  });
});

describe('other types', () => {
  test('booleans: true and false, as values or text; other text stays text', () => {
    expect(toCell(false, 'boolean', 'formula')).toBe(false);
    expect(toCell('false', 'boolean', 'formula')).toBe(false);
    expect(toCell('true', 'boolean', 'formula')).toBe(true);
    expect(toCell('yes', 'boolean', 'formula')).toBe('yes');
    expect(toCell(1, 'boolean', 'formula')).toBe(1);
  });

  test('lists are joined with ", "; blanks and nulls dropped; objects as JSON; text in them quoted for a sheet', () => {
    expect(toCell(['AI', null, '', 'SaaS'], 'list', 'formula')).toBe('AI, SaaS');
    expect(toCell([{ a: 1 }, 2], 'list', 'formula')).toBe('{"a":1}, 2');
    expect(toCell(['+1', 'b'], 'list', 'sheet')).toBe("'+1, b");
  });

  test('a number or boolean in a text field stays a number or boolean in a sheet too (never quoted text)', () => {
    expect(toCell(3, 'string', 'sheet')).toBe(3);
    expect(toCell(-3, 'list', 'sheet')).toBe(-3);
    expect(toCell(true, 'string', 'sheet')).toBe(true);
    expect(toCell(false, 'boolean', 'sheet')).toBe(false);
  });

  test('a field typed as text that holds something else: numbers and booleans kept, lists joined (blanks kept), objects as JSON', () => {
    expect(toCell(3, 'string', 'formula')).toBe(3);
    expect(toCell(true, 'string', 'formula')).toBe(true);
    expect(toCell(['a', null, 'b'], 'string', 'formula')).toBe('a, , b');
    expect(toCell({ k: 'v' }, 'string', 'formula')).toBe('{"k":"v"}');
    expect(toCell({ k: '=1' }, 'string', 'sheet')).toBe('{"k":"=1"}');
    expect(toCell(['=1'], 'string', 'sheet')).toBe("'=1");
  });

  test('json fields are compact JSON, quoted for a sheet when Sheets would parse it', () => {
    expect(toCell([1, 2], 'json', 'formula')).toBe('[1,2]');
    expect(toCell(-1, 'json', 'sheet')).toBe("'-1");
    expect(toCell('x', 'json', 'formula')).toBe('"x"');
  });

  test('missing and null values are blank cells, whatever the type', () => {
    for (const type of ['string', 'integer', 'float', 'boolean', 'datetime', 'list', 'json'] as const) {
      expect(toCell(undefined, type, 'sheet')).toBe('');
      expect(toCell(null, type, 'sheet')).toBe('');
    }
  });
});

describe('text safety', () => {
  test.each([
    '-12.5',
    '  =1',
    'Dec. 5',
    'sept 9',
    'june 1',
    'FALSE  ',
    '£3',
    '¥3',
    '(x',
    '$',
    'feb 5',
    'mar 5',
    'apr 5',
    'jun 5',
    'jul 5',
    'aug 5',
    'sep 5',
    'nov 5',
    'Jan  5',
  ])('%j is quoted in a sheet write', (text) => {
    expect(safeText(text, 'sheet')).toBe(`'${text}`);
  });

  test.each(['truest', 'junebug 5', 'Decade 5', 'sept', 'a=1', 'x-1'])(
    '%j stays as it is: Sheets keeps it as text',
    (text) => {
      expect(safeText(text, 'sheet')).toBe(text);
    },
  );

  test('the cut keeps the cell within the limit, marker included, and leaves text at the limit whole', () => {
    const long = 'y'.repeat(MAX_CELL_CHARS + 1);
    const cut = safeText(long, 'sheet');
    expect(cut).toHaveLength(MAX_CELL_CHARS);
    expect(cut).toBe('y'.repeat(MAX_CELL_CHARS - TRUNCATION_MARK.length) + TRUNCATION_MARK);
    expect(cut.endsWith('… [truncated]')).toBe(true);
    const quoted = safeText(`-${'y'.repeat(MAX_CELL_CHARS - 1)}`, 'sheet');
    expect(quoted).toHaveLength(MAX_CELL_CHARS);
    expect(quoted.startsWith("'-")).toBe(true);
    expect(quoted.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(safeText(`-${'y'.repeat(MAX_CELL_CHARS - 2)}`, 'sheet')).toBe(`'-${'y'.repeat(MAX_CELL_CHARS - 2)}`);
  });
});
