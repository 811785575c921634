/**
 * An import sorted by fit to a fund, through the state machine over in-memory ports: the whole
 * list is read as ever, then the partners with some fit are written best first, ties by id, the
 * best `top` only, with the fit columns (rank, score, reasons) LP_MATCH shows; the fund is asked
 * for once a step; a fund that cannot be had fails the run and leaves the sheet as it was; and
 * the spec refuses what makes no sense (a fund id missing, a top out of range, fit beside a sort
 * by fields, the fit columns without fit).
 */
import type { ServiceRecord } from '../../../src/api/records';
import { ServiceError } from '../../../src/api/errors';
import type { ImportPorts } from '../../../src/import/ports';
import { beginRun, continueRun } from '../../../src/import/machine';
import type { RunSummary } from '../../../src/import/run-state';
import { rowShape } from '../../../src/import/shape';
import { checkSpec, type ImportSpec } from '../../../src/import/spec';
import { fitRecord, fundProfile, rankPartners } from '../../../src/table/match';
import { fakeList } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { FUND } from '../../helpers/match-fixtures';

const SECTORS = [['Fintech'], ['SaaS', 'AI'], ['Biotech'], [], ['fintech', 'saas', 'ai']];
const partners = (n: number): ServiceRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `p${String(i).padStart(4, '0')}`,
    fullName: `Name ${i}`,
    sectorsFocused: SECTORS[i % SECTORS.length],
    investmentFocus: i % 3 === 0 ? ['Seed'] : ['Growth'],
    ticketSize: i % 4 === 0 ? null : ((i * 7919) % 5000) * 1000,
    region: i % 6 === 0 ? ['Europe'] : ['APAC'],
  }));

const FIELDS = ['id', 'fullName', 'fitRank', 'fitScore', 'fitSectors', 'fitTicket'];
const saved = (input: Record<string, unknown>): ImportSpec =>
  checkSpec({ sheetName: 'Targets', fields: FIELDS, ...input }, [], () => 'imp1');
const table = (w: World) => w.tables.get('Targets') ?? [];

/** Every execution's ports, with the fund port answering from `funds` (and counting its calls). */
function withFunds(w: World, funds: Record<string, ServiceRecord>, asked: string[]): () => ImportPorts {
  return () => {
    const ports = w.nextExecution();
    ports.fund = (id) => {
      asked.push(id);
      const f = funds[id];
      if (!f) throw new ServiceError('NOT_FOUND', `Unknown venture fund id: ${id}`);
      return f;
    };
    return ports;
  };
}

function drive(next: () => ImportPorts, w: World, budget = 60_000): RunSummary[] {
  const seen = [beginRun('imp1', 'sidebar', next(), w.clock.t + budget)];
  while (seen[seen.length - 1].status === 'running' && seen.length < 60)
    seen.push(continueRun('imp1', next(), w.clock.t + budget));
  return seen;
}

describe('an import sorted by fit', () => {
  const items = partners(1050);
  // Computed in the tests that read it, not as the file loads: a broken ranking then fails those tests, not the file.
  const best40 = () =>
    rankPartners(items, fundProfile(FUND, 'vf_test'))
      .slice(0, 40)
      .map((fit, i) => {
        const r = fitRecord(fit, i + 1);
        return [r.id, r.fullName, r.fitRank, r.fitScore, r.fitSectors, r.fitTicket];
      });

  test('writes the best fits, best first, ties by id, with the columns LP_MATCH shows', () => {
    const expected = best40();
    const w = world(fakeList(items).fetch, [saved({ fit: { fund: 'vf_test', top: 40 } })]);
    const asked: string[] = [];
    const steps = drive(withFunds(w, { vf_test: FUND }, asked), w);
    expect(steps.map((s) => s.status)).toEqual(['done']);
    expect(steps[0].message).toBe(
      'Imported 40 of 1,050 active limited partners (the best fits to fund vf_test) into "Targets".',
    );
    expect(table(w)[0]).toEqual(FIELDS);
    expect(table(w).slice(1)).toEqual(expected);
    expect(asked).toEqual(['vf_test']);
    // A scheduled run after it keeps the list fresh over its own table.
    const again = drive(withFunds(w, { vf_test: FUND }, asked), w);
    expect(again.map((s) => s.status)).toEqual(['done']);
    expect(table(w).slice(1)).toEqual(expected);
    // Ties really are broken by id: the list holds many equal scores.
    const scores = expected.map((r) => r[3]);
    expect(new Set(scores).size).toBeLessThan(scores.length);
  });

  test('across many short steps the result is the same, the fund asked for once a step that stages rows', () => {
    const w = world(fakeList(items).fetch, [saved({ fit: { fund: 'vf_test', top: 40 } })], { msPerFetch: 4000 });
    const asked: string[] = [];
    const steps = drive(withFunds(w, { vf_test: FUND }, asked), w, 12_000);
    expect(steps.length).toBeGreaterThan(2);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(table(w).slice(1)).toEqual(best40());
    expect(asked.length).toBeLessThanOrEqual(steps.length);
  });

  test('with filters: the best fits among the partners that match them', () => {
    const w = world(fakeList(items).fetch, [
      saved({ fit: { fund: 'vf_test' }, filters: [{ field: 'region', op: 'is', value: 'europe' }] }),
    ]);
    const steps = drive(withFunds(w, { vf_test: FUND }, []), w);
    const europe = items.filter((p) => (p.region as string[])[0] === 'Europe');
    const want = rankPartners(europe, fundProfile(FUND, 'vf_test')).map((f) => f.record.id);
    expect(steps[steps.length - 1].message).toBe(
      `Imported ${want.length} of 1,050 active limited partners (the best fits to fund vf_test matching the filters) into "Targets".`,
    );
    expect(
      table(w)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(want);
    expect(table(w)[1][2]).toBe(1);
  });

  test('a fund that cannot be had fails the run and leaves the sheet as it was', () => {
    const w = world(fakeList(items).fetch, [saved({ fit: { fund: 'vf_gone' } })]);
    w.own('Targets', [FIELDS, ['p0001', 'Kept', 1, 99, 'x', 'y']], FIELDS);
    const steps = drive(withFunds(w, { vf_test: FUND }, []), w);
    expect(steps[steps.length - 1].status).toBe('failed');
    expect(steps[steps.length - 1].message).toContain('Unknown venture fund id: vf_gone');
    expect(table(w)).toEqual([FIELDS, ['p0001', 'Kept', 1, 99, 'x', 'y']]);
  });

  test('a fund with none of the fields the ranking reads fails the run, saying so', () => {
    const w = world(fakeList(items).fetch, [saved({ fit: { fund: 'vf_bare' } })]);
    const steps = drive(withFunds(w, { vf_bare: { id: 'vf_bare' } }, []), w);
    expect(steps[steps.length - 1].message).toContain('Fund vf_bare gives none of the fields LP_MATCH compares');
  });
});

describe('the rows staged and kept', () => {
  const spec = (fit: Record<string, unknown>) => saved({ fields: ['fitRank', 'id', 'fitScore'], fit });
  const records: ServiceRecord[] = [
    { id: 'lp_c', sectorsFocused: ['SaaS'] },
    { id: 'lp_none', sectorsFocused: ['Biotech'] },
    { id: 7, sectorsFocused: ['SaaS'] },
    { id: 'lp_a', sectorsFocused: ['SaaS'] },
    { id: 'lp_b', sectorsFocused: ['SaaS'] },
    { id: 'lp_top', sectorsFocused: ['SaaS', 'AI', 'Fintech'] },
  ];
  test('a staged row: the columns, then whether it matches (some fit), its score and its text id', () => {
    const shape = rowShape(spec({ fund: 'vf_test' }), () => FUND);
    expect(shape.width).toBe(6);
    const rows = records.map((r) => shape.row(r));
    for (const row of rows) expect(row).toHaveLength(6);
    expect(rows.map((row) => row.slice(3))).toEqual([
      [true, 12, 'lp_c'],
      [false, 0, 'lp_none'],
      [true, 12, ''],
      [true, 12, 'lp_a'],
      [true, 12, 'lp_b'],
      [true, 35, 'lp_top'],
    ]);
  });
  test('kept: best first, ties by id (a record without a text id last), ranked; no fit is unmatched', () => {
    const shape = rowShape(spec({ fund: 'vf_test' }), () => FUND);
    expect(shape.keep(records.map((r) => shape.row(r)))).toEqual({
      rows: [
        [1, 'lp_top', 35],
        [2, 'lp_a', 12],
        [3, 'lp_b', 12],
        [4, 'lp_c', 12],
        [5, 7, 12],
      ],
      unmatched: new Set(['lp_none']),
    });
  });
  test('the best `top` are kept; the others read are named unmatched', () => {
    const shape = rowShape(spec({ fund: 'vf_test', top: 2 }), () => FUND);
    expect(shape.keep(records.map((r) => shape.row(r)))).toEqual({
      rows: [
        [1, 'lp_top', 35],
        [2, 'lp_a', 12],
      ],
      unmatched: new Set(['lp_none', 'lp_b', 'lp_c', '7']),
    });
  });
  test('without the data service to read the fund, staging a row fails, saying so', () => {
    const shape = rowShape(spec({ fund: 'vf_test' }));
    expect(() => shape.row(records[0])).toThrow(
      'This import sorts by fit to a fund and needs the data service to read the fund.',
    );
  });
});

describe('the saved spec', () => {
  test('keeps the fund and the top; the summary of a run names them', () => {
    expect(saved({ fit: { fund: ' vf_0003 ', top: '50' } }).fit).toEqual({ fund: 'vf_0003', top: 50 });
    expect(saved({ fit: { fund: 'vf_0003' }, fields: ['id'] }).fit).toEqual({ fund: 'vf_0003' });
    expect(saved({ fit: null, fields: ['id'] }).fit).toBeUndefined();
  });
  test.each([
    ['null', null, undefined],
    ['blank', '', undefined],
    ['1', 1, 1],
    ['digits with spaces around them', ' 12 ', 12],
    ['the most', 20000, 20000],
  ])('a top of %s is read as the number it gives, or none', (_, top, kept) => {
    expect(saved({ fit: { fund: 'vf_0003', top } }).fit).toEqual(
      kept === undefined ? { fund: 'vf_0003' } : { fund: 'vf_0003', top: kept },
    );
  });
  test.each([
    ['a number with a sign', '+5'],
    ['a decimal', '5.0'],
    ['an exponent', '1e3'],
    ['one past the most', 20001],
    ['a fraction', 2.5],
    ['true', true],
    ['a list', [12]],
  ])('a top of %s is refused', (_, top) => {
    expect(() => saved({ fit: { fund: 'vf_0003', top } })).toThrow(
      'Keep the best 1 to 20000 partners, or leave it blank for all.',
    );
  });
  test('a fund id as a number is kept as text; none at all is refused', () => {
    expect(saved({ fit: { fund: 3 } }).fit).toEqual({ fund: '3' });
    expect(() => saved({ fit: {} })).toThrow('Name the venture fund to sort by fit to');
  });
  test.each([
    ['no fund', { fit: { fund: '  ' } }, 'Name the venture fund to sort by fit to (an id such as vf_0003).'],
    ['a top of 0', { fit: { fund: 'vf_1', top: 0 } }, 'Keep the best 1 to 20000 partners, or leave it blank for all.'],
    ['a top that is not a number', { fit: { fund: 'vf_1', top: 'ten' } }, 'Keep the best 1 to 20000 partners'],
    [
      'fit and a sort by fields',
      { fit: { fund: 'vf_1' }, sort: [{ field: 'firm' }] },
      'Sort by fit to a fund, or by fields: not both.',
    ],
    [
      'the fit columns without fit',
      { fields: ['id', 'fitScore', 'fitType'] },
      'The columns fitScore, fitType come from sorting by fit to a fund: choose that sort, or remove them.',
    ],
  ])('%s is refused', (_, input, message) => {
    expect(() => saved(input)).toThrow(message);
  });
});
