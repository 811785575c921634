/**
 * LP_FILTER's arguments (src/table/filter-args.ts): a conditions range with or without a header,
 * blank rows skipped, isAnyOf values across cells and split at ";", date and TRUE/FALSE cells,
 * messages that name the row; sort as text or a range with asc/desc; the limit.
 */
import { MAX_NAME_TEXT, readConditions, readFilterLimit, readSortArg } from '../../../src/table/filter-args';
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

/** The least CPU time (µs) `run` takes over `times` tries: the process's own time, which other load does not add to. */
function leastCpu(run: () => void, times = 5): number {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const before = process.cpuUsage();
    run();
    const used = process.cpuUsage(before);
    least = Math.min(least, used.user + used.system);
  }
  return least;
}

/** A sort text a backtracking "(.*?)\s+(desc)$" pattern takes quadratic time over: a word, spaces, no direction at the end. */
const spaced = (n: number): string => `firm${' '.repeat(n - 5)}x`;

describe('long texts are refused by their length, before any pattern reads them', () => {
  test('ten LP_FILTER sort arguments of 50,000 characters: each refused by its length, not by what it says', () => {
    for (let i = 0; i < 10; i++) {
      expect(badInputMessage(() => readSortArg(spaced(50000)))).toBe(
        'sort: a text is 50,000 characters long; at most 1,000.',
      );
    }
    // A cell of a sort range too, even after other cells.
    expect(badInputMessage(() => readSortArg([['firm'], ['x'.repeat(MAX_NAME_TEXT + 1)]]))).toBe(
      'sort: a text is 1,001 characters long; at most 1,000.',
    );
  });

  test('refusing ten 50,000-character sort texts costs about what refusing ten 5,000-character ones does', () => {
    const refuse = (n: number) => () => {
      for (let i = 0; i < 10; i++) badInputMessage(() => readSortArg(spaced(n)));
    };
    const small = leastCpu(refuse(5000), 3);
    const large = leastCpu(refuse(50000), 3);
    // Linear would be at most 10 times; the quadratic pattern was 100 times (about 39 s of CPU for the ten).
    expect(large).toBeLessThan(30 * Math.max(small, 1000));
  });

  test('a sort text at the limit is read in linear time: ten times the text costs about ten times the CPU, not a hundred', () => {
    // A valid key whose words are far apart: the backtracking pattern tried every split of it.
    const text = (n: number) => `ticket${' '.repeat(n - 10)}size`;
    expect(readSortArg(text(MAX_NAME_TEXT))).toEqual([{ field: 'ticketSize' }]);
    // 200 reads of each, so each measurement is well above the clock's grain. Measured: about 1.4 times
    // with linear parsing, 58 times with the pattern.
    const reads = (n: number) => () => {
      for (let i = 0; i < 200; i++) readSortArg(text(n));
    };
    const small = leastCpu(reads(MAX_NAME_TEXT / 10));
    const large = leastCpu(reads(MAX_NAME_TEXT));
    expect(large).toBeLessThan(20 * Math.max(small, 1000));
  });

  test("a condition's field or operator over 1,000 characters, or a value over a cell's 50,000, is refused naming its row", () => {
    const long = (n: number) => `a${' '.repeat(n - 2)}b`;
    expect(
      badInputMessage(() =>
        readConditions([
          ['region', 'is', 'Europe'],
          [long(1001), 'is', 'x'],
        ]),
      ),
    ).toBe('conditions row 2: the field is 1,001 characters long; at most 1,000.');
    expect(badInputMessage(() => readConditions([['region', long(5000), 'x']]))).toBe(
      'conditions row 1: the operator is 5,000 characters long; at most 1,000.',
    );
    expect(badInputMessage(() => readConditions([['region', 'isAnyOf', 'Europe', long(50001)]]))).toBe(
      'conditions row 1: a value is 50,001 characters long; at most 50,000.',
    );
    // Refused before the rows are read: a later row's length is named even when an earlier row is wrong in another way.
    expect(
      badInputMessage(() =>
        readConditions([
          ['nofield', 'is', 'x'],
          ['region', 'is', long(60000)],
        ]),
      ),
    ).toBe('conditions row 2: a value is 60,000 characters long; at most 50,000.');
  });
});

test('readFilterLimit: default 1,000, at most 20,000', () => {
  expect(readFilterLimit('')).toBe(1000);
  expect(readFilterLimit(20000)).toBe(20000);
  expect(badInputMessage(() => readFilterLimit(20001))).toContain('at most 20,000');
});
