/**
 * Formula arguments as Sheets passes them: ids (a value or one row or column of a range, blank
 * and whitespace-only cells kept as blank rows, a bad cell failing only its own row), page and
 * limit (whole numbers written in plain decimal digits only: "0x10" or "1e1" are refused, not
 * read as 16 or 10), headers (TRUE/FALSE, 1/0, or that text) and field lists.
 */
import { grouped } from '../../../src/api/numbers';
import { FUND_FIELD_SPECS, LP_FIELD_SPECS } from '../../../src/api/records';
import { flattenCells, parseFields } from '../../../src/table/fields';
import { idText, MAX_ID_LENGTH, MAX_IDS, oneValue, readFlag, readIds, readPositiveInt } from '../../../src/table/input';

describe('ids', () => {
  test.each([' ', '   ', '\t', '\n', ' \u00a0 '])(
    'a cell holding only whitespace (%j) is a blank row, not an error',
    (space) => {
      expect(idText(space)).toBeNull();
      expect(readIds([['lp_1'], [space], ['lp_2']])).toEqual({
        rows: ['lp_1', null, 'lp_2'],
        unique: ['lp_1', 'lp_2'],
        single: false,
        across: false,
        invalid: {},
      });
    },
  );

  test('ids are trimmed; numbers become their text; null and undefined are blank', () => {
    expect(idText('  lp_1 ')).toBe('lp_1');
    expect(idText(7)).toBe('7');
    expect(idText(null)).toBeNull();
    expect(idText(undefined)).toBeNull();
  });

  test('an id of exactly the longest length is accepted, one more character is not', () => {
    expect(idText('x'.repeat(MAX_ID_LENGTH))).toHaveLength(MAX_ID_LENGTH);
    expect(() => idText('x'.repeat(MAX_ID_LENGTH + 1))).toThrow(
      `An id is ${grouped(MAX_ID_LENGTH + 1)} characters long; ids are at most ${grouped(MAX_ID_LENGTH)}.`,
    );
  });

  test.each([
    [Number.NaN, 'An id is not a finite number.'],
    [Number.POSITIVE_INFINITY, 'An id is not a finite number.'],
    [false, 'FALSE is not an id: pass id text or a range of ids.'],
    [new Date(0), 'A date is not an id: pass id text or a range of ids.'],
    [{}, 'Not an id: pass id text or a range of ids.'],
    ['a\uDC00', 'An id holds a broken character (half of a UTF-16 surrogate pair) and cannot be sent.'],
    ['a\uD800b', 'An id holds a broken character (half of a UTF-16 surrogate pair) and cannot be sent.'],
    ['\uDC00a', 'An id holds a broken character (half of a UTF-16 surrogate pair) and cannot be sent.'],
  ])('%p is not an id: %s', (cell, message) => {
    expect(() => idText(cell)).toThrow(message);
    expect(() => readIds(cell)).toThrow(message);
  });

  test('a surrogate pair whole is a character, not a broken one', () => {
    expect(idText('lp_😀')).toBe('lp_😀');
  });

  test('a single blank value is a blank row; a range whose only cells are bad says why the first one is', () => {
    expect(readIds(' ')).toEqual({ rows: [null], unique: [], single: true, across: false, invalid: {} });
    expect(() => readIds([[true], [new Date(0)]])).toThrow('TRUE is not an id');
  });

  test('a row of ids comes back as a row; a column, or one cell of a range, as a column', () => {
    expect(readIds([['a', 'b']])).toMatchObject({ across: true, single: false });
    expect(readIds([['a']])).toMatchObject({ across: false, single: false, rows: ['a'] });
    expect(readIds(['a', 'b'])).toMatchObject({ across: false, rows: ['a', 'b'] });
  });

  test(`exactly ${MAX_IDS} distinct ids are fetched; one more is refused`, () => {
    const ids = Array.from({ length: MAX_IDS }, (_, i) => [`id${i}`]);
    expect(readIds(ids).unique).toHaveLength(MAX_IDS);
    expect(() => readIds([...ids, ['one more']])).toThrow(
      `${grouped(MAX_IDS + 1)} distinct ids in one formula; at most ${grouped(MAX_IDS)}. Split the range.`,
    );
  });
});

describe('page and limit', () => {
  test.each(['0x10', '1e1', '1.0', '+3', '-3', '3a', '٣', '1_000', ' 0 '])(
    '%j is refused: whole numbers are written in plain decimal digits',
    (text) => {
      expect(() => readPositiveInt(text, 'page', 1)).toThrow(
        `page must be a whole number of 1 or more (got ${JSON.stringify(text)}).`,
      );
    },
  );

  test('1 is the smallest value accepted', () => {
    expect(readPositiveInt(1, 'page', 5)).toBe(1);
    expect(readPositiveInt('1', 'page', 5)).toBe(1);
  });

  test('digits with spaces around them, numbers, a one-cell range; blank is the default', () => {
    expect(readPositiveInt(' 12 ', 'limit', 100)).toBe(12);
    expect(readPositiveInt(5, 'limit', 100)).toBe(5);
    expect(readPositiveInt([[7]], 'limit', 100)).toBe(7);
    expect(readPositiveInt(null, 'limit', 100)).toBe(100);
    expect(readPositiveInt(undefined, 'limit', undefined)).toBeUndefined();
    expect(readPositiveInt([[]], 'limit', 9)).toBe(9);
  });

  test('the largest allowed value is accepted, one more is refused; the default maximum is a million', () => {
    expect(readPositiveInt(10000, 'limit', 1, 10000)).toBe(10000);
    expect(() => readPositiveInt('10001', 'limit', 1, 10000)).toThrow('limit must be at most 10,000 (got 10,001).');
    expect(readPositiveInt(1_000_000, 'page', 1)).toBe(1_000_000);
    expect(() => readPositiveInt(1_000_001, 'page', 1)).toThrow('page must be at most 1,000,000 (got 1,000,001).');
  });

  test('a range of several cells is refused with its size; a long bad value is shown cut', () => {
    expect(() =>
      readPositiveInt(
        [
          [1, 2],
          [3, 4],
        ],
        'page',
        1,
      ),
    ).toThrow('page takes one value, not a range (got 2 × 2 cells).');
    expect(() => oneValue([[1], [2], [3]], 'limit')).toThrow('limit takes one value, not a range (got 3 × 1 cells).');
    expect(() => oneValue([1, 2], 'limit')).toThrow('limit takes one value, not a range (got 2 × 1 cells).');
    expect(() => readPositiveInt('x'.repeat(100), 'page', 1)).toThrow(`(got "${'x'.repeat(39)}).`);
  });
});

describe('headers', () => {
  test.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['TRUE', true],
    [' false ', false],
    [' TRUE ', true],
    ['True', true],
    ['', true],
    [null, true],
    [undefined, true],
    [[[false]], false],
  ])('%j reads as %j', (input, flag) => {
    expect(readFlag(input, 'headers', true)).toBe(flag);
  });

  test.each(['yes', 2, 'truex', 'xfalse'])('%j is refused', (input) => {
    expect(() => readFlag(input, 'headers', true)).toThrow(
      `headers must be TRUE or FALSE (got ${JSON.stringify(input)}).`,
    );
  });

  test('a long refused value is shown cut to 40 characters', () => {
    expect(() => readFlag('y'.repeat(100), 'headers', true)).toThrow(
      `headers must be TRUE or FALSE (got "${'y'.repeat(39)}).`,
    );
  });
});

describe('field lists', () => {
  test('commas, semicolons and new lines separate names; spaces inside a name are ignored', () => {
    expect(parseFields('full name;firm\nid', LP_FIELD_SPECS, 'lp').map((f) => f.name)).toEqual([
      'fullName',
      'firm',
      'id',
    ]);
    expect(
      parseFields(
        [
          [null, 'firm'],
          [undefined, ''],
        ],
        LP_FIELD_SPECS,
        'lp',
      ).map((f) => f.name),
    ).toEqual(['firm']);
    expect(parseFields(' , ;', FUND_FIELD_SPECS, 'fund')).toHaveLength(FUND_FIELD_SPECS.length);
  });

  test('a field name that is not text says what it is; a long unknown name is shown cut', () => {
    expect(() => parseFields([[true]], LP_FIELD_SPECS, 'lp')).toThrow('Field names must be text; got boolean.');
    expect(() => parseFields(3, LP_FIELD_SPECS, 'lp')).toThrow('Field names must be text; got a number.');
    expect(() => parseFields('z'.repeat(50), LP_FIELD_SPECS, 'lp')).toThrow(
      `Unknown lp field "${'z'.repeat(40)}…". Valid fields: `,
    );
    expect(() => parseFields('z'.repeat(40), LP_FIELD_SPECS, 'lp')).toThrow(
      `Unknown lp field "${'z'.repeat(40)}". Valid fields: `,
    );
  });

  test('flattenCells: a value is a list of one, a range its cells in order', () => {
    expect(flattenCells('a')).toEqual(['a']);
    expect(flattenCells([['a', 'b'], ['c']])).toEqual(['a', 'b', 'c']);
  });
});
