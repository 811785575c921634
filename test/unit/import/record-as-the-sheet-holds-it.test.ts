/**
 * An import's record is made current as the sheet holds what it wrote (src/import/ownership.ts
 * writeOwned): where Sheets stores a cell otherwise than written (text that reads as a number, a
 * time kept to the second), the record hashes the cell as the sheet holds it, so the next replace
 * finds it as the import left it. Hashed again, the record still leaves the analyst's cells out: a
 * row typed below the table while it was written, and an analyst's formula the merge kept (even
 * once the analyst turns it into its value); a row or the sheet deleted meanwhile does not stop
 * the run. Driven over the in-memory ports, whose write stores cells as Sheets would.
 */
import { beginRun } from '../../../src/import/machine';
import type { ImportPorts, OutCell } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';

const spec = (mode: ImportSpec['mode']): ImportSpec => ({
  id: 'imp1',
  sheetName: 'Partners',
  fields: ['id', 'fullName'],
  mode,
});
const table = (w: World) => w.tables.get('Partners') as OutCell[][];
/** Partner p0's name is digits: Sheets stores it as a number. */
const list = () => fakeList(records(2).map((r, i) => (i === 0 ? { ...r, fullName: '007' } : r)));

/**
 * The next execution, whose write stores digits as a number and a date to the second (another Date, as a read gives),
 * then runs `typed` (the analyst, while it writes).
 */
function storingAsSheets(w: World, typed: () => void = () => undefined): ImportPorts {
  const ports = w.nextExecution();
  const write = ports.target.write;
  ports.target.write = (name, grid, columns, importId) => {
    const stored = (v: OutCell) =>
      typeof v === 'string' && /^\d+$/.test(v)
        ? Number(v)
        : v instanceof Date
          ? new Date(Math.floor(v.getTime() / 1000) * 1000)
          : v;
    write(
      name,
      grid.map((row) => row.map(stored)),
      columns,
      importId,
    );
    typed();
  };
  return ports;
}
const run = (w: World, ports: ImportPorts = w.nextExecution()) =>
  beginRun('imp1', 'sidebar', ports, w.clock.t + 60_000);

describe('the record as the sheet holds the table', () => {
  test('a cell Sheets stored otherwise is the import’s; a row typed below while it wrote is the analyst’s', () => {
    const w = world(list().fetch, [spec('replace')]);
    const ports = storingAsSheets(w, () => table(w).push(['p9', 'Typed while writing']));
    expect(run(w, ports).status).toBe('done');
    expect(table(w)[1]).toEqual(['p0', 7]);
    const refused = run(w);
    expect(refused.status).toBe('failed');
    expect(refused.message).toContain('is not as the import left it (A4 (edited), B4 (edited)).');
  });

  test('a date Sheets stored to the second is the import’s as stored, and as written when it was already whole', () => {
    for (const ms of [['600'], ['600', '000'], ['000']]) {
      const dated = ms.map((m, i) => ({ id: `p${i}`, createdAt: `2026-01-02T03:04:0${i}.${m}Z` }));
      const w = world(fakeList(dated).fetch, [{ ...spec('replace'), fields: ['id', 'createdAt'] }]);
      expect(run(w, storingAsSheets(w)).status).toBe('done');
      expect(
        table(w)
          .slice(1)
          .map((row) => (row[1] as Date).toISOString()),
      ).toEqual(ms.map((_, i) => `2026-01-02T03:04:0${i}.000Z`));
      expect([ms, run(w).status]).toEqual([ms, 'done']);
    }
  });

  test('a row deleted, or the sheet deleted, while the table was written: the run is done', () => {
    const w = world(fakeList(records(2)).fetch, [spec('replace')]);
    expect(
      run(
        w,
        storingAsSheets(w, () => table(w).pop()),
      ).status,
    ).toBe('done');
    expect(table(w).map((row) => row[0])).toEqual(['id', 'p0']);
    expect(run(w).status).toBe('done');
    const ports = storingAsSheets(w, () => w.tables.delete('Partners'));
    expect(run(w, ports).status).toBe('done');
    expect(w.tables.has('Partners')).toBe(false);
  });

  test('an analyst’s formula the merge kept stays theirs, even once they turn it into its value', () => {
    const w = world(list().fetch, [spec('merge')]);
    w.own('Partners', [
      ['id', 'fullName'],
      ['p0', 'Old 0'],
      ['p1', { formula: '=0' }],
    ]);
    expect(run(w, storingAsSheets(w)).status).toBe('done');
    expect(table(w)[2][1]).toEqual({ formula: '=0' });
    table(w)[2][1] = 0;
    w.specs[0] = { ...w.specs[0], mode: 'replace' };
    const refused = run(w);
    expect(refused.status).toBe('failed');
    expect(refused.message).toContain('is not as the import left it (B3 (edited)).');
  });
});
