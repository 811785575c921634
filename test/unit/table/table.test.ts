import { FUND_FIELD_SPECS, LP_FIELD_SPECS } from '../../../src/api/records';
import { MAX_CELL_CHARS, safeText, toCell, TRUNCATION_MARK } from '../../../src/table/cells';
import { parseFields } from '../../../src/table/fields';
import { MAX_IDS, readFlag, readIds, readPositiveInt } from '../../../src/table/input';
import { rowsTable } from '../../../src/table/rows';
import { ServiceError } from '../../../src/api/errors';

describe('cell typing', () => {
  test('numbers, dates, booleans, lists and JSON by declared type', () => {
    expect(toCell(12.5, 'float', 'formula')).toBe(12.5);
    expect(toCell('42', 'integer', 'formula')).toBe(42);
    expect(toCell('2024-02-29T12:00:00.000Z', 'datetime', 'formula')).toEqual(new Date('2024-02-29T12:00:00.000Z'));
    expect(toCell('not a date', 'datetime', 'formula')).toBe('not a date');
    expect(toCell(['AI', 'SaaS'], 'list', 'formula')).toBe('AI, SaaS');
    expect(toCell([], 'list', 'formula')).toBe('');
    expect(toCell({ a: [1, 2] }, 'json', 'formula')).toBe('{"a":[1,2]}');
    expect(toCell('true', 'boolean', 'formula')).toBe(true);
    expect(toCell(null, 'float', 'formula')).toBe('');
    expect(toCell('firm as text', 'list', 'formula')).toBe('firm as text');
  });

  test('text that Sheets would parse gets a quote prefix when written to a sheet, never when returned by a formula', () => {
    for (const text of ['=HYPERLINK("x")', '+44 20', '-1+2', '@handle', "'quoted"]) {
      expect(toCell(text, 'string', 'sheet')).toBe(`'${text}`);
      expect(toCell(text, 'string', 'formula')).toBe(text);
    }
    expect(toCell(['=1', 'b'], 'list', 'sheet')).toBe("'=1, b");
    expect(toCell('plain', 'string', 'sheet')).toBe('plain');
    expect(toCell('00123', 'string', 'sheet')).toBe("'00123");
    expect(toCell(123, 'string', 'sheet')).toBe(123);
  });

  test('text Sheets would parse as a number, percent, currency, date, time or boolean gets a quote prefix in sheet writes only', () => {
    for (const text of [
      'TRUE',
      'false',
      '1/2/2023',
      '2020-01-02',
      '50%',
      '$1,000',
      '1,234',
      '(1,000)',
      '.5',
      '9:30',
      'Jan 2, 2023',
      'march 3 2024',
      '€5',
      ' 42',
    ]) {
      expect(safeText(text, 'sheet')).toBe(`'${text}`);
      expect(safeText(text, 'formula')).toBe(text);
    }
    for (const text of ['Acme Capital', 'lp_00005', 'TRUE story', 'Maybe 5', '', 'Marchant 2'])
      expect(safeText(text, 'sheet')).toBe(text);
  });

  test('text over 50,000 characters is cut with a marker, within the limit even with the prefix', () => {
    const cut = toCell('x'.repeat(60000), 'string', 'formula') as string;
    expect(cut.length).toBe(MAX_CELL_CHARS);
    expect(cut.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(safeText(`=${'x'.repeat(60000)}`, 'sheet').length).toBe(MAX_CELL_CHARS);
    expect(safeText('x'.repeat(MAX_CELL_CHARS), 'formula')).toBe('x'.repeat(MAX_CELL_CHARS));
  });
});

describe('field selection', () => {
  test('comma text or a range, any case, order kept, repeats dropped; blank means all', () => {
    expect(parseFields('fullName, FIRM,firm', LP_FIELD_SPECS, 'lp').map((f) => f.name)).toEqual(['fullName', 'firm']);
    expect(parseFields([['ticketSize'], [''], ['id']], LP_FIELD_SPECS, 'lp').map((f) => f.name)).toEqual([
      'ticketSize',
      'id',
    ]);
    expect(parseFields('', FUND_FIELD_SPECS, 'fund')).toHaveLength(58);
  });

  test('an unknown field names the valid ones', () => {
    expect(() => parseFields('fullName,nope', LP_FIELD_SPECS, 'limited partner')).toThrow(
      /Unknown limited partner field "nope"\. Valid fields: id, createdAt, .*labels\./,
    );
    expect(() => parseFields(5, LP_FIELD_SPECS, 'lp')).toThrow('Field names must be text');
  });
});

describe('formula arguments', () => {
  test('ids: a value or one column/row; blanks kept; duplicates fetched once', () => {
    expect(readIds('lp_1')).toEqual({ rows: ['lp_1'], unique: ['lp_1'], single: true, across: false, invalid: {} });
    expect(readIds([['a'], [''], ['b'], ['a'], [' c ']])).toEqual({
      rows: ['a', null, 'b', 'a', 'c'],
      unique: ['a', 'b', 'c'],
      single: false,
      across: false,
      invalid: {},
    });
    expect(readIds([['a', 'b', 'a']])).toEqual(expect.objectContaining({ unique: ['a', 'b'], across: true }));
    expect(readIds([['a', true, 'b\uD800']])).toEqual(
      expect.objectContaining({
        rows: ['a', null, null],
        unique: ['a'],
        invalid: { 1: expect.stringContaining('TRUE is not an id'), 2: expect.stringContaining('broken character') },
      }),
    );
    expect(readIds(12345).rows).toEqual(['12345']);
  });

  test('a blank id, whitespace only, or a range of blanks is no error: blank rows, nothing to fetch', () => {
    for (const blank of ['', '   ', null, undefined])
      expect(readIds(blank)).toEqual({ rows: [null], unique: [], single: true, across: false, invalid: {} });
    expect(readIds([['', ' \t']])).toEqual({
      rows: [null, null],
      unique: [],
      single: false,
      across: true,
      invalid: {},
    });
    expect(readIds([[''], ['  ']])).toEqual(expect.objectContaining({ rows: [null, null], unique: [] }));
    expect(() => readIds([[''], [true]])).toThrow('TRUE is not an id');
  });

  // Named by the message, not the input: a title holding today's date would differ on every run.
  test.each(
    (
      [
        [true, 'TRUE is not an id'],
        [new Date(), 'A date is not an id'],
        ['x'.repeat(1001), 'ids are at most 1,000'],
        [
          [
            ['a', 'b'],
            ['c', 'd'],
          ],
          'Pass one column or one row of ids (got 2 × 2)',
        ],
        [Array.from({ length: MAX_IDS + 1 }, (_, i) => [`id${i}`]), 'at most 20,000'],
      ] as Array<[Parameters<typeof readIds>[0], string]>
    ).map(([input, message]) => ({ input, message })),
  )('bad ids: $message', ({ input, message }) => {
    expect(() => readIds(input)).toThrow(message);
  });

  test('page/limit are whole numbers ≥ 1; headers TRUE/FALSE', () => {
    expect(readPositiveInt('', 'page', 1)).toBe(1);
    expect(readPositiveInt('3', 'page', 1)).toBe(3);
    for (const bad of [0, -1, 1.5, 'x', true])
      expect(() => readPositiveInt(bad, 'page', 1)).toThrow('page must be a whole number of 1 or more');
    expect(() => readPositiveInt(20000, 'limit', 1, 10000)).toThrow('limit must be at most 10,000');
    expect(readFlag('', 'headers', true)).toBe(true);
    expect(readFlag('false', 'headers', true)).toBe(false);
    expect(() => readFlag('maybe', 'headers', true)).toThrow('headers must be TRUE or FALSE');
  });
});

describe('rows', () => {
  const fields = LP_FIELD_SPECS.filter((f) => ['id', 'ticketSize'].includes(f.name));
  test('one row per input row, blanks blank, errors on their own row, a stale column only when needed', () => {
    const table = rowsTable(
      [
        { kind: 'record', record: { id: 'a', ticketSize: 5 } },
        { kind: 'blank' },
        { kind: 'error', error: new ServiceError('NOT_FOUND', 'Unknown limited partner id: x') },
      ],
      fields,
      true,
      'formula',
    );
    expect(table).toEqual([
      ['id', 'ticketSize'],
      ['a', 5],
      ['', ''],
      ['Error: Unknown limited partner id: x', ''],
    ]);
    const stale = rowsTable([{ kind: 'record', record: { id: 'a' }, staleSince: 0 }], fields, true, 'formula');
    expect(stale[0]).toEqual(['id', 'ticketSize', 'stale since']);
    expect(stale[1][2]).toEqual(new Date(0));
  });
});
