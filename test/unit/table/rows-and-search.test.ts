/**
 * Rows as a formula or setValues needs them (same width throughout, a "stale since" column only
 * when some row is stale, headers only when asked), and the search rules behind LP_FIND that the
 * ranking tests do not pin down: every letter decomposition leaves alone is folded, list fields
 * are searched element by element, inactive partners are never found, and ranking breaks ties by
 * match kind, then field group, then how many words matched in names, then input order.
 */
import { ServiceError } from '../../../src/api/errors';
import { LP_FIELD_SPECS, type ServiceRecord } from '../../../src/api/records';
import { rowsTable, STALE_HEADER } from '../../../src/table/rows';
import { normalize, readQuery, SEARCH_FIELDS, searchRecords } from '../../../src/table/search';

describe('rowsTable', () => {
  const fields = ['id', 'ticketSize', 'updatedAt'].map((name) => LP_FIELD_SPECS.find((f) => f.name === name)!);
  const at = Date.UTC(2024, 0, 1);

  test('no stale row: no stale column, and every row as wide as the fields', () => {
    const table = rowsTable(
      [{ kind: 'record', record: { id: 'a', ticketSize: '5' } }, { kind: 'blank' }],
      fields,
      false,
      'sheet',
    );
    expect(table).toEqual([
      ['a', 5, ''],
      ['', '', ''],
    ]);
  });

  test('one stale row among fresh ones: every row gets the column, only the stale one a date', () => {
    const table = rowsTable(
      [
        { kind: 'record', record: { id: 'a' } },
        { kind: 'record', record: { id: 'b', updatedAt: '2024-01-01T00:00:00Z' }, staleSince: at },
        { kind: 'error', error: new ServiceError('NOT_FOUND', '=bad') },
      ],
      fields,
      true,
      'sheet',
    );
    expect(table[0]).toEqual(['id', 'ticketSize', 'updatedAt', STALE_HEADER]);
    expect(table[1]).toEqual(['a', '', '', '']);
    expect(table[2]).toEqual(['b', '', new Date(at), new Date(at)]);
    expect(table[3]).toEqual(['Error: =bad', '', '', '']);
    expect(table.every((r) => r.length === 4)).toBe(true);
  });

  test('an error row is written safe for a sheet: text that starts like a formula keeps a quote', () => {
    const [row] = rowsTable([{ kind: 'error', error: new ServiceError('NOT_FOUND', 'x') }], fields, false, 'sheet');
    expect(row[0]).toBe('Error: x');
    const [quoted] = rowsTable([{ kind: 'record', record: { id: '=1+1' } }], fields, false, 'sheet');
    expect(quoted[0]).toBe("'=1+1");
  });
});

describe('search rules', () => {
  const lp = (id: string, fields: Record<string, unknown>): ServiceRecord =>
    ({ id, activeStatus: 'ACTIVE', ...fields }) as ServiceRecord;
  const ids = (records: ServiceRecord[]) => records.map((r) => r.id);

  test.each([
    ['ẞ', 'ss'],
    ['ð', 'd'],
    ['ħ', 'h'],
    ['ı', 'i'],
    ['ŀ', 'l '],
    ['ŧ', 't'],
    ['ŋ', 'n'],
    ['ĸ', 'k'],
    ['ſ', 's'],
    ['ς', 'σ'],
    ['ƒ', 'f'],
    ['ɨ', 'i'],
    ['ʉ', 'u'],
    ['ɛ', 'e'],
    ['ɔ', 'o'],
    ['æ', 'ae'],
    ['œ', 'oe'],
    ['ł', 'l'],
    ['đ', 'd'],
    ['þ', 'th'],
    ['ø', 'o'],
    ['ß', 'ss'],
  ])('%s folds to %s', (letter, folded) => {
    expect(normalize(`x${letter}y`)).toBe(`x${folded}y`);
  });

  test('several combining marks on one letter go together', () => {
    expect(normalize('a\u0301\u0308b')).toBe('ab');
  });

  test('list fields are searched element by element; numbers as text; other values not at all', () => {
    const records = [
      lp('a', { sectorsFocused: ['Fintech', 'Health'] }),
      lp('b', { headquarters: 2024 }),
      lp('c', { firm: { name: 'health' } }),
      lp('d', { fullName: null, firm: undefined, sectorsFocused: [null, 'Health'] }),
    ];
    expect(ids(searchRecords(records, 'health'))).toEqual(['a', 'd']);
    expect(ids(searchRecords(records, '2024'))).toEqual(['b']);
    expect(ids(searchRecords(records, 'fintech health'))).toEqual(['a']);
  });

  test('inactive partners are never found; a missing or null status, true, or ACTIVE in any case and spacing counts as active', () => {
    const records = [
      lp('a', { fullName: 'Ann', activeStatus: 'INACTIVE' }),
      lp('b', { fullName: 'Ann', activeStatus: undefined }),
      lp('c', { fullName: 'Ann', activeStatus: null }),
      lp('d', { fullName: 'Ann', activeStatus: 'active' }),
      lp('e', { fullName: 'Ann', activeStatus: ' Inactive\n' }),
      lp('f', { fullName: 'Ann', activeStatus: false }),
      lp('g', { fullName: 'Ann', activeStatus: ['INACTIVE'] }),
      lp('h', { fullName: 'Ann', activeStatus: 'ACTIVE ' }),
      lp('i', { fullName: 'Ann', activeStatus: true }),
      lp('j', { fullName: 'Ann', activeStatus: ' Active\n' }),
    ];
    expect(ids(searchRecords(records, 'ann'))).toEqual(['b', 'c', 'd', 'h', 'i', 'j']);
  });

  test('an exact whole-field match ranks first, and among exact matches a name before a firm', () => {
    const records = [
      lp('firm', { firm: 'Blue Ocean' }),
      lp('prefix', { fullName: 'Blue Oceans' }),
      lp('name', { fullName: 'Blue Ocean' }),
    ];
    expect(ids(searchRecords(records, 'blue ocean'))).toEqual(['name', 'firm', 'prefix']);
  });

  test('one word matching exactly ranks as a word prefix, not above other prefixes', () => {
    const records = [
      lp('sub', { fullName: 'Xannex' }),
      lp('exact', { fullName: 'Ann' }),
      lp('prefix', { fullName: 'Annabel' }),
    ];
    expect(ids(searchRecords(records, 'ann'))).toEqual(['exact', 'prefix', 'sub']);
  });

  test('each word counts by its best field, and a record by its weakest word', () => {
    const records = [
      lp('firm-weak', { fullName: 'Ann Lee', firm: 'Zeta' }),
      lp('both-names', { fullName: 'Ann Zeta' }),
      lp('sub', { fullName: 'Ann', firm: 'Ozeta' }),
    ];
    expect(ids(searchRecords(records, 'ann zeta'))).toEqual(['both-names', 'firm-weak', 'sub']);
  });

  test('a word matched in a name and again in a firm counts as the name (the better match)', () => {
    const records = [
      lp('b', { fullName: 'Zed', firm: 'Ann Capital', headquarters: 'Ann Arbor' }),
      lp('a', { fullName: 'Ann Smith', firm: 'Ann Capital' }),
    ];
    expect(ids(searchRecords(records, 'ann'))).toEqual(['a', 'b']);
  });

  test('a word matching a name and, later in the fields, a headquarters counts as the name', () => {
    const records = [
      lp('firm', { fullName: 'Bob', firm: 'Ann Co' }),
      lp('name', { fullName: 'Ann Lee', headquarters: 'Ann Arbor' }),
    ];
    expect(ids(searchRecords(records, 'ann'))).toEqual(['name', 'firm']);
  });

  test('a prefix match in a firm outranks a substring match in a name of the same record', () => {
    const records = [lp('mixed', { fullName: 'Xann', firm: 'Ann Co' }), lp('firm', { firm: 'Ann Ltd' })];
    expect(ids(searchRecords(records, 'ann'))).toEqual(['mixed', 'firm']);
  });

  test('fields given out of group order: a word still counts by its best match, kind first, then group', () => {
    const fields = [
      { name: 'firm', group: 1 as const },
      { name: 'fullName', group: 0 as const },
    ];
    const prefixes = [lp('both', { firm: 'Ann Co', fullName: 'Ann Lee' }), lp('name', { fullName: 'Ann X' })];
    expect(ids(searchRecords(prefixes, 'ann', { fields }))).toEqual(['both', 'name']);
    const kinds = [lp('mixed', { firm: 'Ann Co', fullName: 'Xann' }), lp('firm', { firm: 'Ann Ltd' })];
    expect(ids(searchRecords(kinds, 'ann', { fields }))).toEqual(['mixed', 'firm']);
  });

  test('a record ranks by its weakest word, whichever word of the query it is', () => {
    const records = [lp('weak-first', { fullName: 'Zed', headquarters: 'Ann' }), lp('firm', { firm: 'Ann Zed Co' })];
    expect(ids(searchRecords(records, 'ann zed'))).toEqual(['firm', 'weak-first']);
    expect(ids(searchRecords(records, 'zed ann'))).toEqual(['firm', 'weak-first']);
  });

  test('equal matches keep the input order', () => {
    const records = ['c', 'a', 'b'].map((id) => lp(id, { fullName: 'Ann' }));
    expect(ids(searchRecords(records, 'an'))).toEqual(['c', 'a', 'b']);
    expect(ids(searchRecords(records, 'ann'))).toEqual(['c', 'a', 'b']);
  });

  test('fields given out of group order: an exact match still counts by its best group', () => {
    const fields = [
      { name: 'firm', group: 1 as const },
      { name: 'fullName', group: 0 as const },
    ];
    const records = [lp('firm-only', { firm: 'Ann' }), lp('both', { firm: 'Ann', fullName: 'Ann' })];
    expect(ids(searchRecords(records, 'ann', { fields }))).toEqual(['both', 'firm-only']);
  });

  test('values that are neither text nor numbers are not searched (objects, booleans)', () => {
    const records = [lp('o', { firm: { name: 'x' } }), lp('t', { firm: true }), lp('s', { firm: 'object true' })];
    expect(ids(searchRecords(records, 'object'))).toEqual(['s']);
    expect(ids(searchRecords(records, 'true'))).toEqual(['s']);
    expect(ids(searchRecords(records, 'stryker'))).toEqual([]);
  });

  test('the fields searched can be given, with their groups', () => {
    const records = [lp('a', { email: 'ann@x.example' }), lp('b', { fullName: 'Ann' })];
    expect(ids(searchRecords(records, 'ann', { fields: [{ name: 'email', group: 0 }] }))).toEqual(['a']);
    expect(SEARCH_FIELDS.map((f) => `${f.name}:${f.group}`)).toEqual([
      'fullName:0',
      'name:0',
      'surname:0',
      'firm:1',
      'headquarters:2',
      'sectorsFocused:2',
    ]);
    expect(ids(searchRecords([lp('n', { name: 'Ann' }), lp('s', { surname: 'Ann' })], 'ann'))).toEqual(['n', 's']);
  });

  test('a query given already read is used as it is; a number is a query', () => {
    const records = [lp('a', { fullName: 'Ann 7' })];
    expect(ids(searchRecords(records, readQuery('ann')))).toEqual(['a']);
    expect(readQuery(7)).toEqual({ text: '7', normalized: '7', words: ['7'] });
    expect(() => readQuery(null)).toThrow('query is blank');
  });
});
