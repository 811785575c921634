/**
 * How =LP_FILTER reads its conditions and sort arguments at their edges (src/table/filter-args.ts):
 * what counts as blank, which first row is a header and which only looks like one, a value's
 * surrounding spaces (never part of it, nor of what a message quotes), an invalid date cell, and
 * sort text: blank cells and empty parts skipped, a direction only as a whole last word, and a
 * name never cut short.
 */
import { readConditions, readSortArg } from '../../../src/table/filter-args';
import { badInputMessage } from '../../helpers/bad-input';

describe('conditions', () => {
  test('spaces only, null and rows of blanks mean no condition', () => {
    expect(readConditions('   ')).toEqual([]);
    expect(readConditions(null)).toEqual([]);
    expect(
      readConditions([
        ['  ', null, '\n'],
        ['firm', 'isNotEmpty', ' '],
      ]),
    ).toEqual([{ field: 'firm', op: 'isNotEmpty' }]);
  });

  test.each([[['Field', 'Operator', 'Value']], [[' field ', ' op ', '']], [['FIELD', 'OPERATOR']]])(
    'a first row %j is a header and is skipped',
    (header) => {
      expect(readConditions([header, ['firm', 'is', 'Acme']])).toEqual([{ field: 'firm', op: 'is', value: 'Acme' }]);
    },
  );

  test.each([
    [['field', 'is', 'x'], 'unknown field "field"'],
    [['Column', 'Operator', 'Value'], 'unknown field "Column"'],
    [['field', 'loop', 'x'], 'unknown field "field"'],
    [['field', 'options', 'x'], 'unknown field "field"'],
    [['field', 5, 'x'], 'unknown field "field"'],
    [[5, 'operator', 'x'], 'no field given'],
  ])('a first row %j only looks like a header: it is a condition, and a wrong one', (row, message) => {
    expect(badInputMessage(() => readConditions([row, ['firm', 'is', 'Acme']]))).toContain(
      `conditions row 1: ${message}`,
    );
  });

  test('a header row anywhere but first is a condition, and a wrong one', () => {
    expect(
      badInputMessage(() =>
        readConditions([
          ['firm', 'is', 'Acme'],
          ['field', 'operator', 'value'],
        ]),
      ),
    ).toContain('conditions row 2: unknown field "field"');
  });

  test('blank cells after the value are not more values', () => {
    expect(readConditions([['firm', 'is', 'Acme', '', null, '  ']])).toEqual([
      { field: 'firm', op: 'is', value: 'Acme' },
    ]);
  });

  test("a value's surrounding spaces are not part of it, nor of what a message quotes", () => {
    expect(badInputMessage(() => readConditions([['ticketSize', 'is', '  lots  ']]))).toBe(
      'conditions row 1 (ticketSize is): needs a number, got "lots".',
    );
    expect(badInputMessage(() => readConditions([['ticketSize', 'isAnyOf', '5; lots ']]))).toContain('got "lots"');
  });

  test('an invalid date cell is refused as such', () => {
    expect(badInputMessage(() => readConditions([['createdAt', 'atLeast', new Date(Number.NaN)]]))).toContain(
      'got "an invalid date"',
    );
  });
});

describe('sort', () => {
  test('no sort: nothing, null or blank cells', () => {
    expect(readSortArg(undefined)).toEqual([]);
    expect(readSortArg(null)).toEqual([]);
    expect(
      readSortArg([
        ['firm', null],
        [undefined, '  '],
      ]),
    ).toEqual([{ field: 'firm' }]);
  });

  test('a flat list of cells reads like a column', () => {
    expect(readSortArg(['region', 'desc'])).toEqual([{ field: 'region', descending: true }]);
  });

  test('empty parts and spaces around a part are skipped', () => {
    expect(readSortArg('firm,, ticket size desc ,')).toEqual([
      { field: 'firm' },
      { field: 'ticketSize', descending: true },
    ]);
  });

  test('a direction is only a whole last word', () => {
    expect(badInputMessage(() => readSortArg('firm descx'))).toContain('unknown field "firm descx"');
    expect(badInputMessage(() => readSortArg('desc  asc'))).toBe('sort: "desc" must follow a field name.');
  });

  test('a name is never cut short: a carriage return inside it leaves it unknown, not shortened', () => {
    expect(badInputMessage(() => readSortArg('firm\rticketSize desc'))).toContain('unknown field');
  });
});

describe('a date cell in a spreadsheet whose time zone is not UTC', () => {
  /** The wall clock of a spreadsheet in `zone`, as Utilities.formatDate gives it there. */
  const wallTimeIn = (zone: string) => (d: Date) =>
    new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' })
      .format(d)
      .replace(' ', 'T');

  test.each([
    ['Europe/Berlin', '2023-12-31T23:00:00Z'],
    ['America/New_York', '2024-01-01T05:00:00Z'],
    ['Asia/Kolkata', '2023-12-31T18:30:00Z'],
  ])('is the day it shows there (%s: 1 Jan 2024 arrives as %s)', (zone, instant) => {
    expect(readConditions([['createdAt', 'is', new Date(instant)]], undefined, wallTimeIn(zone))).toEqual([
      { field: 'createdAt', op: 'is', value: '2024-01-01' },
    ]);
  });

  test('a cell that holds a time too is its instant, whatever the zone', () => {
    const at = new Date('2024-01-01T10:30:00Z');
    expect(readConditions([['createdAt', 'atLeast', at]], undefined, wallTimeIn('Europe/Berlin'))).toEqual([
      { field: 'createdAt', op: 'atLeast', value: '2024-01-01T10:30:00.000Z' },
    ]);
  });
});
