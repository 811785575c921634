/**
 * What checkFilters / checkSort (src/table/filter.ts) accept at their edges and how their
 * messages show what the analyst typed: limits taken exactly (200 characters, 100 any-of values,
 * 20 conditions), blank entries and lists of blanks, values of the wrong type, and values shown
 * as typed, trimmed, or cut short when long.
 */
import {
  checkFilters,
  checkSort,
  MAX_ANY_OF,
  MAX_CONDITIONS,
  MAX_VALUE_CHARS,
  FILTER_OPS,
} from '../../../src/table/filter';
import { badInputMessage } from '../../helpers/bad-input';

const refusal = (filters: unknown) => badInputMessage(() => checkFilters(filters));

describe('how a message shows what was typed', () => {
  test('text in quotes exactly as typed, trimmed', () => {
    expect(refusal([{ field: ' tick"et ', op: 'is', value: 1 }])).toBe(
      'Filter 1: unknown field "tick"et". See LP_FIELDS() for the field names.',
    );
  });
  test('a value that is not text as the data it is', () => {
    expect(refusal([{ field: 'email', op: 'isEmpty', value: ['x', 'y'] }])).toBe(
      'Filter 1 (email isEmpty): takes no value, got ["x","y"].',
    );
    expect(refusal([{ field: 'region', op: 'isAnyOf', value: { a: 1 } }])).toBe(
      'Filter 1 (region isAnyOf): needs a list of values, got {"a":1}.',
    );
  });
  test('a long text cut after 40 characters; one of 40 shown whole', () => {
    const forty = 'q'.repeat(40);
    expect(refusal([{ field: forty, op: 'is', value: 1 }])).toContain(`unknown field "${forty}".`);
    expect(refusal([{ field: `${forty}rst`, op: 'is', value: 1 }])).toContain(
      `unknown field "${'q'.repeat(39)}…". See`,
    );
  });
});

describe('fields and operators', () => {
  test('a field of spaces is no field', () => {
    expect(refusal([{ field: '   ', op: 'is', value: 1 }])).toBe('Filter 1: no field given.');
  });
  test('an operator that is not text is an unknown operator; a blank one is none', () => {
    const ops = `Operators: ${FILTER_OPS.join(', ')}.`;
    expect(refusal([{ field: 'firm', op: 5, value: 'x' }])).toBe(`Filter 1 (firm): unknown operator 5. ${ops}`);
    expect(refusal([{ field: 'firm', op: [], value: 'x' }])).toBe(`Filter 1 (firm): no operator given. ${ops}`);
  });
  test('an operator that does not fit lists, comma-separated, the ones that do', () => {
    expect(refusal([{ field: 'createdAt', op: 'contains', value: '2024' }])).toBe(
      'Filter 1 (createdAt contains): contains does not apply to createdAt, which holds a date; use is, atLeast, atMost, isEmpty, isNotEmpty.',
    );
  });
});

describe('values', () => {
  test(`a value of ${MAX_VALUE_CHARS} characters is taken, spaces around it not counted; one more is refused`, () => {
    const longest = 'x'.repeat(MAX_VALUE_CHARS);
    expect(checkFilters([{ field: 'firm', op: 'contains', value: `  ${longest}  ` }])).toEqual([
      { field: 'firm', op: 'contains', value: longest },
    ]);
    expect(refusal([{ field: 'firm', op: 'contains', value: ` ${longest}y ` }])).toBe(
      `Filter 1 (firm contains): the value is ${MAX_VALUE_CHARS + 1} characters long; at most ${MAX_VALUE_CHARS}.`,
    );
  });
  test('a number that is not finite is refused', () => {
    expect(refusal([{ field: 'ticketSize', op: 'atLeast', value: Number.NaN }])).toContain('needs a number');
    expect(refusal([{ field: 'ticketSize', op: 'atMost', value: Number.POSITIVE_INFINITY }])).toContain(
      'needs a number',
    );
  });
  test('a date is kept trimmed', () => {
    expect(checkFilters([{ field: 'createdAt', op: 'is', value: ' 2024-03-31 ' }])).toEqual([
      { field: 'createdAt', op: 'is', value: '2024-03-31' },
    ]);
  });
  test('a text field takes a number as its text, and refuses TRUE/FALSE', () => {
    expect(checkFilters([{ field: 'firm', op: 'is', value: 2024 }])).toEqual([
      { field: 'firm', op: 'is', value: '2024' },
    ]);
    expect(refusal([{ field: 'firm', op: 'is', value: true }])).toBe('Filter 1 (firm is): needs text, got true.');
  });
  test('a list of blanks is no value; a list holding any value is a list', () => {
    expect(checkFilters([{ field: 'email', op: 'isEmpty', value: ['', ' '] }])).toEqual([
      { field: 'email', op: 'isEmpty' },
    ]);
    expect(refusal([{ field: 'email', op: 'isEmpty', value: ['x', ''] }])).toBe(
      'Filter 1 (email isEmpty): takes no value, got ["x",""].',
    );
    expect(refusal([{ field: 'firm', op: 'is', value: ['', ' '] }])).toBe('Filter 1 (firm is): no value given.');
    expect(refusal([{ field: 'firm', op: 'is', value: ['a', ''] }])).toBe(
      'Filter 1 (firm is): takes one value, not a list.',
    );
  });
  test('isAnyOf with no value at all asks for a list', () => {
    expect(refusal([{ field: 'region', op: 'isAnyOf' }])).toBe('Filter 1 (region isAnyOf): needs a list of values.');
  });
  test(`isAnyOf takes ${MAX_ANY_OF} values; one more is refused`, () => {
    const values = Array.from({ length: MAX_ANY_OF + 1 }, (_, k) => `r${k}`);
    const [checked] = checkFilters([{ field: 'region', op: 'isAnyOf', value: values.slice(0, MAX_ANY_OF) }]);
    expect(checked.value).toHaveLength(MAX_ANY_OF);
    expect(refusal([{ field: 'region', op: 'isAnyOf', value: values }])).toBe(
      `Filter 1 (region isAnyOf): ${MAX_ANY_OF + 1} values; at most ${MAX_ANY_OF}.`,
    );
  });
});

describe('lists of conditions and sort keys', () => {
  test(`null is no filter; ${MAX_CONDITIONS} conditions are taken`, () => {
    expect(checkFilters(null)).toEqual([]);
    const most = Array.from({ length: MAX_CONDITIONS }, () => ({ field: 'firm', op: 'isNotEmpty' }));
    expect(checkFilters(most)).toHaveLength(MAX_CONDITIONS);
  });
  test.each<[string, unknown]>([
    ['null', null],
    ['text', 'firm'],
    ['a list', ['firm']],
  ])('a sort key that is %s is refused', (_, key) => {
    expect(badInputMessage(() => checkSort([{ field: 'name' }, key]))).toBe(
      'Sort key 2: expected a field and a direction.',
    );
  });
  test('a sort key whose direction is null sorts ascending', () => {
    expect(checkSort([{ field: 'firm', descending: null }])).toEqual([{ field: 'firm' }]);
  });
});
