import { partnerId } from '../../../dev/service/generate';
import { oneShot } from '../../../dev/service/spawn';
import { LP_FIELDS } from '../../../src/api/records';
import { addin, everythingStored } from '../../helpers/addin';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '2500', '--funds', '60', '--max-page-size', '100']);
});
afterAll(() => svc.stop());
afterEach(() =>
  svc.config({
    quirks: { fundAsList: false, listPaths: 'both' },
    faults: { error500: 0, error502: 0, error503: 0, rateLimit: 0, truncated: 0, slow: 0 },
    latencyMs: 0,
  }),
);

describe('custom functions in the emulator against the reference service', () => {
  test('LP_GET: a single id and field is a plain value; fields and headers shape a table', () => {
    const a = addin(svc.url);
    expect(a.cell('LP_GET', 'lp_0000a', 'id').value).toBe('lp_0000a');
    const table = a.cell('LP_GET', 'lp_0000a', 'fullName, ticketSize, createdAt, expertise', true).value as unknown[][];
    expect(table[0]).toEqual(['fullName', 'ticketSize', 'createdAt', 'expertise']);
    expect(typeof table[1][1]).toBe('number');
    expect(table[1][2]).toBeInstanceOf(Date);
    expect(typeof table[1][3]).toBe('string');
    expect((a.cell('LP_GET', 'lp_0000a').value as unknown[][])[0]).toHaveLength(LP_FIELDS.length);
  });

  test('LP_GET over a range with duplicates and blanks: one row per input row, one fetch per distinct id, in one batch', () => {
    const a = addin(svc.url);
    const ids = [['lp_0000a'], [''], ['lp_0000b'], ['lp_0000a'], ['lp/ä 1#&apiKey=x?y'], ['nope']];
    const cell = a.cell('LP_GET', ids, [['id'], ['activeStatus']]);
    expect(cell.value).toEqual([
      ['lp_0000a', 'ACTIVE'],
      ['', ''],
      ['lp_0000b', expect.any(String)],
      ['lp_0000a', 'ACTIVE'],
      ['lp/ä 1#&apiKey=x?y', 'ACTIVE'],
      ['Error: Unknown limited partner id: nope', ''],
    ]);
    expect(cell.run.ledger.fetches).toBe(4);
    expect(cell.run.ledger.fetchAllCalls).toBe(1);
  });

  test("LP_FIRMS and LP_LABELS give each partner's name and their list unless asked for other fields; the header row names them", () => {
    const a = addin(svc.url);
    const firms = a.cell('LP_FIRMS', [['lp_0000a'], [''], ['lp_0000b']]).value as unknown[][];
    expect(firms.map((r) => r.length)).toEqual([2, 2, 2]);
    expect(firms[1]).toEqual(['', '']);
    const full = a.cell('LP_GET', [['lp_0000a'], ['lp_0000b']], 'fullName').value as unknown[][];
    expect(firms[0][0]).toBe(full[0][0]);
    expect(firms[2][0]).toBe(full[1][0]);
    expect(a.cell('LP_FIRMS', 'lp_0000a', '', true).value).toEqual([
      ['fullName', 'firm'],
      [full[0][0], expect.any(String)],
    ]);
    expect((a.cell('LP_LABELS', 'lp_0000a', undefined, true).value as unknown[][])[0]).toEqual(['fullName', 'labels']);
    expect(a.cell('LP_FIRMS', 'lp_0000a', true).error).toContain('Field names must be text; got boolean');
  });

  test('the other functions: firms, labels, funds (object or list), last size, active list, industries, field lists', async () => {
    const a = addin(svc.url);
    expect(a.cell('LP_FIRMS', [['lp_0000a'], ['lp_0000b']], 'id, firm, foto', true).value).toEqual([
      ['id', 'firm', 'foto'],
      expect.arrayContaining(['lp_0000a']),
      expect.arrayContaining(['lp_0000b']),
    ]);
    expect((a.cell('LP_LABELS', 'lp_0000c', 'slug,labels', true).value as unknown[][])[0]).toEqual(['slug', 'labels']);
    const fund = a.cell('FUND_GET', 'vf_0003', 'name,team,needToProcessData,firstChequeMinimum').value as unknown[][];
    expect(typeof fund[0][1]).toBe('string');
    expect(JSON.parse(fund[0][1] as string)).toEqual(expect.any(Array));
    expect(typeof fund[0][2]).toBe('boolean');
    await svc.config({ quirks: { fundAsList: true } });
    expect(addin(svc.url).cell('FUND_GET', 'vf_0003', 'name,team,needToProcessData,firstChequeMinimum').value).toEqual(
      fund,
    );
    expect(a.cell('FUND_LASTSIZE', [['vf_0003'], ['vf_0004']]).value).toEqual([
      [expect.stringMatching(/^\$\d+M$/)],
      [expect.stringMatching(/^\$\d+M$/)],
    ]);
    const page = a.cell('LP_ACTIVE', 2, 5, 'id,activeStatus').value as unknown[][];
    expect(page).toHaveLength(6);
    expect(page.slice(1).every((r) => r[1] === 'ACTIVE')).toBe(true);
    expect(a.cell('LP_ACTIVE', 999, 5, 'id', false).value).toBe('');
    expect(a.cell('LP_ACTIVE', 999, 5, 'id').value).toEqual([['id']]);
    const industries = a.cell('FUND_INDUSTRIES', 'vf_0003').value as unknown[][];
    expect(industries[0]).toEqual(['industries']);
    expect(new Set(industries.slice(1).map((r) => r[0])).size).toBe(industries.length - 1);
    const paged = addin(svc.url).cell('FUND_INDUSTRIES', 'vf_0003', '', 3);
    expect(paged.value).toEqual(industries);
    expect(paged.run.ledger.fetches).toBeGreaterThan(3);
    expect(paged.run.ledger.fetchAllCalls).toBe(2);
    expect((a.cell('FUND_FIELDS', true).value as unknown[][])[0]).toEqual(['id', 'string']);
  });

  test("LP_ACTIVE with no page reads every page at the server's capped size, on either list path", async () => {
    await svc.config({ quirks: { listPaths: 'sample' } });
    const a = addin(svc.url);
    const all = a.cell('LP_ACTIVE', '', 1000, 'id').value as unknown[][];
    const total = (
      (await oneShot(`${svc.url}/api/limited-partners-data/getAllActiveLimitedPartners?apiKey=${DEMO_KEY}`)) as {
        pagination: { totalItems: number };
      }
    ).pagination.totalItems;
    expect(all).toHaveLength(total + 1);
    expect(new Set(all.slice(1).map((r) => r[0])).size).toBe(total);
  });

  test('values that look like formulas come back as text values', () => {
    const a = addin(svc.url);
    const row = (a.cell('LP_GET', 'lp_00005', 'fullName,firm,description,email').value as string[][])[0];
    expect(row.map((v) => v[0])).toEqual(['=', '+', '-', '@']);
    const long = a.cell('LP_GET', 'lp_00002', 'description').value as string;
    expect(long.length).toBe(50000);
    expect(long.endsWith('… [truncated]')).toBe(true);
  });

  test.each([
    [['lp_0000a', 'nope'], 'Unknown limited partner field "nope"'],
    [
      [
        [
          ['a', 'b'],
          ['c', 'd'],
        ],
      ],
      'Pass one column or one row of ids',
    ],
    [[true], 'TRUE is not an id'],
    [['lp_0000a', '', 'perhaps'], 'headers must be TRUE or FALSE'],
  ])('bad input %# gives a clear error and no request', (args, message) => {
    const a = addin(svc.url);
    const cell = a.cell('LP_GET', ...args);
    expect(cell.error).toContain(message);
    expect(cell.run.ledger.fetches).toBe(0);
  });

  test.each(['LP_GET', 'LP_FIRMS', 'LP_LABELS', 'FUND_GET', 'FUND_LASTSIZE', 'FUND_INDUSTRIES'])(
    '%s of a blank id (or whitespace, or a range of blanks) is blank, asks nothing, needs no key',
    (name) => {
      for (const a of [addin(svc.url), addin(svc.url, null)]) {
        for (const blank of ['', '   ']) {
          const cell = a.cell(name, blank);
          expect([name, JSON.stringify(blank), cell.error, cell.value]).toEqual([
            name,
            JSON.stringify(blank),
            undefined,
            '',
          ]);
          expect(cell.run.ledger.fetches).toBe(0);
        }
        const range = a.cell(name, [[''], [' ']]);
        expect(range.error).toBeUndefined();
        expect((Array.isArray(range.value) ? range.value.flat() : [range.value]).every((v) => v === '')).toBe(true);
        expect(range.run.ledger.fetches).toBe(0);
      }
    },
  );

  test('no key, a bad key, an unknown id: short, actionable messages', () => {
    expect(addin(svc.url, null).cell('LP_GET', 'lp_0000a').error).toBe(
      'No API key: open Investor Data ▸ Settings and save your key.',
    );
    const bad = addin(svc.url, 'wrong-key-777').cell('LP_GET', 'lp_0000a');
    expect(bad.error).toBe(
      'The API key was refused (HTTP 403: Invalid API key.). Check it in Investor Data ▸ Settings.',
    );
    expect(addin(svc.url).cell('FUND_GET', 'nope').error).toBe('Unknown venture fund id: nope');
    expect(addin(svc.url).cell('LP_ACTIVE', 0).error).toContain('page must be a whole number of 1 or more');
  });

  test('with 30 % faults injected a range still loads completely', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => [partnerId(100 + i)]);
    const calm = addin(svc.url).cell('LP_GET', ids, 'id');
    await svc.config({ faults: { error500: 0.1, error503: 0.1, rateLimit: 0.1, retryAfterSeconds: 1 }, seed: 11 });
    const cell = addin(svc.url).cell('LP_GET', ids, 'id');
    expect(cell.error).toBeUndefined();
    expect(cell.value).toEqual(ids);
    expect(cell.run.ledger.fetches).toBeGreaterThan(calm.run.ledger.fetches);
  });

  test('when the service goes down the last good values are served, marked stale', async () => {
    const a = addin(svc.url);
    a.emu.store(`user:${a.emu.owner}`).set('INVESTOR_DATA_CACHE_TTL_SECONDS', '60');
    a.cell('LP_GET', [['lp_0000a'], ['lp_0000b']], 'id');
    const page = a.cell('LP_ACTIVE', 1, 2, 'id').value as unknown[][];
    a.emu.clock.advance(120_000);
    await svc.config({ faults: { error503: 1 } });
    const cell = a.cell('LP_GET', [['lp_0000a'], ['lp_0000b']], 'id', true);
    expect(cell.error).toBeUndefined();
    expect(cell.value).toEqual([
      ['id', 'stale since'],
      ['lp_0000a', expect.any(Date)],
      ['lp_0000b', expect.any(Date)],
    ]);
    const stalePage = a.cell('LP_ACTIVE', 1, 2, 'id').value as unknown[][];
    expect(stalePage.map((r) => r[0])).toEqual(page.map((r) => r[0]));
    expect(stalePage[0][1]).toBe('stale since');
    expect(a.cell('LP_GET', 'lp_0000c', 'id').error).toMatch(/^The data service failed \(HTTP 503/);
  });

  test('a warm 1,000-id range makes zero fetches; the key is nowhere in what the add-in stored or logged', () => {
    const a = addin(svc.url);
    const ids = Array.from({ length: 1000 }, (_, i) => [partnerId(i)]);
    const cold = a.cell('LP_GET', ids, 'id,fullName,activeStatus');
    expect(cold.error).toBeUndefined();
    // The active list (2,500 partners, 25 pages of 100) is read once; only inactive ids go one by one.
    const inactive = (cold.value as unknown[][]).filter((r) => r[2] !== 'ACTIVE').length;
    expect(inactive).toBeGreaterThan(0);
    expect(cold.run.ledger.fetches).toBeLessThanOrEqual(25 + 2 + inactive);
    const warm = a.cell('LP_GET', ids, 'id,fullName');
    expect(warm.run.ledger.fetches).toBe(0);
    expect((warm.value as unknown[][]).map((r) => r[0])).toEqual(ids.map((r) => r[0]));
    expect(everythingStored(a.emu)).not.toContain(DEMO_KEY);
  });
});

describe('input shapes', () => {
  test('a row of ids answers as a row: one column per id, the fields down', () => {
    const a = addin(svc.url);
    expect(a.cell('LP_GET', [['lp_0000a', '', 'lp_0000b']], 'id').value).toEqual([['lp_0000a', '', 'lp_0000b']]);
    expect(a.cell('LP_GET', [['lp_0000a', 'lp_0000b']], 'id,activeStatus', true).value).toEqual([
      ['id', 'lp_0000a', 'lp_0000b'],
      ['activeStatus', 'ACTIVE', expect.any(String)],
    ]);
    expect(a.cell('FUND_LASTSIZE', [['vf_0003', 'vf_0004']]).value).toEqual([
      [expect.stringMatching(/^\$\d+M$/), expect.stringMatching(/^\$\d+M$/)],
    ]);
    expect(a.cell('LP_GET', [['lp_0000a'], ['lp_0000b']], 'id').value).toEqual([['lp_0000a'], ['lp_0000b']]);
  });

  test('one malformed id (a lone surrogate) errs on its own row; the others keep their values', () => {
    const a = addin(svc.url);
    const cell = a.cell('LP_GET', [['lp_0000a'], ['bad\uD800id'], ['lp_0000b'], [true]], 'id');
    expect(cell.error).toBeUndefined();
    expect(cell.value).toEqual([
      ['lp_0000a'],
      ['Error: An id holds a broken character (half of a UTF-16 surrogate pair) and cannot be sent.'],
      ['lp_0000b'],
      ['Error: TRUE is not an id: pass id text or a range of ids.'],
    ]);
    expect(cell.run.ledger.fetches).toBe(2);
    expect(a.cell('LP_GET', 'x\uDC00', 'id').error).toBe(
      'An id holds a broken character (half of a UTF-16 surrogate pair) and cannot be sent.',
    );
  });

  test.each([
    ['0x10', 'page must be a whole number of 1 or more (got "0x10").'],
    ['1e1', 'page must be a whole number of 1 or more (got "1e1").'],
    ['+2', 'page must be a whole number of 1 or more (got "+2").'],
    [[[1, 2]], 'page takes one value, not a range (got 1 × 2 cells).'],
    [[[1], [2]], 'page takes one value, not a range (got 2 × 1 cells).'],
  ])('LP_ACTIVE page %j is refused: %s', (page, message) => {
    const cell = addin(svc.url).cell('LP_ACTIVE', page, 5, 'id');
    expect(cell.error).toBe(message);
    expect(cell.run.ledger.fetches).toBe(0);
  });

  test('page as plain digits, or a one-cell range, is read; a 2-D headers or limit argument is an error', () => {
    const a = addin(svc.url);
    expect(a.cell('LP_ACTIVE', ' 2 ', 5, 'id', false).value).toEqual(a.cell('LP_ACTIVE', [[2]], 5, 'id', false).value);
    expect(a.cell('LP_ACTIVE', '2', 5, 'id', false).value as unknown[][]).toHaveLength(5);
    expect(
      a.cell(
        'LP_ACTIVE',
        1,
        [
          [5, 6],
          [7, 8],
        ],
        'id',
      ).error,
    ).toBe('limit takes one value, not a range (got 2 × 2 cells).');
    expect(a.cell('LP_GET', 'lp_0000a', 'id', [[true, false]]).error).toBe(
      'headers takes one value, not a range (got 1 × 2 cells).',
    );
  });
});
