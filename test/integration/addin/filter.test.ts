/**
 * =LP_FILTER in the deployed bundle against the reference service serving a seeded data file
 * (pages of ordinary partners plus partners with accents, list fields, numbers, dates and blanks,
 * and inactive ones): the conditions range, sort keys, fields, limit and headers; a warm call
 * answers from the snapshot with no request; bad arguments give the clear messages the other
 * functions give, before any request.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interpretInput } from '../../../dev/emulator/workbook';
import { addin } from '../../helpers/addin';
import { type RunningService, startService } from '../../helpers/service';

const filler = (i: number) => ({
  id: `lp_f${i}`,
  activeStatus: 'ACTIVE',
  fullName: `Filler ${i}`,
  firm: `Fund ${i}`,
  headquarters: 'Oslo',
  region: ['Nordics'],
  ticketSize: 100 + i,
  createdAt: '2020-01-01T00:00:00Z',
});
const SEEDED = [
  {
    id: 'lp_zu',
    activeStatus: 'ACTIVE',
    fullName: 'Zoë Weiß',
    firm: 'Émile Capital',
    headquarters: 'Zürich',
    region: ['Europe', 'Asia'],
    ticketSize: 5_000_000,
    createdAt: '2024-03-31T22:00:00Z',
  },
  {
    id: 'lp_mu',
    activeStatus: 'ACTIVE',
    fullName: 'Anna Müller',
    firm: 'emile capital',
    headquarters: 'München',
    region: ['Europe'],
    ticketSize: 2_000_000,
    createdAt: '2024-05-01T00:00:00Z',
  },
  {
    id: 'lp_sp',
    activeStatus: 'ACTIVE',
    fullName: 'João Silva',
    firm: 'Sol Partners',
    headquarters: 'São Paulo',
    region: ['South America', 'Europe'],
    ticketSize: 2_000_000,
    createdAt: '2023-12-31T00:00:00Z',
  },
  {
    id: 'lp_no',
    activeStatus: 'ACTIVE',
    fullName: 'Blank Region',
    firm: 'Zeta',
    headquarters: 'zurich',
    region: [],
    ticketSize: null,
    createdAt: null,
  },
  {
    id: 'lp_in',
    activeStatus: 'INACTIVE',
    fullName: 'Gone Müller',
    firm: 'Émile Capital',
    headquarters: 'Zürich',
    region: ['Europe'],
    ticketSize: 9_000_000,
    createdAt: '2024-04-01T00:00:00Z',
  },
];
const PARTNERS = Array.from({ length: 240 }, (_, i) => filler(i)).flatMap((p, i) =>
  i % 48 === 47 ? [p, SEEDED[(i - 47) / 48]] : [p],
);

let svc: RunningService;
beforeAll(async () => {
  expect(PARTNERS).toHaveLength(240 + SEEDED.length);
  const file = join(mkdtempSync(join(tmpdir(), 'filter-')), 'data.json');
  writeFileSync(file, JSON.stringify({ limitedPartners: PARTNERS, ventureFunds: [] }));
  svc = await startService(['--data', file, '--max-page-size', '100']);
});
afterAll(() => svc.stop());

const EUROPE = [
  ['field', 'operator', 'value'],
  ['region', 'is', 'EUROPE'],
  ['', '', ''],
];

describe('LP_FILTER against the reference service', () => {
  test('the active partners meeting every condition, sorted by three keys; a warm call sends nothing', () => {
    const a = addin(svc.url);
    const first = a.cell('LP_FILTER', EUROPE, 'firm, ticketSize, headquarters', 'firm, ticketSize desc, headquarters');
    expect(first.error).toBeUndefined();
    expect(first.run.ledger.fetches).toBeGreaterThanOrEqual(3);
    // Case and accents do not split the firm's run; ties on firm go by ticketSize, then headquarters.
    expect(first.value).toEqual([
      ['id', 'firm', 'ticketSize', 'headquarters'],
      ['lp_zu', 'Émile Capital', 5_000_000, 'Zürich'],
      ['lp_mu', 'emile capital', 2_000_000, 'München'],
      ['lp_sp', 'Sol Partners', 2_000_000, 'São Paulo'],
    ]);
    const warm = a.cell(
      'LP_FILTER',
      [
        ['region', 'isAnyOf', 'asia; south america'],
        ['ticketSize', 'atLeast', 1_000_000],
      ],
      'fullName',
      [['ticketSize', 'desc']],
      '',
      false,
    );
    expect(warm.run.ledger.fetches).toBe(0);
    expect(warm.value).toEqual([
      ['lp_zu', 'Zoë Weiß'],
      ['lp_sp', 'João Silva'],
    ]);
  });

  test('numbers, dates (a date cell is its day), accents, blanks and the limit', () => {
    const a = addin(svc.url);
    const ids = (...args: unknown[]) => {
      const cell = a.cell('LP_FILTER', ...args);
      expect(cell.error).toBeUndefined();
      return ((cell.value || []) as unknown[][]).map((r) => r[0]);
    };
    expect(ids([['headquarters', 'is', 'ZURICH']], 'id', '', '', false)).toEqual(['lp_zu', 'lp_no']);
    expect(
      ids(
        [
          ['createdAt', 'atMost', new Date('2024-03-31T00:00:00Z')],
          ['createdAt', 'atLeast', '2024-01-01'],
        ],
        'id',
        '',
        '',
        false,
      ),
    ).toEqual(['lp_zu']);
    expect(ids([['ticketSize', 'isEmpty', '']], 'id', '', '', false)).toEqual(['lp_no']);
    expect(
      ids(
        [
          ['region', 'is not empty', ''],
          ['firm', 'starts with', 'fund 2'],
        ],
        'id',
        'firm desc',
        3,
        false,
      ),
    ).toEqual(['lp_f239', 'lp_f238', 'lp_f237']);
    expect(ids([['fullName', 'contains', 'muller']], 'id', '', '', false)).toEqual(['lp_mu']);
  });

  test.each(['America/New_York', 'Europe/Berlin', 'Asia/Tokyo'])(
    'a date cell is the day it shows in a spreadsheet whose time zone is %s',
    (zone) => {
      const a = addin(svc.url);
      a.emu.workbook.timeZone = zone;
      // What Sheets passes for a cell typed 3/31/2024 in that spreadsheet: midnight there.
      const typed = interpretInput('3/31/2024', zone).value as Date;
      expect(typed.toISOString().startsWith('2024-03-31T00:00')).toBe(false);
      const cell = a.cell('LP_FILTER', [['createdAt', 'is', typed]], 'id', '', '', false);
      expect(cell.error).toBeUndefined();
      expect(cell.value).toEqual([['lp_zu']]);
    },
  );

  test('no match: the header row alone, or an empty cell without headers', () => {
    const a = addin(svc.url);
    expect(a.cell('LP_FILTER', [['firm', 'is', 'nobody']], 'fullName').value).toEqual([['id', 'fullName']]);
    expect(a.cell('LP_FILTER', [['firm', 'is', 'nobody']], 'fullName', '', '', false).value).toBe('');
  });

  test.each([
    ['an unknown field', [[['shoeSize', 'is', 42]]], 'conditions row 1: unknown field "shoeSize".'],
    [
      'an operator that does not fit',
      [
        [
          ['region', 'is', 'Europe'],
          ['firm', 'atLeast', 'A'],
        ],
      ],
      'conditions row 2 (firm atLeast): atLeast does not apply to firm, which holds text; use is, isAnyOf, contains, startsWith, isEmpty, isNotEmpty.',
    ],
    [
      'a value that is not a number',
      [[['ticketSize', 'atLeast', 'lots']]],
      'conditions row 1 (ticketSize atLeast): needs a number, got "lots".',
    ],
    ['a missing value', [[['firm', 'contains', '']]], 'conditions row 1 (firm contains): no value given.'],
    ['conditions as plain text', ['region is Europe'], 'conditions must be a range of rows'],
    ['an unknown sort field', [EUROPE, '', 'firm, size desc'], 'Sort key 2: unknown field "size"'],
    ['a bad limit', [EUROPE, '', '', 0], 'limit must be a whole number of 1 or more (got 0).'],
    ['an unknown field to show', [EUROPE, 'fullName, shoeSize'], 'Unknown limited partner field'],
  ])('%s gives a clear message and sends nothing', (_, args, message) => {
    const cell = addin(svc.url).cell('LP_FILTER', ...(args as unknown[]));
    expect(cell.error).toContain(message);
    expect(cell.run.ledger.fetches).toBe(0);
  });
});
