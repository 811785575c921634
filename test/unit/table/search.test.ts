/**
 * The search behind LP_FIND (src/table/search.ts): case- and accent-insensitive normalization,
 * every query word required, the ranking (exact > word prefix > substring; name > firm >
 * headquarters/sector; ties in input order), the limit, and the clear messages for bad queries.
 */
import type { ServiceRecord } from '../../../src/api/records';
import {
  MAX_QUERY_CHARS,
  normalize,
  readFindLimit,
  readQuery,
  SEARCH_READS,
  searchRecords,
} from '../../../src/table/search';
import { badInputMessage } from '../../helpers/bad-input';

const lp = (id: string, fields: Partial<Record<string, unknown>> = {}): ServiceRecord =>
  ({
    id,
    fullName: `Person ${id}`,
    firm: 'Acme',
    headquarters: 'Paris',
    sectorsFocused: ['SaaS'],
    activeStatus: 'ACTIVE',
    ...fields,
  }) as ServiceRecord;
const ids = (records: ServiceRecord[]) => records.map((r) => r.id);

describe('normalize', () => {
  test.each([
    ['Müller', 'muller'],
    ['MÜLLER', 'muller'],
    ['Mu\u0308ller', 'muller'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['Ørsted', 'orsted'],
    ['Ærø', 'aero'],
    ['Łódź', 'lodz'],
    ['Đorđević', 'dordevic'],
    ['Þór', 'thor'],
    ['Œuvre', 'oeuvre'],
    ['François', 'francois'],
    ['São Paulo', 'sao paulo'],
    ['İstanbul', 'istanbul'],
    ['ﬁnance', 'finance'],
    ['Ｆｕｌｌ', 'full'],
    ["  O'Brien   &  Co.,  Ltd ", 'o brien co ltd'],
    ['a---b__c', 'a b c'],
    ['Zoë-Ann', 'zoe ann'],
    ['!!!', ''],
  ])('%s → %s', (input, out) => {
    expect(normalize(input)).toBe(out);
  });
});

describe('searchRecords', () => {
  test('muller finds Müller, MÜLLER and Mueller only where it is a match; case and accents do not matter', () => {
    const records = [
      lp('a', { fullName: 'Anna Müller' }),
      lp('b', { fullName: 'Bob MÜLLER' }),
      lp('c', { fullName: 'Carl Mueller' }),
      lp('d', { fullName: 'Dora Smith' }),
    ];
    expect(ids(searchRecords(records, 'muller'))).toEqual(['a', 'b']);
    expect(ids(searchRecords(records, 'MÜLLER'))).toEqual(['a', 'b']);
    expect(ids(searchRecords(records, 'mueller'))).toEqual(['c']);
  });

  test('every query word must match, in any of the searched fields', () => {
    const records = [
      lp('a', { fullName: 'Anna Berg', firm: 'Nordic Capital', headquarters: 'Oslo' }),
      lp('b', { fullName: 'Anna Lind', firm: 'Baltic Ventures', headquarters: 'Oslo' }),
    ];
    expect(ids(searchRecords(records, 'anna nordic'))).toEqual(['a']);
    expect(ids(searchRecords(records, 'anna oslo'))).toEqual(['a', 'b']);
    expect(ids(searchRecords(records, 'anna tokyo'))).toEqual([]);
    expect(ids(searchRecords(records, 'saas anna'))).toEqual(['a', 'b']);
  });

  test('exact whole-field match > word prefix > substring, whatever the input order', () => {
    const records = [
      lp('sub', { fullName: 'Jo Eastern' }),
      lp('prefix', { fullName: 'Stern Adams' }),
      lp('exact', { fullName: 'Stern' }),
    ];
    expect(ids(searchRecords(records, 'stern'))).toEqual(['exact', 'prefix', 'sub']);
  });

  test('at the same kind of match: name > firm > headquarters or sector', () => {
    const records = [
      lp('sector', { sectorsFocused: ['Atlas Robotics'] }),
      lp('hq', { headquarters: 'Atlas City' }),
      lp('firm', { firm: 'Atlas Partners' }),
      lp('name', { fullName: 'Atlas Jones' }),
    ];
    expect(ids(searchRecords(records, 'atlas'))).toEqual(['name', 'firm', 'sector', 'hq']);
    // An exact firm beats a name that only starts with the word.
    expect(
      ids(searchRecords([lp('name', { fullName: 'Atlas Jones' }), lp('firm', { firm: 'Atlas' })], 'atlas')),
    ).toEqual(['firm', 'name']);
  });

  test('a record ranks by its weakest word; ties keep input order', () => {
    const records = [
      lp('firm', { fullName: 'Eva Stone', firm: 'Lindberg' }),
      lp('name', { fullName: 'Eva Lindqvist' }),
      lp('t1', { fullName: 'Eva Lind' }),
      lp('t2', { fullName: 'Eva Lind' }),
    ];
    // t1, t2: the whole field is the query; name: both words start name words; firm: "lind" only starts a firm word.
    expect(ids(searchRecords(records, 'eva lind'))).toEqual(['t1', 't2', 'name', 'firm']);
    // In another order no field is exactly the query: word prefixes in names, in input order, then the firm.
    expect(ids(searchRecords(records, 'lind eva'))).toEqual(['name', 't1', 't2', 'firm']);
  });

  test('at the same weakest word, more words matching in names and firms rank higher', () => {
    const records = [
      lp('hq', { fullName: 'Ola N', headquarters: 'Berlin', sectorsFocused: ['Climate'] }),
      lp('name', { fullName: 'Berlin Smith', sectorsFocused: ['Climate'] }),
    ];
    expect(ids(searchRecords(records, 'berlin climate'))).toEqual(['name', 'hq']);
  });

  test('lists are searched element by element; inactive partners are left out', () => {
    const records = [
      lp('a', { sectorsFocused: ['Fintech', 'Climate'] }),
      lp('b', { sectorsFocused: ['Climate'], activeStatus: 'INACTIVE' }),
      lp('c', { sectorsFocused: null, headquarters: null }),
    ];
    expect(ids(searchRecords(records, 'climate'))).toEqual(['a']);
  });

  test('records holding only the fields SEARCH_READS names are searched as the whole records are (what LP_FIND reads)', () => {
    const records = [
      lp('a', { name: 'Ada', surname: 'Climate', sectorsFocused: ['Fintech'], description: 'x' }),
      lp('b', { sectorsFocused: ['Climate'], activeStatus: 'INACTIVE' }),
      lp('c', { firm: 'Climate Co', fullName: 'Cleo', activeStatus: ['ACTIVE'] }),
      lp('d', { headquarters: 'Climate City', activeStatus: { toString: 1 } }),
      lp('e', { fullName: 'Climate', activeStatus: null }),
    ];
    const has = Object.prototype.hasOwnProperty;
    const read = records.map((r) =>
      Object.fromEntries(['id', ...SEARCH_READS].filter((f) => has.call(r, f)).map((f) => [f, r[f]])),
    );
    expect(ids(searchRecords(read, 'climate'))).toEqual(ids(searchRecords(records, 'climate')));
    expect(ids(searchRecords(read, 'climate'))).toEqual(['a', 'e', 'c']);
  });

  test('at most `limit`, best first; the default is 50', () => {
    const records = Array.from({ length: 120 }, (_, i) => lp(`p${i}`, { fullName: i === 77 ? 'Zed' : `Zed ${i}` }));
    expect(ids(searchRecords(records, 'zed', { limit: 3 }))).toEqual(['p77', 'p0', 'p1']);
    expect(searchRecords(records, 'zed')).toHaveLength(50);
  });

  test('the searched fields can be chosen', () => {
    const records = [lp('a', { firm: 'Orion' }), lp('b', { fullName: 'Orion Smith' })];
    expect(ids(searchRecords(records, 'orion', { fields: [{ name: 'firm', group: 1 }] }))).toEqual(['a']);
  });
});

describe('readQuery and readFindLimit: bad arguments give a clear message', () => {
  test('a good query: trimmed, normalized, split into words; a one-cell range is its cell; a number is text', () => {
    expect(readQuery('  Müller  Capital ')).toEqual({
      text: 'Müller  Capital',
      normalized: 'muller capital',
      words: ['muller', 'capital'],
    });
    expect(readQuery([['Berlin']]).words).toEqual(['berlin']);
    expect(readQuery(42).words).toEqual(['42']);
  });

  test.each([
    ['blank', '   ', 'query is blank: type a name, firm, headquarters or sector to find.'],
    ['empty cell', '', 'query is blank: type a name, firm, headquarters or sector to find.'],
    ['only punctuation', '?!-', 'query "?!-" holds no letters or digits to search for.'],
    ['a boolean', true, 'query must be text: the name, firm, headquarters or sector to find.'],
    ['a range of cells', [['a'], ['b']], 'query takes one value, not a range (got 2 × 1 cells).'],
  ])('%s', (_, input, message) => {
    expect(badInputMessage(() => readQuery(input))).toBe(message);
  });

  test('over 200 characters is refused; exactly 200 is fine', () => {
    expect(readQuery('a'.repeat(MAX_QUERY_CHARS)).words).toHaveLength(1);
    expect(badInputMessage(() => readQuery('a'.repeat(MAX_QUERY_CHARS + 1)))).toBe(
      'query is 201 characters long; at most 200.',
    );
  });

  test('limit: blank is 50; a whole number from 1 to 5,000; anything else says what is expected', () => {
    expect(readFindLimit(undefined)).toBe(50);
    expect(readFindLimit('')).toBe(50);
    expect(readFindLimit('7')).toBe(7);
    expect(badInputMessage(() => readFindLimit(0))).toBe('limit must be a whole number of 1 or more (got 0).');
    expect(badInputMessage(() => readFindLimit(2.5))).toBe('limit must be a whole number of 1 or more (got 2.5).');
    expect(badInputMessage(() => readFindLimit(5001))).toBe('limit must be at most 5,000 (got 5,001).');
    expect(badInputMessage(() => readFindLimit([[1, 2]]))).toBe(
      'limit takes one value, not a range (got 1 × 2 cells).',
    );
  });
});
