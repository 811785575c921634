/**
 * Imports with filters and sort through the bundle's sidebar endpoints, against the reference
 * service serving a seeded data file: the sheet holds exactly the matching active partners in
 * the requested order, row for row what =LP_FILTER shows for the same conditions (which then
 * answers from the snapshot the import refreshed, with no request); bad filters and sorts are
 * refused when saved, before any request, with a message naming the problem; an import's
 * settings do not change while it runs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FilterCondition, ImportInput } from '../../../src/contract';
import { addin } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, startService } from '../../helpers/service';

const CITIES = ['Zürich', 'ZURICH', 'München', 'Oslo', 'São Paulo', ''];
const REGIONS = [['Europe'], ['Asia', 'europe'], ['North America'], [], null];
const PARTNERS = Array.from({ length: 1200 }, (_, i) => ({
  id: `lp_${String(i).padStart(4, '0')}`,
  activeStatus: i % 13 === 5 ? 'INACTIVE' : 'ACTIVE',
  fullName: `Partner ${i}`,
  firm: [`Émile Fund ${i % 4}`, `emile fund ${i % 4}`, `Åsa Capital`][i % 3],
  headquarters: CITIES[i % CITIES.length],
  region: REGIONS[i % REGIONS.length],
  ticketSize: i % 17 === 0 ? null : (i * 7919) % 5_000_000,
  createdAt: `20${20 + (i % 5)}-0${1 + (i % 9)}-1${i % 10}T0${i % 10}:00:00Z`,
}));

let svc: RunningService;
beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'import-filter-')), 'data.json');
  writeFileSync(file, JSON.stringify({ limitedPartners: PARTNERS, ventureFunds: [] }));
  svc = await startService(['--data', file, '--max-page-size', '100']);
});
afterAll(() => svc.stop());

const FIELDS = ['id', 'firm', 'ticketSize', 'headquarters', 'region', 'createdAt'];
const CONDITIONS: ImportInput['filters'] = [
  { field: 'region', op: 'is', value: 'EUROPE' },
  { field: 'ticketSize', op: 'atLeast', value: 1_000_000 },
  { field: 'createdAt', op: 'atMost', value: '2023-06-30' },
];
const SORT: ImportInput['sort'] = [
  { field: 'firm' },
  { field: 'ticketSize', descending: true },
  { field: 'headquarters' },
];

describe('an import with filters and sort', () => {
  test('writes exactly the matching active partners in order, and agrees row for row with LP_FILTER on the same conditions', () => {
    const a = addin(svc.url);
    // The analyst sets the filters up in the editor, whose live count reads the list into the snapshot.
    expect(call(a.emu, 'countMatches', [CONDITIONS]).ok).toBe(true);
    const id = saveImport(a.emu, { sheetName: 'Europe', fields: FIELDS, filters: CONDITIONS, sort: SORT });
    const steps = runImport(a.emu, id);
    const last = steps[steps.length - 1];
    const active = PARTNERS.filter((p) => p.activeStatus === 'ACTIVE').length;
    const table = sheet(a.emu, 'Europe');
    expect(last.status).toBe('done');
    expect(last.message).toBe(
      `Imported ${(table.length - 1).toLocaleString('en-US')} of ${active.toLocaleString('en-US')} active limited partners (those matching the filters) into "Europe".`,
    );
    expect(table.length - 1).toBeGreaterThan(20);
    expect(table.length - 1).toBeLessThan(active / 2);
    const log = sheet(a.emu, 'Investor Data log');
    expect(log[0].slice(6, 8)).toEqual(['Read', 'Kept']);
    expect(log[1].slice(6, 8)).toEqual([active, table.length - 1]);

    // Every row meets every condition, and the order is firm (case and accents one run), ticketSize down, headquarters.
    const byId = new Map(PARTNERS.map((p) => [p.id, p]));
    for (const row of table.slice(1)) {
      const p = byId.get(String(row[0])) as (typeof PARTNERS)[number];
      expect(p.activeStatus).toBe('ACTIVE');
      expect((p.region ?? []).some((r) => r.toLowerCase() === 'europe')).toBe(true);
      expect(p.ticketSize).toBeGreaterThanOrEqual(1_000_000);
      expect(p.createdAt <= '2023-06-30T23:59:59Z').toBe(true);
    }
    const firms = table.slice(1).map((r) => String(r[1]).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
    expect(firms).toEqual([...firms].sort());

    // The editor's live count and suggestions answer from the snapshot the import refreshed: no request.
    const count = call(a.emu, 'countMatches', [CONDITIONS]);
    expect(count).toEqual({ ok: true, matched: table.length - 1, total: active });
    expect(a.emu.history[a.emu.history.length - 1].fetches).toBe(0);
    const values = call(a.emu, 'filterValues', ['region']);
    expect(values.ok && values.values).toEqual(['Europe', 'Asia', 'North America']);
    expect(a.emu.history[a.emu.history.length - 1].fetches).toBe(0);
    const list = call(a.emu, 'listImports', []);
    expect(list.ok && list.imports[0].shaped).toBe(
      'region is EUROPE and ticketSize ≥ 1000000 and createdAt ≤ 2023-06-30; sorted by firm, ticketSize ↓, headquarters',
    );
    expect(list.ok && list.filterFields.find((f) => f.name === 'ticketSize')?.ops).toEqual([
      'is',
      'isAnyOf',
      'atLeast',
      'atMost',
      'isEmpty',
      'isNotEmpty',
    ]);

    const formula = a.cell(
      'LP_FILTER',
      CONDITIONS.map((c) => [c.field, c.op, c.value]),
      FIELDS.join(','),
      'firm, ticketSize desc, headquarters',
    );
    expect(formula.error).toBeUndefined();
    expect(formula.run.ledger.fetches).toBe(0);
    expect(formula.value).toEqual(table);
  });

  test.each<[string, Partial<ImportInput>, string]>([
    [
      'an unknown field',
      { filters: [{ field: 'shoeSize', op: 'is', value: '42' }] },
      'Filter 1: unknown field "shoeSize"',
    ],
    [
      'an operator that does not fit',
      { filters: [{ field: 'firm', op: 'atLeast', value: 'A' }] },
      'Filter 1 (firm atLeast): atLeast does not apply to firm, which holds text',
    ],
    [
      'a missing value',
      {
        filters: [
          { field: 'region', op: 'is', value: 'Europe' },
          { field: 'ticketSize', op: 'atMost' },
        ],
      },
      'Filter 2 (ticketSize atMost): no value given.',
    ],
    [
      'an ill-typed value',
      { filters: [{ field: 'createdAt', op: 'atLeast', value: 'last week' }] },
      'Filter 1 (createdAt atLeast): needs a date as YYYY-MM-DD',
    ],
    [
      'isAnyOf with one text',
      { filters: [{ field: 'region', op: 'isAnyOf', value: 'Europe' }] },
      'Filter 1 (region isAnyOf): needs a list of values, got "Europe".',
    ],
    [
      'four sort keys',
      { sort: [{ field: 'firm' }, { field: 'id' }, { field: 'region' }, { field: 'email' }] },
      '4 sort keys; at most 3.',
    ],
    ['an unknown sort field', { sort: [{ field: 'rank' }] }, 'Sort key 1: unknown field "rank"'],
  ])('%s is refused when saved, before any request, and nothing is saved', async (_, bad, message) => {
    const a = addin(svc.url);
    await svc.resetStats();
    const answer = call(a.emu, 'saveImport', [{ sheetName: 'Bad', fields: ['id', 'firm'], ...bad }]);
    expect(answer).toMatchObject({ ok: false, code: 'BAD_INPUT' });
    expect(answer.ok ? '' : answer.message).toContain(message);
    expect((await svc.stats()).recent).toEqual([]);
    const list = call(a.emu, 'listImports', []);
    expect(list.ok && list.imports).toEqual([]);
  });

  test('the live count and the suggestions: bad filters and unknown fields get the same messages as a save', () => {
    const a = addin(svc.url);
    const bad = call(a.emu, 'countMatches', [[{ field: 'ticketSize', op: 'contains', value: '1' }]]);
    expect(bad).toMatchObject({
      ok: false,
      code: 'BAD_INPUT',
      message: expect.stringContaining('Filter 1 (ticketSize contains): contains does not apply to ticketSize'),
    });
    expect(call(a.emu, 'filterValues', ['shoeSize'])).toMatchObject({
      ok: false,
      message: expect.stringContaining('Unknown field "shoeSize"'),
    });
    // Cold: the first count reads the list into the snapshot; the next one sends nothing.
    const first = call(a.emu, 'countMatches', [[]]);
    expect(first).toEqual({
      ok: true,
      matched: PARTNERS.filter((p) => p.activeStatus === 'ACTIVE').length,
      total: PARTNERS.filter((p) => p.activeStatus === 'ACTIVE').length,
    });
    expect(a.emu.history[a.emu.history.length - 1].fetches).toBeGreaterThan(0);
    const zurich: [FilterCondition[]] = [[{ field: 'headquarters', op: 'is', value: 'zurich' }]];
    const counted = call(a.emu, 'countMatches', zurich);
    expect(a.emu.history[a.emu.history.length - 1].fetches).toBe(0);
    // A count reads the copies of the columns its filters name (written by the count before), not the snapshot's buckets.
    expect(call(a.emu, 'countMatches', zurich)).toEqual(counted);
    // The snapshot's head and the copies of id and headquarters: not its six buckets of every field.
    expect(a.emu.history[a.emu.history.length - 1].cacheHits).toBeLessThanOrEqual(3);
  });

  test('a saved filter comes back as saved; changing a running import is refused until it ends', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, {
      sheetName: 'Kept',
      fields: ['id', 'firm'],
      filters: [{ field: 'Ticket Size', op: 'atLeast', value: '1000' }],
      sort: [{ field: 'FIRM', descending: true }],
    });
    const list = call(a.emu, 'listImports', []);
    expect(list.ok && list.imports[0]).toMatchObject({
      filters: [{ field: 'ticketSize', op: 'atLeast', value: 1000 }],
      sort: [{ field: 'firm', descending: true }],
    });
    a.emu
      .store('document')
      .set(`INVESTOR_DATA_RUN_${id}`, JSON.stringify({ importId: id, status: 'running', list: { started: false } }));
    const refused = call(a.emu, 'saveImport', [{ id, sheetName: 'Kept', fields: ['id'] }]);
    expect(refused).toMatchObject({
      ok: false,
      message: 'This import is running; wait for it to finish, or cancel it, before changing it.',
    });
  });
});
