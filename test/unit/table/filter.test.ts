/**
 * The filter and sort engine (src/table/filter.ts) shared by saved imports and LP_FILTER:
 * numbers, dates, list fields, accents and case, empty values, any-of, up to three sort keys
 * with blanks last and ties in input order, and the messages that refuse bad filters and sorts.
 */
import type { ServiceRecord } from '../../../src/api/records';
import {
  applyQuery,
  checkFilters,
  checkSort,
  commonValues,
  compareText,
  describeQuery,
  type FilterCondition,
  MAX_CONDITIONS,
  opsFor,
  type SortKey,
} from '../../../src/table/filter';
import { badInputMessage } from '../../helpers/bad-input';

const lp = (id: string, fields: Record<string, unknown> = {}): ServiceRecord =>
  ({ id, activeStatus: 'ACTIVE', ...fields }) as ServiceRecord;
const ids = (records: ServiceRecord[]) => records.map((r) => r.id);
const run = (records: ServiceRecord[], filters: unknown[], sort: unknown[] = []) =>
  ids(applyQuery(records, { filters: checkFilters(filters), sort: checkSort(sort) }));

describe('numbers', () => {
  const records = [
    lp('a', { ticketSize: 500000 }),
    lp('b', { ticketSize: 1000000 }),
    lp('c', { ticketSize: '2500000' }),
    lp('d', { ticketSize: null }),
    lp('e', { ticketSize: 'n/a' }),
  ];
  test('atLeast and atMost include the bound; numeric text from the service counts, blanks and non-numbers never match', () => {
    expect(run(records, [{ field: 'ticketSize', op: 'atLeast', value: 1000000 }])).toEqual(['b', 'c']);
    expect(run(records, [{ field: 'ticketSize', op: 'atMost', value: '1000000' }])).toEqual(['a', 'b']);
    expect(
      run(records, [
        { field: 'ticketSize', op: 'atLeast', value: 600000 },
        { field: 'ticketSize', op: 'atMost', value: 2000000 },
      ]),
    ).toEqual(['b']);
  });
  test('is and isAnyOf compare as numbers', () => {
    expect(run(records, [{ field: 'ticketSize', op: 'is', value: '2500000.0' }])).toEqual(['c']);
    expect(run(records, [{ field: 'ticketSize', op: 'isAnyOf', value: ['500000', '2500000'] }])).toEqual(['a', 'c']);
    expect(
      run(
        [lp('x', { totalPortfolio: 12 }), lp('y', { totalPortfolio: 13 })],
        [{ field: 'totalPortfolio', op: 'is', value: 12 }],
      ),
    ).toEqual(['x']);
  });
});

describe('dates', () => {
  const records = [
    lp('a', { createdAt: '2024-03-01T00:00:00Z' }),
    lp('b', { createdAt: '2024-03-31T23:59:59Z' }),
    lp('c', { createdAt: '2024-04-01T00:00:00.000Z' }),
    lp('d', { createdAt: null }),
    lp('e', { createdAt: 'soon' }),
  ];
  test('a day without a time covers the whole day at either bound', () => {
    expect(run(records, [{ field: 'createdAt', op: 'atLeast', value: '2024-03-31' }])).toEqual(['b', 'c']);
    expect(run(records, [{ field: 'createdAt', op: 'atMost', value: '2024-03-31' }])).toEqual(['a', 'b']);
    expect(run(records, [{ field: 'createdAt', op: 'is', value: '2024-03-31' }])).toEqual(['b']);
  });
  test('a date and time is an instant', () => {
    expect(run(records, [{ field: 'createdAt', op: 'atLeast', value: '2024-03-31T23:59:59Z' }])).toEqual(['b', 'c']);
    expect(run(records, [{ field: 'createdAt', op: 'atMost', value: '2024-03-31T12:00:00Z' }])).toEqual(['a']);
  });
});

describe('text, accents and list fields', () => {
  const records = [
    lp('a', {
      fullName: 'Anna Müller',
      headquarters: 'Zürich',
      region: ['Europe', 'North America'],
      sectorsFocused: ['FinTech', 'Health Care'],
    }),
    lp('b', { fullName: 'BOB MULLER', headquarters: 'zurich', region: ['Asia'], sectorsFocused: [] }),
    lp('c', {
      fullName: 'Carl Mueller',
      headquarters: 'São Paulo',
      region: ['South America', 'Europe'],
      sectorsFocused: ['Énergie'],
    }),
    lp('d', { fullName: 'Dora', headquarters: '', region: null, sectorsFocused: ['', null] }),
  ];
  test('is, contains and startsWith ignore case and accents as LP_FIND does', () => {
    expect(run(records, [{ field: 'headquarters', op: 'is', value: 'ZURICH' }])).toEqual(['a', 'b']);
    expect(run(records, [{ field: 'fullName', op: 'contains', value: 'müller' }])).toEqual(['a', 'b']);
    expect(run(records, [{ field: 'headquarters', op: 'startsWith', value: 'sao' }])).toEqual(['c']);
    expect(run(records, [{ field: 'fullName', op: 'is', value: 'anna muller' }])).toEqual(['a']);
  });
  test('on a list field a condition holds when any element meets it', () => {
    expect(run(records, [{ field: 'region', op: 'is', value: 'europe' }])).toEqual(['a', 'c']);
    expect(run(records, [{ field: 'sectorsFocused', op: 'startsWith', value: 'energ' }])).toEqual(['c']);
    expect(run(records, [{ field: 'sectorsFocused', op: 'contains', value: 'care' }])).toEqual(['a']);
    // "is" on a list is a whole element, not a part of one.
    expect(run(records, [{ field: 'region', op: 'is', value: 'America' }])).toEqual([]);
  });
  test('isAnyOf matches any listed value, on plain and list fields', () => {
    expect(run(records, [{ field: 'region', op: 'isAnyOf', value: ['asia', 'SOUTH AMERICA'] }])).toEqual(['b', 'c']);
    expect(run(records, [{ field: 'headquarters', op: 'isAnyOf', value: ['Sao Paulo', 'Berlin', ''] }])).toEqual(['c']);
  });
  test('empty values: null, missing, blank text, an empty list and a list of blanks are all empty', () => {
    expect(run(records, [{ field: 'sectorsFocused', op: 'isEmpty' }])).toEqual(['b', 'd']);
    expect(run(records, [{ field: 'region', op: 'isEmpty' }])).toEqual(['d']);
    expect(run(records, [{ field: 'headquarters', op: 'isNotEmpty' }])).toEqual(['a', 'b', 'c']);
    expect(run(records, [{ field: 'email', op: 'isEmpty' }])).toEqual(['a', 'b', 'c', 'd']);
    // An empty value never meets a condition on its content.
    expect(run(records, [{ field: 'region', op: 'contains', value: 'a' }])).toEqual(['a', 'b', 'c']);
  });
  test('all conditions must hold', () => {
    expect(
      run(records, [
        { field: 'region', op: 'is', value: 'Europe' },
        { field: 'fullName', op: 'contains', value: 'muller' },
      ]),
    ).toEqual(['a']);
  });
});

describe('sort', () => {
  test('text sorts as a person reads it: case and accents do not split runs, digits by value, ties keep input order', () => {
    const records = [
      lp('1', { firm: 'émile' }),
      lp('2', { firm: 'Fund 10' }),
      lp('3', { firm: 'Emile' }),
      lp('4', { firm: 'fund 9' }),
      lp('5', { firm: 'EMILE' }),
      lp('6', { firm: 'Zeta' }),
    ];
    expect(run(records, [], [{ field: 'firm' }])).toEqual(['1', '3', '5', '4', '2', '6']);
    expect(run(records, [], [{ field: 'firm', descending: true }])).toEqual(['6', '2', '4', '1', '3', '5']);
  });
  test('three keys, mixed directions; blanks last in either direction', () => {
    const records = [
      lp('a', { region: ['Europe'], ticketSize: 5, createdAt: '2024-01-02' }),
      lp('b', { region: ['asia'], ticketSize: 5, createdAt: '2024-01-01' }),
      lp('c', { region: ['Europe'], ticketSize: 9, createdAt: '2024-01-01' }),
      lp('d', { region: ['Europe'], ticketSize: 5, createdAt: '2024-01-01' }),
      lp('e', { region: null, ticketSize: 1, createdAt: '2024-01-01' }),
      lp('f', { region: ['europe'], ticketSize: null, createdAt: '2023-01-01' }),
      lp('g', { region: ['Europe'], ticketSize: 5, createdAt: null }),
    ];
    const sort: SortKey[] = [{ field: 'region' }, { field: 'ticketSize', descending: true }, { field: 'createdAt' }];
    expect(run(records, [], sort)).toEqual(['b', 'c', 'd', 'a', 'g', 'f', 'e']);
    expect(run(records, [], [{ field: 'ticketSize' }])).toEqual(['e', 'a', 'b', 'd', 'g', 'c', 'f']);
    expect(run(records, [], [{ field: 'ticketSize', descending: true }])).toEqual(['c', 'a', 'b', 'd', 'g', 'e', 'f']);
  });
  test('filter and sort together, without sort the input order stays', () => {
    const records = [lp('a', { ticketSize: 3 }), lp('b', { ticketSize: 1 }), lp('c', { ticketSize: 2 })];
    expect(run(records, [{ field: 'ticketSize', op: 'atLeast', value: 2 }])).toEqual(['a', 'c']);
    expect(run(records, [{ field: 'ticketSize', op: 'atLeast', value: 2 }], [{ field: 'ticketSize' }])).toEqual([
      'c',
      'a',
    ]);
  });
  test('compareText', () => {
    expect(compareText('a 2', 'a 10')).toBeLessThan(0);
    expect(compareText('a 02', 'a 2')).toBeGreaterThan(0);
    expect(compareText('abc', 'abd')).toBeLessThan(0);
    expect(compareText('ab', 'ab 1')).toBeLessThan(0);
    expect(compareText('x', 'x')).toBe(0);
  });
});

describe('checking', () => {
  test('canonical output: field names as the catalogue spells them, operators by name in any case, numbers as numbers', () => {
    const checked: FilterCondition[] = checkFilters([
      { field: 'Ticket Size', op: 'AT LEAST', value: ' 1000 ' },
      { field: 'region', op: 'is_any_of', value: [' Europe ', '', 'Asia'] },
      { field: 'email', op: 'isEmpty', value: '' },
    ]);
    expect(checked).toEqual([
      { field: 'ticketSize', op: 'atLeast', value: 1000 },
      { field: 'region', op: 'isAnyOf', value: ['Europe', 'Asia'] },
      { field: 'email', op: 'isEmpty' },
    ]);
    expect(
      checkSort([
        { field: 'FIRM', descending: false },
        { field: 'ticketsize', descending: true },
      ]),
    ).toEqual([{ field: 'firm' }, { field: 'ticketSize', descending: true }]);
    expect(checkFilters(undefined)).toEqual([]);
    expect(checkSort(null)).toEqual([]);
  });
  test.each<[string, unknown[], string]>([
    ['an unknown field', [{ field: 'tickets', op: 'is', value: 1 }], 'Filter 1: unknown field "tickets"'],
    ['a missing field', [{ op: 'is', value: 1 }], 'Filter 1: no field given'],
    ['an unknown operator', [{ field: 'firm', op: 'like', value: 'x' }], 'Filter 1 (firm): unknown operator "like"'],
    [
      'an operator that does not fit text',
      [{ field: 'firm', op: 'atLeast', value: 'x' }],
      'Filter 1 (firm atLeast): atLeast does not apply to firm, which holds text',
    ],
    [
      'an operator that does not fit numbers',
      [{ field: 'ticketSize', op: 'contains', value: '1' }],
      'Filter 1 (ticketSize contains): contains does not apply to ticketSize, which holds a number',
    ],
    [
      'an operator that does not fit dates',
      [{ field: 'createdAt', op: 'startsWith', value: '2024' }],
      'does not apply to createdAt, which holds a date',
    ],
    [
      'a missing value',
      [
        { field: 'firm', op: 'is', value: 'x' },
        { field: 'firm', op: 'contains' },
      ],
      'Filter 2 (firm contains): no value given',
    ],
    [
      'a number that is not one',
      [{ field: 'ticketSize', op: 'atLeast', value: 'lots' }],
      'Filter 1 (ticketSize atLeast): needs a number, got "lots"',
    ],
    [
      'a date that is not one',
      [{ field: 'updatedAt', op: 'atMost', value: '31/12/2024' }],
      'Filter 1 (updatedAt atMost): needs a date as YYYY-MM-DD',
    ],
    [
      'a date given as a number',
      [{ field: 'updatedAt', op: 'atMost', value: 45000 }],
      'needs a date as YYYY-MM-DD (or a date and time), got 45000',
    ],
    [
      'isAnyOf without a list',
      [{ field: 'region', op: 'isAnyOf', value: 'Europe' }],
      'Filter 1 (region isAnyOf): needs a list of values, got "Europe"',
    ],
    [
      'isAnyOf with an empty list',
      [{ field: 'region', op: 'isAnyOf', value: ['', ' '] }],
      'Filter 1 (region isAnyOf): no values given',
    ],
    [
      'isAnyOf with a bad number',
      [{ field: 'ticketSize', op: 'isAnyOf', value: ['1', 'two'] }],
      'Filter 1 (ticketSize isAnyOf), value 2: needs a number, got "two"',
    ],
    [
      'a list where one value goes',
      [{ field: 'firm', op: 'is', value: ['a', 'b'] }],
      'Filter 1 (firm is): takes one value, not a list',
    ],
    [
      'a value for isEmpty',
      [{ field: 'firm', op: 'isEmpty', value: 'x' }],
      'Filter 1 (firm isEmpty): takes no value, got "x"',
    ],
    ['text with nothing to compare', [{ field: 'firm', op: 'contains', value: '---' }], 'holds no letters or digits'],
    [
      'an over-long value',
      [{ field: 'firm', op: 'contains', value: 'x'.repeat(201) }],
      'the value is 201 characters long; at most 200',
    ],
    ['a condition that is not an object', ['firm is x'], 'Filter 1: expected a field, an operator and a value'],
  ])('refuses %s', (_, filters, message) => {
    expect(badInputMessage(() => checkFilters(filters))).toContain(message);
  });
  test('refuses filters that are not a list, and too many conditions', () => {
    expect(badInputMessage(() => checkFilters({ field: 'firm' }))).toContain('Filters must be a list');
    const many = Array.from({ length: MAX_CONDITIONS + 1 }, () => ({ field: 'firm', op: 'isNotEmpty' }));
    expect(badInputMessage(() => checkFilters(many))).toContain(
      `${MAX_CONDITIONS + 1} filter conditions; at most ${MAX_CONDITIONS}`,
    );
  });
  test.each<[string, unknown, string]>([
    [
      'four keys',
      [{ field: 'firm' }, { field: 'name' }, { field: 'region' }, { field: 'ticketSize' }],
      '4 sort keys; at most 3',
    ],
    ['an unknown field', [{ field: 'firm' }, { field: 'size' }], 'Sort key 2: unknown field "size"'],
    ['a field twice', [{ field: 'firm' }, { field: 'Firm', descending: true }], 'Sort key 2: sorts by firm twice'],
    [
      'a direction that is not TRUE/FALSE',
      [{ field: 'firm', descending: 'down' }],
      'Sort key 1 (firm): descending must be TRUE or FALSE, got "down"',
    ],
    ['not a list', 'firm', 'Sort must be a list'],
  ])('refuses a sort with %s', (_, sort, message) => {
    expect(badInputMessage(() => checkSort(sort))).toContain(message);
  });
  test('operators by field type, for the editor', () => {
    expect(opsFor('ticketSize')).toContain('atLeast');
    expect(opsFor('region')).toContain('contains');
    expect(opsFor('region')).not.toContain('atMost');
    expect(opsFor('nope')).toEqual([]);
  });
  test('describeQuery says what a saved import keeps and how it sorts', () => {
    expect(
      describeQuery({
        filters: checkFilters([
          { field: 'ticketSize', op: 'atLeast', value: 5 },
          { field: 'region', op: 'isAnyOf', value: ['Europe', 'Asia'] },
          { field: 'email', op: 'isNotEmpty' },
        ]),
        sort: checkSort([{ field: 'firm' }, { field: 'ticketSize', descending: true }]),
      }),
    ).toBe('ticketSize ≥ 5 and region is any of Europe | Asia and email is not empty; sorted by firm, ticketSize ↓');
    expect(describeQuery({ filters: [], sort: [] })).toBe('');
  });
});

describe('commonValues', () => {
  test('most frequent first, list elements counted, spellings that compare equal counted once as first met', () => {
    const records = [
      lp('a', { region: ['Europe', 'Asia'], headquarters: 'Zürich' }),
      lp('b', { region: ['europe'], headquarters: 'ZURICH' }),
      lp('c', { region: ['Africa', 'EUROPE'], headquarters: 'Oslo' }),
      lp('d', { region: null, headquarters: 'x'.repeat(61) }),
      lp('e', { region: ['Asia', ''], headquarters: 'zurich' }),
    ];
    expect(commonValues(records, 'region')).toEqual(['Europe', 'Asia', 'Africa']);
    expect(commonValues(records, 'headquarters')).toEqual(['Zürich', 'Oslo']);
    expect(commonValues(records, 'region', 1)).toEqual(['Europe']);
    expect(commonValues(records, 'email')).toEqual([]);
  });
});
