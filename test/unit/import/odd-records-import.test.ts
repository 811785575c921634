/**
 * Odd records through a whole import over the in-memory ports, replace then merge, in one step
 * and staged across many: ids of every kind (numbers, blanks, lists, objects, `__proto__`,
 * `constructor`, ids that differ only by case or spaces) and values of every JSON kind. Every
 * partner with a usable id gets exactly one row, in list order (or the sort's), every other one
 * is skipped and counted in the run's message, every cell is a finite number, a valid date, a
 * boolean or text that fits a cell, and a merge of the same list changes nothing. Records are
 * drawn from seeds, several seeds swept.
 */
import { LP_FIELD_SPECS, recordId, type ServiceRecord } from '../../../src/api/records';
import { beginRun, continueRun } from '../../../src/import/machine';
import type { OutCell } from '../../../src/import/ports';
import type { RunSummary } from '../../../src/import/run-state';
import { checkSpec, type ImportSpec } from '../../../src/import/spec';
import { isDate, MAX_CELL_CHARS, toCell } from '../../../src/table/cells';
import { applyQuery } from '../../../src/table/filter';
import { fakeList } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { oddRecord, pick, seeded } from '../../helpers/odd-values';

const SEEDS = Array.from({ length: 6 }, (_, k) => k + 1);
const FIELDS = ['id', 'fullName', 'createdAt', 'ticketSize', 'totalPortfolio', 'region', 'firm', 'labels'];

/** `n` odd records from `seed`, each usable id once (a list that repeats an id is tested on its own, below). */
function oddList(seed: number, n: number): ServiceRecord[] {
  const rnd = seeded(seed);
  const seen = new Set<string>();
  // Text past a cell's limit in a few records (in every one, it would cost seconds).
  const long: ServiceRecord = {
    id: `long_${'z'.repeat(60_000)}`,
    fullName: 'x'.repeat(60_000),
    firm: `=${'y'.repeat(50_010)}`,
  };
  const list = Array.from({ length: n }, (_, k) => oddRecord(rnd, FIELDS, k, false));
  list.splice(Math.floor(rnd() * n), 0, long);
  return list.filter((r) => {
    const id = recordId(r);
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function drive(w: World, budget: number): RunSummary[] {
  const seen = [beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + budget)];
  while (seen[seen.length - 1].status === 'running' && seen.length < 80)
    seen.push(continueRun('imp1', w.nextExecution(), w.clock.t + budget));
  return seen;
}

const badCell = (c: OutCell): boolean =>
  typeof c === 'number'
    ? !Number.isFinite(c)
    : isDate(c)
      ? Number.isNaN(c.getTime())
      : typeof c === 'string'
        ? c.length > MAX_CELL_CHARS
        : typeof c !== 'boolean';

describe.each(SEEDS)('seed %i', (seed) => {
  const items = oddList(seed, 150);
  const usable = items.filter((r) => recordId(r) !== undefined);
  const skipped = items.length - usable.length;
  const rnd = seeded(seed + 500);
  const sortBy = pick(
    rnd,
    LP_FIELD_SPECS.filter((s) => FIELDS.includes(s.name)),
  ).name;

  test.each([
    ['in one step', 100, 60_000, undefined],
    ['staged across steps, sorted', 10, 12_000, sortBy],
  ])(
    'an import of odd records, %s: one row per usable id, the others counted, every cell a value; a merge changes nothing',
    (_, cap, budget, sort) => {
      const spec: ImportSpec = checkSpec(
        { sheetName: 'Partners', fields: FIELDS, sort: sort ? [{ field: sort }] : [] },
        [],
        () => 'imp1',
      );
      const w = world(fakeList(items, { cap }).fetch, [spec], { msPerFetch: 1000 });
      const steps = drive(w, budget);
      const last = steps[steps.length - 1];
      expect(last.status).toBe('done');
      expect(last.message).toContain(skipped ? `Skipped ${skipped} listed record` : 'Imported');
      if (!skipped) expect(last.message).not.toContain('Skipped');
      const table = w.tables.get('Partners') as OutCell[][];
      // An id longer than a cell holds is written cut, as any text.
      const want = (sort ? applyQuery(usable, { filters: [], sort: [{ field: sort }] }) : usable).map((r) =>
        toCell(r.id, 'string', 'formula'),
      );
      expect(table.slice(1).map((r) => r[0])).toEqual(want);
      expect(table.flat().filter(badCell)).toEqual([]);

      w.specs[0] = { ...w.specs[0], mode: 'merge' };
      const again = drive(w, budget);
      expect(again[again.length - 1].status).toBe('done');
      expect(w.tables.get('Partners')).toEqual(table);
      expect(w.changeLog).toEqual([]);
    },
  );
});

test("a record whose id is a list holding another partner's id is skipped and counted: that partner's row keeps its own values", () => {
  const items = JSON.parse(
    '[{"id":"p1","fullName":"Ada"},{"id":["p1"],"fullName":"Not Ada"},{"id":{"p":1},"fullName":"Nobody"},{"id":"p2","fullName":"Bo"}]',
  ) as ServiceRecord[];
  const spec = checkSpec({ sheetName: 'Partners', fields: ['id', 'fullName'] }, [], () => 'imp1');
  const w = world(fakeList(items).fetch, [spec]);
  const [run] = drive(w, 60_000);
  expect(run.status).toBe('done');
  expect(run.message).toBe(
    'Imported 2 active limited partners into "Partners". Skipped 2 listed records: 2 without an id.',
  );
  expect(w.tables.get('Partners')).toEqual([
    ['id', 'fullName'],
    ['p1', 'Ada'],
    ['p2', 'Bo'],
  ]);
});

test('a partner the service lists twice, alike in two reads, is imported once and the run says so', () => {
  const items: ServiceRecord[] = Array.from({ length: 250 }, (_, i) => ({ id: `p${i}`, fullName: `Name ${i}` }));
  items[150] = { ...items[20] };
  const w = world(fakeList(items).fetch, [
    { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' },
  ]);
  let summary: RunSummary = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
  for (let k = 0; summary.status === 'running' && k < 20; k++)
    summary = continueRun('imp1', w.nextExecution(), w.clock.t + 60_000);
  expect(summary.status).toBe('done');
  expect(summary.message).toContain(
    'Left out 1 repeated listing (ids the service listed more than once, alike in two reads): each partner is kept as first listed.',
  );
  const ids = (w.tables.get('Partners') ?? []).slice(1).map((r) => r[0]);
  expect(ids).toEqual([...new Set(items.map((r) => r.id))]);
});

test('partners the service lists more than once with other contents are imported as first listed, and the run counts the listings left out', () => {
  const items: ServiceRecord[] = Array.from({ length: 3000 }, (_, i) =>
    i < 1800 ? { id: `p${i}`, fullName: `Name ${i}` } : { id: `p${i - 1800}`, fullName: `Other ${i}` },
  );
  const w = world(fakeList(items).fetch, [
    { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' },
  ]);
  const summary = drive(w, 60_000).pop();
  expect(summary?.status).toBe('done');
  expect(summary?.message).toContain('Left out 1,200 repeated listings');
  expect(w.tables.get('Partners')?.slice(1)).toEqual(items.slice(0, 1800).map((r) => [r.id, r.fullName]));
});
