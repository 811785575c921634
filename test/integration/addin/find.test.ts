/**
 * =LP_FIND in the deployed bundle against the reference service serving a seeded data file
 * (several pages of ordinary partners plus Müllers in names, a firm and an address, and one
 * inactive Müller): accent- and case-insensitive matching, the ranking, ids first then the
 * chosen fields, the limit, a warm second call with no requests, and clear messages for bad
 * queries.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addin } from '../../helpers/addin';
import { type RunningService, startService } from '../../helpers/service';

const filler = (i: number) => ({
  id: `lp_f${i}`,
  activeStatus: 'ACTIVE',
  fullName: `Filler Person ${i}`,
  firm: `Generic Fund ${i}`,
  headquarters: 'Oslo',
  sectorsFocused: ['Logistics'],
});
const SEEDED = [
  {
    id: 'lp_hq',
    activeStatus: 'ACTIVE',
    fullName: 'Ola Nordmann',
    firm: 'Fjord Partners',
    headquarters: 'Müllerstraße 5, Zürich',
    sectorsFocused: ['Climate'],
  },
  {
    id: 'lp_firm',
    activeStatus: 'ACTIVE',
    fullName: 'Eva Stone',
    firm: 'Müller Ventures',
    headquarters: 'Hamburg',
    sectorsFocused: ['SaaS'],
  },
  {
    id: 'lp_anna',
    activeStatus: 'ACTIVE',
    fullName: 'Anna Müller',
    firm: 'Nordlicht Capital',
    headquarters: 'München',
    sectorsFocused: ['Fintech', 'Climate'],
  },
  {
    id: 'lp_gone',
    activeStatus: 'INACTIVE',
    fullName: 'Karl Müller',
    firm: 'Old Money',
    headquarters: 'Bonn',
    sectorsFocused: ['Fintech'],
  },
  {
    id: 'lp_jonas',
    activeStatus: 'ACTIVE',
    fullName: 'Jonas MÜLLER-Schmidt',
    firm: 'Alpha',
    headquarters: 'Berlin',
    sectorsFocused: ['Health'],
  },
  {
    id: 'lp_exact',
    activeStatus: 'ACTIVE',
    fullName: 'Muller',
    firm: 'Solo',
    headquarters: 'Paris',
    sectorsFocused: [],
  },
];
// The seeded partners spread over the pages of the list (100 a page).
const PARTNERS = Array.from({ length: 260 }, (_, i) => filler(i)).flatMap((p, i) =>
  i % 40 === 39 ? [p, SEEDED[(i - 39) / 40]] : [p],
);

let svc: RunningService;
beforeAll(async () => {
  expect(PARTNERS.filter((p) => p.fullName.startsWith('Filler'))).toHaveLength(260);
  expect(PARTNERS).toHaveLength(260 + SEEDED.length);
  const file = join(mkdtempSync(join(tmpdir(), 'find-')), 'data.json');
  writeFileSync(file, JSON.stringify({ limitedPartners: PARTNERS, ventureFunds: [] }));
  svc = await startService(['--data', file, '--max-page-size', '100']);
});
afterAll(() => svc.stop());

const HEADER = ['id', 'fullName', 'firm', 'headquarters', 'sectorsFocused'];

describe('LP_FIND against the reference service', () => {
  test('muller finds every active Müller, ranked: exact name, names, firm, address; ids first; headers by default', () => {
    const a = addin(svc.url);
    const cell = a.cell('LP_FIND', 'muller');
    expect(cell.error).toBeUndefined();
    expect(cell.value).toEqual([
      HEADER,
      ['lp_exact', 'Muller', 'Solo', 'Paris', ''],
      ['lp_anna', 'Anna Müller', 'Nordlicht Capital', 'München', 'Fintech, Climate'],
      ['lp_jonas', 'Jonas MÜLLER-Schmidt', 'Alpha', 'Berlin', 'Health'],
      ['lp_firm', 'Eva Stone', 'Müller Ventures', 'Hamburg', 'SaaS'],
      ['lp_hq', 'Ola Nordmann', 'Fjord Partners', 'Müllerstraße 5, Zürich', 'Climate'],
    ]);
    expect(cell.run.ledger.fetches).toBeGreaterThanOrEqual(3); // the whole list, every page
    // Warm, from the snapshot's column copies of the fields it reads: the same partners, the inactive one still out.
    const warm = a.cell('LP_FIND', 'MULLER');
    expect(warm.run.ledger.fetches).toBe(0);
    expect(warm.value).toEqual(cell.value);
  });

  test('case and accents do not matter; every word must match; hq and sector are searched', () => {
    const a = addin(svc.url);
    const ids = (query: string) =>
      ((a.cell('LP_FIND', query, 'id', '', false).value || []) as unknown[][]).map((r) => r[0]);
    expect(ids('MÜLLER')).toEqual(ids('muller'));
    expect(ids('Müller')).toEqual(ids('muller'));
    expect(ids('MUNCHEN')).toEqual(['lp_anna']);
    expect(ids('anna fintech')).toEqual(['lp_anna']);
    expect(ids('muller climate')).toEqual(['lp_anna', 'lp_hq']);
    expect(ids('muller schmidt')).toEqual(['lp_jonas']);
    expect(ids('müller tokyo')).toEqual([]);
  });

  test('limit and fields: the best matches only, id then the chosen fields; a warm second call sends nothing', () => {
    const a = addin(svc.url);
    expect(a.cell('LP_FIND', 'muller', 'firm, headquarters', 2).value).toEqual([
      ['id', 'firm', 'headquarters'],
      ['lp_exact', 'Solo', 'Paris'],
      ['lp_anna', 'Nordlicht Capital', 'München'],
    ]);
    const warm = a.cell('LP_FIND', 'müller', [['fullName']], '3', true);
    expect(warm.run.ledger.fetches).toBe(0);
    expect(warm.value).toEqual([
      ['id', 'fullName'],
      ['lp_exact', 'Muller'],
      ['lp_anna', 'Anna Müller'],
      ['lp_jonas', 'Jonas MÜLLER-Schmidt'],
    ]);
  });

  test("nothing found says so in the cell (as Sheets' FILTER does), with or without headers", () => {
    const a = addin(svc.url);
    for (const cell of [a.cell('LP_FIND', 'zzyzx'), a.cell('LP_FIND', 'zzyzx', '', '', false)]) {
      expect(cell.value).toBeUndefined();
      expect(cell.error).toBe(
        'No active limited partner matches "zzyzx": every word must be in a name, firm, headquarters or sector.',
      );
    }
  });

  test.each([
    ['a blank query', ['  '], 'query is blank: type a name, firm, headquarters or sector to find.'],
    ['only punctuation', ['?!'], 'query "?!" holds no letters or digits to search for.'],
    ['a range of cells', [[['muller'], ['anna']]], 'query takes one value, not a range (got 2 × 1 cells).'],
    ['a query over 200 characters', ['m'.repeat(201)], 'query is 201 characters long; at most 200.'],
    ['a bad limit', ['muller', '', 0], 'limit must be a whole number of 1 or more (got 0).'],
    ['an unknown field', ['muller', 'fullname, shoeSize'], 'Unknown limited partner field'],
  ])('%s gives a clear message and sends nothing', (_, args, message) => {
    const cell = addin(svc.url).cell('LP_FIND', ...(args as unknown[]));
    expect(cell.error).toContain(message);
    expect(cell.run.ledger.fetches).toBe(0);
  });
});
