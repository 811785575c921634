/**
 * =LP_MATCH in the deployed bundle against the reference service serving a seeded data file: the
 * ranking with its reasons, the fields and weights chosen, a warm call that asks only for the fund
 * (the partners come from the shared snapshot), and a clear message, with no partner read, for a
 * wrong fund id, a fund with none of the fields the ranking compares, and an empty partner list.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addin } from '../../helpers/addin';
import { FUND, PERFECT } from '../../helpers/match-fixtures';
import { type RunningService, startService } from '../../helpers/service';

const filler = (i: number) => ({
  id: `lp_f${String(i).padStart(3, '0')}`,
  activeStatus: 'ACTIVE',
  fullName: `Filler ${i}`,
  sectorsFocused: i % 3 === 0 ? ['Biotech'] : ['SaaS'],
  investmentFocus: ['Growth'],
});
const SEEDED = [
  { ...PERFECT, id: 'lp_best', activeStatus: 'ACTIVE', fullName: 'Zoë Weiß', firm: 'Émile Capital' },
  {
    id: 'lp_sect',
    activeStatus: 'ACTIVE',
    fullName: 'Anna Müller',
    sectorsFocused: ['fintech', 'ai'],
    investmentFocus: ['SEED'],
    ticketSize: 40_000_000,
    investorType: ['Pension Fund'],
  },
  { ...PERFECT, id: 'lp_gone', activeStatus: 'INACTIVE', fullName: 'Gone' },
];
const PARTNERS = [...Array.from({ length: 230 }, (_, i) => filler(i)), ...SEEDED];
const FUNDS = [
  { ...FUND, id: 'vf_test', name: 'Test Fund' },
  { id: 'vf_bare', name: 'Bare Fund', industries: [], region: [] },
];

let svc: RunningService;
let empty: RunningService;
const dataFile = (data: unknown) => {
  const file = join(mkdtempSync(join(tmpdir(), 'match-')), 'data.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
};
beforeAll(async () => {
  [svc, empty] = await Promise.all([
    startService(['--data', dataFile({ limitedPartners: PARTNERS, ventureFunds: FUNDS }), '--max-page-size', '100']),
    startService(['--data', dataFile({ limitedPartners: [], ventureFunds: FUNDS })]),
  ]);
});
afterAll(() => Promise.all([svc.stop(), empty.stop()]));

const partnerReads = (byOperation: Record<string, number>) =>
  Object.entries(byOperation)
    .filter(([op]) => op !== 'getVentureFundById')
    .reduce((n, [, v]) => n + v, 0);

describe('LP_MATCH against the reference service', () => {
  test('the ranking with each reason; warm, it asks for the fund alone', async () => {
    const a = addin(svc.url);
    const first = a.cell('LP_MATCH', 'vf_test', 3, 'fullName, firm');
    expect(first.error).toBeUndefined();
    expect(first.value).toEqual([
      [
        'fitRank',
        'id',
        'fullName',
        'firm',
        'fitScore',
        'fitSectors',
        'fitStage',
        'fitGeography',
        'fitTicket',
        'fitType',
      ],
      [
        1,
        'lp_best',
        'Zoë Weiß',
        'Émile Capital',
        100,
        "sectors 35/35: Fintech, SaaS, AI (3 of 3 of the fund's industries)",
        "stage 20/20: Seed, Series A (2 of 2 of the fund's stages)",
        "geography 20/20: Europe, North America (2 of 2 of the fund's regions); Germany, France (2 of 2 of the fund's countries); headquarters in Germany",
        'ticket 15/15: $2M is 2.5% of a $80M fund',
        'type 10/10: Angel, a usual backer of Micro VC funds',
      ],
      [
        2,
        'lp_sect',
        'Anna Müller',
        '',
        33,
        "sectors 23/35: Fintech, AI (2 of 3 of the fund's industries)",
        "stage 10/20: Seed (1 of 2 of the fund's stages)",
        'geography 0/20: no region; no countries of investment; no headquarters',
        'ticket 0/15: $40M is 50% of a $80M fund (fits 0.5%–10%)',
        'type 0/10: Pension Fund, not a usual backer of Micro VC funds',
      ],
      // Ties (every SaaS filler scores 12) go by id.
      [
        3,
        'lp_f001',
        'Filler 1',
        '',
        12,
        "sectors 12/35: SaaS (1 of 3 of the fund's industries)",
        "stage 0/20: none of the fund's stages (Seed, Series A)",
        'geography 0/20: no region; no countries of investment; no headquarters',
        'ticket 0/15: no ticket size',
        'type 0/10: no investor type',
      ],
    ]);
    await svc.resetStats();
    const warm = a.cell(
      'LP_MATCH',
      'vf_test',
      1000,
      'fullName',
      'sectors 100, stage 0, geography 0, ticket 0, type 0',
      false,
    );
    const stats = await svc.stats();
    expect(warm.error).toBeUndefined();
    expect(stats.byOperation.getVentureFundById ?? 0).toBe(0);
    expect(partnerReads(stats.byOperation)).toBe(0);
    const rows = warm.value as unknown[][];
    expect(rows[0]).toEqual([
      1,
      'lp_best',
      'Zoë Weiß',
      100,
      "sectors 100/100: Fintech, SaaS, AI (3 of 3 of the fund's industries)",
    ]);
    expect(rows[1].slice(0, 4)).toEqual([2, 'lp_sect', 'Anna Müller', 67]);
    // Inactive partners are not in the list; Biotech fillers fit nothing and are left out.
    expect(rows).toHaveLength(2 + 230 - 77);
    expect(rows.some((r) => r[1] === 'lp_gone')).toBe(false);
  });

  test('a warm snapshot and a fund not yet asked for: one request, for the fund', async () => {
    const a = addin(svc.url);
    expect(a.cell('LP_FILTER', '', 'id', '', 1).error).toBeUndefined();
    await svc.resetStats();
    const cell = a.cell('LP_MATCH', 'vf_test', 1, 'id', '', false);
    const stats = await svc.stats();
    expect(cell.value).toEqual([
      [
        1,
        'lp_best',
        100,
        expect.stringMatching(/^sectors 35\/35/),
        expect.anything(),
        expect.anything(),
        expect.anything(),
        expect.anything(),
      ],
    ]);
    expect(stats.byOperation).toEqual({ getVentureFundById: 1 });
    expect(cell.run.ledger.fetches).toBe(1);
  });

  test.each([
    ['a wrong fund id', ['vf_nope'], 'Unknown venture fund id: vf_nope'],
    [
      'a fund with none of the fields the ranking compares',
      ['vf_bare'],
      'Fund vf_bare gives none of the fields LP_MATCH compares (industries, stageOfInvestment, region, countriesOfInvestment, lastFundSize, investorType)',
    ],
  ])('%s: a clear message, and no partner read', async (_, args, message) => {
    await svc.resetStats();
    const cell = addin(svc.url).cell('LP_MATCH', ...args);
    const stats = await svc.stats();
    expect(cell.error).toContain(message);
    expect(stats.byOperation).toEqual({ getVentureFundById: 1 });
  });

  test('an empty partner list: a clear message', () => {
    const cell = addin(empty.url).cell('LP_MATCH', 'vf_test');
    expect(cell.error).toBe('The data service lists no active limited partners to rank.');
  });

  test.each([
    [
      'an unknown criterion',
      ['vf_test', 10, '', 'size 3'],
      'weights item 1: unknown criterion "size". Criteria: sectors, stage, geography, ticket, type.',
    ],
    ['a bad limit', ['vf_test', 0], 'limit must be a whole number of 1 or more (got 0).'],
    ['an unknown field', ['vf_test', 10, 'shoeSize'], 'Unknown limited partner field'],
    ['two fund ids', [[['vf_test'], ['vf_bare']]], 'LP_MATCH takes one fund id.'],
  ])('%s is refused before any request', (_, args, message) => {
    const cell = addin(svc.url).cell('LP_MATCH', ...args);
    expect(cell.error).toContain(message);
    expect(cell.run.ledger.fetches).toBe(0);
  });

  test('a blank fund id is a blank cell, asking nothing and needing no key', () => {
    const cell = addin(svc.url, null).cell('LP_MATCH', '  ');
    expect(cell.error).toBeUndefined();
    expect(cell.value).toBe('');
    expect(cell.run.ledger.fetches).toBe(0);
  });
});
