/**
 * Filters and sort on the kinds of field only fund records hold (src/table/filter.ts with the fund
 * catalogue): TRUE/FALSE fields (is TRUE / is FALSE, TRUE after FALSE in a sort, blanks last) and
 * structured (JSON) fields, which take only isEmpty / isNotEmpty and cannot be sorted on.
 */
import { FUND_FIELD_SPECS, type ServiceRecord } from '../../../src/api/records';
import { applyQuery, checkFilters, checkSort, opsFor } from '../../../src/table/filter';
import { badInputMessage } from '../../helpers/bad-input';

const fund = (id: string, fields: Record<string, unknown> = {}): ServiceRecord => ({ id, ...fields }) as ServiceRecord;
const ids = (records: ServiceRecord[]) => records.map((r) => r.id);
const run = (records: ServiceRecord[], filters: unknown[], sort: unknown[] = []) =>
  ids(
    applyQuery(
      records,
      { filters: checkFilters(filters, FUND_FIELD_SPECS), sort: checkSort(sort, FUND_FIELD_SPECS) },
      FUND_FIELD_SPECS,
    ),
  );

describe('operators by kind of field', () => {
  test('a TRUE/FALSE field takes is and the emptiness tests; a structured field only the emptiness tests', () => {
    expect(opsFor('isUnified', FUND_FIELD_SPECS)).toEqual(['is', 'isEmpty', 'isNotEmpty']);
    expect(opsFor('team', FUND_FIELD_SPECS)).toEqual(['isEmpty', 'isNotEmpty']);
    expect(opsFor('createdAt', FUND_FIELD_SPECS)).toEqual(['is', 'atLeast', 'atMost', 'isEmpty', 'isNotEmpty']);
  });
  test('an operator that does not fit names the kind of data and the operators that do', () => {
    expect(
      badInputMessage(() => checkFilters([{ field: 'isUnified', op: 'contains', value: 'x' }], FUND_FIELD_SPECS)),
    ).toBe(
      'Filter 1 (isUnified contains): contains does not apply to isUnified, which holds TRUE/FALSE; use is, isEmpty, isNotEmpty.',
    );
    expect(badInputMessage(() => checkFilters([{ field: 'team', op: 'is', value: 'x' }], FUND_FIELD_SPECS))).toBe(
      'Filter 1 (team is): is does not apply to team, which holds structured data; use isEmpty, isNotEmpty.',
    );
  });
});

describe('TRUE/FALSE values', () => {
  test('TRUE or FALSE in any case and spacing, or as a boolean, is kept as true / false', () => {
    expect(
      checkFilters(
        [
          { field: 'isUnified', op: 'is', value: ' TRUE ' },
          { field: 'isUnified', op: 'is', value: 'False' },
          { field: 'isUnified', op: 'is', value: true },
          { field: 'isUnified', op: 'is', value: false },
        ],
        FUND_FIELD_SPECS,
      ),
    ).toEqual([
      { field: 'isUnified', op: 'is', value: 'true' },
      { field: 'isUnified', op: 'is', value: 'false' },
      { field: 'isUnified', op: 'is', value: 'true' },
      { field: 'isUnified', op: 'is', value: 'false' },
    ]);
  });
  test.each<[unknown, string]>([
    ['yes', '"yes"'],
    [1, '1'],
    ['truee', '"truee"'],
  ])('refuses %p for a TRUE/FALSE field', (value, shown) => {
    expect(badInputMessage(() => checkFilters([{ field: 'isUnified', op: 'is', value }], FUND_FIELD_SPECS))).toBe(
      `Filter 1 (isUnified is): needs TRUE or FALSE, got ${shown}.`,
    );
  });
  const records = [
    fund('a', { isUnified: true }),
    fund('b', { isUnified: false }),
    fund('c', { isUnified: ' TRUE ' }),
    fund('d', { isUnified: 'false' }),
    fund('e', { isUnified: null }),
    fund('f', { isUnified: 'maybe' }),
    fund('g', { isUnified: 'True?' }),
  ];
  test('is TRUE / is FALSE match booleans and their text in any case; a blank or other text, even around TRUE, matches neither', () => {
    expect(run(records, [{ field: 'isUnified', op: 'is', value: 'TRUE' }])).toEqual(['a', 'c']);
    expect(run(records, [{ field: 'isUnified', op: 'is', value: 'FALSE' }])).toEqual(['b', 'd']);
    expect(run(records, [{ field: 'isUnified', op: 'isEmpty' }])).toEqual(['e']);
  });
  test('a sort puts FALSE before TRUE (TRUE first descending), text read as the filter reads it, blanks last', () => {
    const sortable = [
      fund('a', { isUnified: true }),
      fund('b', { isUnified: null }),
      fund('c', { isUnified: 'FALSE' }),
      fund('d', { isUnified: ' True ' }),
      fund('e', { isUnified: false }),
    ];
    expect(run(sortable, [], [{ field: 'isUnified' }])).toEqual(['c', 'e', 'a', 'd', 'b']);
    expect(run(sortable, [], [{ field: 'isUnified', descending: true }])).toEqual(['a', 'd', 'c', 'e', 'b']);
  });
  test('in a sort, a value that is not TRUE counts as FALSE', () => {
    const sortable = [fund('a', { isUnified: 'yes' }), fund('b', { isUnified: true }), fund('c', { isUnified: 0 })];
    expect(run(sortable, [], [{ field: 'isUnified', descending: true }])).toEqual(['b', 'a', 'c']);
  });
});

describe('structured values', () => {
  test('isEmpty / isNotEmpty tell a structured value from a missing one', () => {
    const records = [fund('a', { team: [{ name: 'Ada' }] }), fund('b', { team: null }), fund('c', {})];
    expect(run(records, [{ field: 'team', op: 'isNotEmpty' }])).toEqual(['a']);
    expect(run(records, [{ field: 'metadata', op: 'isEmpty' }])).toEqual(['a', 'b', 'c']);
  });
  test('a sort on a structured field is refused', () => {
    expect(badInputMessage(() => checkSort([{ field: 'name' }, { field: 'Team' }], FUND_FIELD_SPECS))).toBe(
      'Sort key 2: team holds structured data and cannot be sorted on.',
    );
  });
});
