/**
 * Replace anyway rewrites a sheet that is not as the import left it: the analyst chose so, for
 * one run or for every run of the import (scheduled ones included). What it overwrote of theirs
 * is said in the run's message and in the run log, never dropped without a word; a sheet as the
 * import left it is replaced with the usual message.
 */
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { beginRun } from '../../../src/import/machine';
import type { OutCell } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';

const spec = (replaceAnyway?: boolean): ImportSpec => ({
  id: 'imp1',
  sheetName: 'Partners',
  fields: ['id', 'fullName'],
  mode: 'replace',
  ...(replaceAnyway ? { replaceAnyway } : {}),
});
const run = (w: World, force = false) => beginRun('imp1', 'schedule', w.nextExecution(), w.clock.t + 60_000, { force });
const logged = (w: World) => String(w.runLog[w.runLog.length - 1][RUN_LOG_HEADER.indexOf('Message')]);

/** A sheet the import wrote, then a formula typed beside the table and a name corrected by the analyst. */
function edited(w: World): void {
  expect(run(w).status).toBe('done');
  const t = (w.tables.get('Partners') as OutCell[][]).map((r) => [...r, '']);
  t[1][2] = { formula: '=LEN(B2)' };
  t[2][1] = 'Corrected';
  w.tables.set('Partners', t);
}

describe('Replace anyway says what of the analyst it overwrote', () => {
  test('for one run: the formula and the edited cell are named in the message and the run log', () => {
    const w = world(fakeList(records(3)).fetch, [spec()]);
    edited(w);
    const done = run(w, true);
    expect(done.status).toBe('done');
    expect(done.message).toBe(
      'Imported 3 active limited partners into "Partners". Replaced anyway: overwrote cells not as the import left them (C2 (a formula), B3 (edited)).',
    );
    expect(logged(w)).toBe(done.message);
    expect(w.tables.get('Partners')?.[2]).toEqual(['p1', 'Name 1']);
  });

  test('kept for every run: a scheduled run names what the analyst typed since', () => {
    const w = world(fakeList(records(3)).fetch, [spec(true)]);
    edited(w);
    expect(run(w).message).toContain(
      'Replaced anyway: overwrote cells not as the import left them (C2 (a formula), B3 (edited)).',
    );
  });

  test('over a table typed by hand: the cells it did not write are named', () => {
    const w = world(fakeList(records(3)).fetch, [spec()]);
    w.tables.set('Partners', [
      ['id', 'fullName'],
      ['x1', 'Ann'],
    ]);
    expect(run(w, true).message).toBe(
      'Imported 3 active limited partners into "Partners". Replaced anyway: overwrote cells the import did not write (A1, B1, A2 and 1 more).',
    );
  });

  test('a sheet as the import left it is replaced with the usual message', () => {
    const w = world(fakeList(records(3)).fetch, [spec(true)]);
    expect(run(w).status).toBe('done');
    expect(run(w, true).message).toBe('Imported 3 active limited partners into "Partners".');
  });
});
