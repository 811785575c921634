/**
 * LP_FILTER's arguments (src/table/filter-args.ts): a conditions range with or without a header,
 * blank rows skipped, isAnyOf values across cells and split at ";", date and TRUE/FALSE cells,
 * messages that name the row; sort as text or a range with asc/desc; the limit.
 */
import { readConditions, readFilterLimit, readSortArg } from '../../../src/table/filter-args';
import { badInputMessage } from '../../helpers/bad-input';

describe('readConditions', () => {
  test('rows of field | operator | value; a header row and blank rows are skipped; blank means no condition', () => {
    expect(
      readConditions([
        ['Field', 'Operator', 'Value'],
        ['ticket size', 'at least', 1000],
        ['', '', ''],
        ['email', 'is empty', ''],
      ]),
    ).toEqual([
      { field: 'ticketSize', op: 'atLeast', value: 1000 },
      { field: 'email', op: 'isEmpty' },
    ]);
    expect(readConditions('')).toEqual([]);
    expect(readConditions(undefined)).toEqual([]);
    expect(
      readConditions([
        ['', ''],
        ['', ''],
      ]),
    ).toEqual([]);
  });
  test('isAnyOf takes every cell from the third on, each split at ";" or a line break', () => {
    expect(readConditions([['region', 'isAnyOf', 'Europe; Asia', 'North America\nOceania', '']])).toEqual([
      { field: 'region', op: 'isAnyOf', value: ['Europe', 'Asia', 'North America', 'Oceania'] },
    ]);
    expect(readConditions([['ticketSize', 'is any of', 5, 10]])).toEqual([
      { field: 'ticketSize', op: 'isAnyOf', value: ['5', '10'] },
    ]);
  });
  test('a date cell is its day (or its instant); a boolean cell is TRUE/FALSE', () => {
    expect(
      readConditions([
        ['createdAt', 'atLeast', new Date('2024-02-29T00:00:00Z')],
        ['updatedAt', 'atMost', new Date('2024-02-29T10:30:00Z')],
      ]),
    ).toEqual([
      { field: 'createdAt', op: 'atLeast', value: '2024-02-29' },
      { field: 'updatedAt', op: 'atMost', value: '2024-02-29T10:30:00.000Z' },
    ]);
    expect(badInputMessage(() => readConditions([['ticketSize', 'is', true]]))).toBe(
      'conditions row 1 (ticketSize is): needs a number, got "TRUE".',
    );
  });
  test('messages name the row in the range', () => {
    expect(
      badInputMessage(() =>
        readConditions([
          ['field', 'op', 'value'],
          ['firm', 'is', 'x'],
          ['firm', 'is', 'a', 'b'],
        ]),
      ),
    ).toBe('conditions row 3 (firm is): takes one value, not a list.');
    expect(badInputMessage(() => readConditions([['firm', '', 'x']]))).toContain(
      'conditions row 1 (firm): no operator given. Operators: is, isAnyOf',
    );
    expect(badInputMessage(() => readConditions('firm is x'))).toContain('conditions must be a range of rows');
    expect(badInputMessage(() => readConditions(Array.from({ length: 21 }, () => ['firm', 'isNotEmpty'])))).toContain(
      'more than 20 rows',
    );
  });
});

describe('readSortArg', () => {
  test('text or a range; each field optionally followed by asc or desc', () => {
    expect(readSortArg('firm, ticket size desc; createdAt ASC')).toEqual([
      { field: 'firm' },
      { field: 'ticketSize', descending: true },
      { field: 'createdAt' },
    ]);
    expect(
      readSortArg([
        ['region', 'descending'],
        ['firm', ''],
      ]),
    ).toEqual([{ field: 'region', descending: true }, { field: 'firm' }]);
    expect(readSortArg('')).toEqual([]);
  });
  test('refuses a direction without a field, a non-text cell and too many keys', () => {
    expect(badInputMessage(() => readSortArg('desc, firm'))).toBe('sort: "desc" must follow a field name.');
    expect(badInputMessage(() => readSortArg([['firm', 'desc', 'asc']]))).toBe('sort: "asc" must follow a field name.');
    expect(badInputMessage(() => readSortArg([['firm', true]]))).toContain(
      'sort takes field names, each optionally followed by asc or desc; got "TRUE"',
    );
    expect(badInputMessage(() => readSortArg('a, b, c, d'))).toContain('4 sort keys; at most 3');
  });
});

test('readFilterLimit: default 1,000, at most 20,000', () => {
  expect(readFilterLimit('')).toBe(1000);
  expect(readFilterLimit(20000)).toBe(20000);
  expect(badInputMessage(() => readFilterLimit(20001))).toContain('at most 20000');
});
