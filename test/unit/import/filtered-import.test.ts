/**
 * Imports with filters and sort, through the state machine over in-memory ports: the whole list
 * is read and checked as before, then only the matching partners are written, in the requested
 * order (ties in the service's order), whether the run fits one step or is staged across many;
 * merge reports a partner still listed that no longer matches; the run log counts read and
 * kept; an incomplete list still fails and leaves the sheet as it was; and the result agrees
 * with the engine LP_FILTER uses.
 */
import type { ServiceRecord } from '../../../src/api/records';
import { beginRun, continueRun } from '../../../src/import/machine';
import type { RunSummary } from '../../../src/import/run-state';
import { checkSpec, type ImportSpec } from '../../../src/import/spec';
import { applyQuery } from '../../../src/table/filter';
import { fakeList } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';

const REGIONS = [['Europe'], ['Asia', 'Europe'], ['North America'], [], null];
const CITIES = ['Zürich', 'zurich', 'München', 'Oslo', 'São Paulo', ''];
const partners = (n: number): ServiceRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    fullName: `Name ${i}`,
    firm: i % 7 === 0 ? `Émile ${i % 3}` : `emile ${i % 3}`,
    headquarters: CITIES[i % CITIES.length],
    region: REGIONS[i % REGIONS.length],
    ticketSize: i % 11 === 0 ? null : (i * 7919) % 5000,
    createdAt: `2024-0${1 + (i % 9)}-15T12:00:00Z`,
  }));

const FILTERS = [
  { field: 'region', op: 'is', value: 'europe' },
  { field: 'ticketSize', op: 'atLeast', value: 1000 },
  { field: 'createdAt', op: 'atMost', value: '2024-06-15' },
];
const SORT = [{ field: 'firm' }, { field: 'ticketSize', descending: true }, { field: 'headquarters' }];

const saved = (input: Record<string, unknown>): ImportSpec =>
  checkSpec({ sheetName: 'Partners', fields: ['id', 'firm', 'ticketSize'], ...input }, [], () => 'imp1');
const table = (w: World) => w.tables.get('Partners') ?? [];
const tableIds = (w: World) =>
  table(w)
    .slice(1)
    .map((r) => r[0]);

function drive(w: World, budget = 60_000): RunSummary[] {
  const seen = [beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + budget)];
  while (seen[seen.length - 1].status === 'running' && seen.length < 60)
    seen.push(continueRun('imp1', w.nextExecution(), w.clock.t + budget));
  return seen;
}

describe('an import with filters and sort', () => {
  const items = partners(1050);
  const checked = saved({ filters: FILTERS, sort: SORT });
  const want = applyQuery(items, { filters: checked.filters ?? [], sort: checked.sort ?? [] }).map((r) => r.id);

  test('writes exactly the matching partners in the requested order, as LP_FILTER would list them', () => {
    expect(want.length).toBeGreaterThan(50);
    expect(want.length).toBeLessThan(500);
    const w = world(fakeList(items).fetch, [saved({ filters: FILTERS, sort: SORT })]);
    const steps = drive(w);
    expect(steps.map((s) => s.status)).toEqual(['done']);
    expect(steps[0].message).toBe(
      `Imported ${want.length} of 1,050 active limited partners (those matching the filters) into "Partners".`,
    );
    expect(table(w)[0]).toEqual(['id', 'firm', 'ticketSize']);
    expect(tableIds(w)).toEqual(want);
    // Only the import's columns are written: nothing of what was staged to filter and sort.
    expect(table(w).every((r) => r.length === 3)).toBe(true);
    expect(w.runLog[0].slice(5, 8)).toEqual(['done', 1050, want.length]);
    expect(w.specs[0].last).toMatchObject({ status: 'done', rows: want.length });
  });

  test('the same across many steps, with rows staged between executions', () => {
    const w = world(fakeList(items, { cap: 10 }).fetch, [saved({ filters: FILTERS, sort: SORT })], {
      msPerFetch: 1000,
    });
    const steps = drive(w, 25_000);
    expect(steps.length).toBeGreaterThan(2);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(tableIds(w)).toEqual(want);
    expect(w.staging.size).toBe(0);
  });

  test('sort alone keeps every partner; ties keep the service order', () => {
    const w = world(fakeList(items).fetch, [saved({ sort: [{ field: 'headquarters' }] })]);
    expect(drive(w)[0].message).toBe('Imported 1,050 active limited partners into "Partners".');
    const ids = tableIds(w);
    expect(ids).toHaveLength(1050);
    // Zürich and zurich are one run, in list order; blanks come last.
    const hq = new Map(items.map((r) => [r.id, r.headquarters]));
    expect(ids.slice(0, 3).map((id) => hq.get(String(id)))).toEqual(['München', 'München', 'München']);
    const zurich = ids.filter((id) => ['Zürich', 'zurich'].includes(String(hq.get(String(id)))));
    expect(zurich).toEqual(items.filter((r) => ['Zürich', 'zurich'].includes(String(r.headquarters))).map((r) => r.id));
    expect(hq.get(String(ids[ids.length - 1]))).toBe('');
  });

  test('a filter no partner meets writes the header alone', () => {
    const w = world(fakeList(items).fetch, [saved({ filters: [{ field: 'firm', op: 'is', value: 'nobody' }] })]);
    expect(drive(w)[0]).toMatchObject({
      status: 'done',
      message: 'Imported 0 of 1,050 active limited partners (those matching the filters) into "Partners".',
    });
    expect(table(w)).toEqual([['id', 'firm', 'ticketSize']]);
  });

  test('merge: a partner still listed that stops matching keeps its row, logged "no longer matches"; one that left is "no longer active"', () => {
    const list = [
      { id: 'a', firm: 'Alpha', region: ['Europe'] },
      { id: 'b', firm: 'Beta', region: ['Asia'] },
      { id: 'c', firm: 'Gamma', region: ['Europe'] },
    ];
    const w = world(fakeList(list).fetch, [
      saved({ fields: ['id', 'firm'], mode: 'merge', filters: [{ field: 'region', op: 'is', value: 'Europe' }] }),
    ]);
    w.own('Partners', [
      ['id', 'firm', 'Notes'],
      ['b', 'Beta', 'moved to Asia'],
      ['gone', 'Old', 'left'],
      ['a', 'Alpha', 'keep'],
    ]);
    expect(drive(w)[0]).toMatchObject({
      status: 'done',
      message:
        'Imported 2 of 3 active limited partners (those matching the filters) into "Partners". 1 new, 1 no longer active, 1 no longer matching, 0 field changes.',
    });
    expect(table(w)).toEqual([
      ['id', 'firm', 'Notes'],
      ['b', 'Beta', 'moved to Asia'],
      ['gone', 'Old', 'left'],
      ['a', 'Alpha', 'keep'],
      ['c', 'Gamma', ''],
    ]);
    expect(w.changeLog.map((c) => `${c[2]}:${c[3]}`)).toEqual([
      'c:new partner',
      'b:no longer matches',
      'gone:no longer active',
    ]);
  });

  test('completeness first: a list that does not add up still fails, and the sheet keeps its data', () => {
    const before = [
      ['id', 'firm', 'ticketSize'],
      ['old', 'Old', 1],
    ];
    const w = world(fakeList(items, { reportTotal: () => 100 }).fetch, [saved({ filters: FILTERS, sort: SORT })]);
    w.own('Partners', before);
    const last = drive(w).pop();
    expect(last).toMatchObject({ status: 'failed', message: expect.stringContaining('past the end, holds') });
    expect(table(w)).toEqual(before);
  });
});
