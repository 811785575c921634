/**
 * Odd records from the data service, as JSON.parse makes them, through the table layer: every
 * value of every declared type becomes a cell of a type Sheets keeps (a finite number, a valid
 * date, a boolean, or text that is never read as a formula, number or date, and fits a cell);
 * sorts give a total order and filters, suggestions and LP_FIND's search never throw, so one odd
 * record never takes down a list. Values are drawn from seeds, several seeds swept.
 */
import {
  type FieldSpec,
  type FieldType,
  FUND_FIELD_SPECS,
  type JsonValue,
  LP_FIELD_SPECS,
  type ServiceRecord,
} from '../../../src/api/records';
import { type Cell, isDate, MAX_CELL_CHARS, TRUNCATION_MARK, toCell } from '../../../src/table/cells';
import { applyQuery, checkCondition, commonValues, compileQuery, opsFor } from '../../../src/table/filter';
import { rowsTable } from '../../../src/table/rows';
import { normalize, searchRecords } from '../../../src/table/search';
import { oddRecord, oddValue, pick, seeded } from '../../helpers/odd-values';

const SEEDS = Array.from({ length: 12 }, (_, k) => k + 1);
const TYPES: readonly FieldType[] = ['string', 'integer', 'float', 'boolean', 'datetime', 'json', 'list'];

/** What is wrong with a cell written to a sheet (or returned by a formula), or '' when nothing is. */
function cellProblem(cell: Cell, target: 'sheet' | 'formula'): string {
  if (typeof cell === 'number') return Number.isFinite(cell) ? '' : `a number cell ${cell}`;
  if (typeof cell === 'boolean') return '';
  if (isDate(cell)) return Number.isNaN(cell.getTime()) ? 'an invalid date' : '';
  if (typeof cell !== 'string') return `a ${typeof cell} cell`;
  if (cell.length > MAX_CELL_CHARS) return `${cell.length} characters`;
  if (
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(cell.slice(-40)) &&
    cell.endsWith(TRUNCATION_MARK)
  )
    return 'a cut that splits a character';
  // Written with setValues, text that Sheets would take for a formula or a signed number keeps a quote.
  if (target === 'sheet' && /^\s*[=+\-@\d]/.test(cell)) return `unquoted ${JSON.stringify(cell.slice(0, 30))}`;
  return '';
}

/** A value each field type's conditions take (text for text and lists). */
const VALUE_BY_TYPE: Record<FieldType, string> = {
  string: 'fund',
  list: 'fund',
  integer: '1',
  float: '1',
  datetime: '2024-02-29',
  boolean: 'true',
  json: '',
};

/** `n` odd records of the fields `specs`, drawn from `seed`. */
function oddRecords(seed: number, n: number, specs: readonly FieldSpec[] = LP_FIELD_SPECS): ServiceRecord[] {
  const rnd = seeded(seed);
  const names = specs.map((s) => s.name);
  return Array.from({ length: n }, (_, k) => oddRecord(rnd, names, k));
}

describe.each(SEEDS)('seed %i', (seed) => {
  test('every odd value of every field type becomes a cell Sheets keeps as it is', () => {
    const rnd = seeded(seed);
    const bad: string[] = [];
    for (let i = 0; i < 40; i++) {
      const value = oddValue(rnd);
      for (const type of TYPES)
        for (const target of ['sheet', 'formula'] as const) {
          const problem = cellProblem(toCell(value, type, target), target);
          if (problem) bad.push(`${type} ${target} ${JSON.stringify(value)?.slice(0, 60)}: ${problem}`);
        }
    }
    expect(bad).toEqual([]);
  });

  test('a table of odd records has one row per record, all of one width, every cell kept as it is', () => {
    const records = oddRecords(seed, 20);
    const rows = rowsTable(
      records.map((record) => ({ kind: 'record', record })),
      LP_FIELD_SPECS,
      true,
      'sheet',
    );
    expect(rows).toHaveLength(records.length + 1);
    expect(new Set(rows.map((r) => r.length))).toEqual(new Set([LP_FIELD_SPECS.length]));
    expect(rows.slice(1).flatMap((r) => r.map((c) => cellProblem(c, 'sheet')).filter(Boolean))).toEqual([]);
  });

  test.each([
    ['partner', LP_FIELD_SPECS],
    ['fund', FUND_FIELD_SPECS],
  ])('a sort of odd %s records by any field is a total order, and filters on them never throw', (_, specs) => {
    const rnd = seeded(seed + 1000);
    const records = oddRecords(seed, 12, specs);
    for (let k = 0; k < 6; k++) {
      const spec = pick(rnd, specs);
      if (spec.type !== 'json') {
        const q = compileQuery({ filters: [], sort: [{ field: spec.name, descending: rnd() < 0.5 }] }, specs);
        const keys = records.map(q.keys);
        for (const a of keys)
          for (const b of keys) {
            const ab = q.compare(a, b);
            expect([spec.name, Math.sign(ab)]).toEqual([spec.name, -Math.sign(q.compare(b, a)) || 0]);
            for (const c of keys)
              if (ab < 0 && q.compare(b, c) < 0) expect([spec.name, q.compare(a, c) < 0]).toEqual([spec.name, true]);
          }
      }
      const op = pick(rnd, opsFor(spec.name, specs));
      const one = VALUE_BY_TYPE[spec.type];
      const value = op === 'isEmpty' || op === 'isNotEmpty' ? undefined : op === 'isAnyOf' ? [one] : one;
      const filters = [checkCondition({ field: spec.name, op, value }, 'Filter 1', specs)];
      const sort = spec.type === 'json' ? [] : [{ field: spec.name }];
      expect(() => applyQuery(records, { filters, sort }, specs)).not.toThrow();
      expect(commonValues(records, spec.name).every((v) => typeof v === 'string')).toBe(true);
    }
  });

  test("LP_FIND's search over odd records never throws and finds the plain ones among them", () => {
    const odd = oddRecords(seed, 20);
    const plain: ServiceRecord = { id: 'plain', fullName: 'Zebulon Quartz', activeStatus: 'ACTIVE' };
    const found = searchRecords([...odd, plain], 'zebulon quartz');
    expect(found).toContain(plain);
    expect(found.every((r) => normalize(JSON.stringify(r)).includes('zebulon'))).toBe(true);
  });
});

describe('the odd values found by the sweep, one by one', () => {
  const parsed = (text: string) => JSON.parse(text) as JsonValue;

  test('a number too large for a double (JSON.parse makes it Infinity) is text, never an infinite number cell', () => {
    // A JSON field shows its value as JSON, where such a number is null.
    expect(toCell(parsed('1e400'), 'json', 'formula')).toBe('null');
    for (const type of TYPES.filter((t) => t !== 'json')) {
      expect(toCell(parsed('1e400'), type, 'formula')).toBe('Infinity');
      expect(toCell(parsed('-1e400'), type, 'sheet')).toBe("'-Infinity");
      expect(toCell('1e400', type, 'formula')).toBe('1e400');
    }
  });

  test('epoch milliseconds past the last date JavaScript can hold stay a number, never an invalid date', () => {
    expect(toCell(2 ** 53, 'datetime', 'formula')).toBe(2 ** 53);
    expect(toCell(8.64e15 + 1, 'datetime', 'sheet')).toBe(8.64e15 + 1);
    expect((toCell(8.64e15, 'datetime', 'sheet') as Date).getTime()).toBe(8.64e15);
  });

  test('text cut to fit a cell is never cut between the two halves of an emoji', () => {
    for (let pad = 0; pad < 4; pad++) {
      const cell = toCell('z'.repeat(49_984 + pad) + '😀'.repeat(10), 'string', 'formula') as string;
      expect(cell.endsWith(TRUNCATION_MARK)).toBe(true);
      expect(cell.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
      expect(/[\ud800-\udbff]…/.test(cell)).toBe(false);
    }
  });

  test('a status whose object has a "toString" field is not ACTIVE, and the search still answers for the others', () => {
    const odd = JSON.parse('{"id":"odd","fullName":"Ada Odd","activeStatus":{"toString":1}}') as ServiceRecord;
    const plain: ServiceRecord = { id: 'plain', fullName: 'Ada Plain', activeStatus: 'active' };
    expect(searchRecords([odd, plain], 'ada')).toEqual([plain]);
  });

  test('a sort by a TRUE/FALSE field of funds holding an object with a "toString" field puts it among the false', () => {
    const odd = JSON.parse('{"id":"odd","isUnified":{"toString":1}}') as ServiceRecord;
    const yes: ServiceRecord = { id: 'yes', isUnified: 'TRUE' };
    const no: ServiceRecord = { id: 'no', isUnified: false };
    const sorted = applyQuery(
      [odd, yes, no],
      { filters: [], sort: [{ field: 'isUnified', descending: true }] },
      FUND_FIELD_SPECS,
    );
    expect(sorted.map((r) => r.id)).toEqual(['yes', 'odd', 'no']);
    const kept = applyQuery(
      [odd, yes, no],
      { filters: [{ field: 'isUnified', op: 'is', value: 'false' }], sort: [] },
      FUND_FIELD_SPECS,
    );
    expect(kept.map((r) => r.id)).toEqual(['no']);
  });
});
