/**
 * A watched replace (its alert has a baseline) logs what changed against the table it replaces,
 * matched by id, so the alert's link to the change log shows it, even when it replaces anyway a
 * table of its own the analyst edited. Where no table of the import's can be matched by id (a
 * table typed by hand, replaced anyway; the header row deleted), the replace still goes ahead,
 * with nothing in the change log, as the unwatched replace does.
 */
import { beginRun } from '../../../src/import/machine';
import type { OutCell } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';

const spec = (more: Partial<ImportSpec> = {}): ImportSpec => ({
  id: 'imp1',
  sheetName: 'Partners',
  fields: ['id', 'fullName'],
  mode: 'replace',
  alert: { on: ['added'], owner: 'me@example.com', baselineAt: 1 },
  ...more,
});
const run = (w: World, force = false) => beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000, { force });
const table = (w: World) => w.tables.get('Partners') as OutCell[][];

describe('a watched replace', () => {
  test('over its own table logs each change against it, by id', () => {
    const w = world(fakeList(records(2)).fetch, [spec()]);
    w.own('Partners', [
      ['id', 'fullName'],
      ['p0', 'Old 0'],
    ]);
    expect(run(w).status).toBe('done');
    expect(w.changeLog.map((c) => c.slice(2, 4))).toEqual([
      ['p0', 'changed'],
      ['p1', 'new partner'],
    ]);
  });

  test('replacing anyway its own table after an edit still logs each change against it, by id', () => {
    const w = world(fakeList(records(2)).fetch, [spec({ replaceAnyway: true })]);
    w.own('Partners', [
      ['id', 'fullName'],
      ['p0', 'Old 0'],
    ]);
    table(w)[1][1] = 'Edited 0';
    const done = run(w);
    expect(done.status).toBe('done');
    expect(done.message).toContain('Replaced anyway: overwrote cells not as the import left them (B2 (edited)).');
    expect(w.changeLog.map((c) => c.slice(2, 7))).toEqual([
      ['p0', 'changed', 'fullName', 'Edited 0', 'Name 0'],
      ['p1', 'new partner', '', '', ''],
    ]);
  });

  test('replacing anyway a table typed by hand: done, the table written, nothing to log', () => {
    const w = world(fakeList(records(2)).fetch, [spec({ replaceAnyway: true })]);
    w.tables.set('Partners', [
      ['Name', 'Notes'],
      ['x', 'y'],
    ]);
    const done = run(w);
    expect(done.status).toBe('done');
    expect(done.message).toContain(
      'Replaced anyway: overwrote cells the import did not write (A1, B1, A2 and 1 more).',
    );
    expect(table(w)).toEqual([
      ['id', 'fullName'],
      ['p0', 'Name 0'],
      ['p1', 'Name 1'],
    ]);
    expect(w.changeLog).toEqual([]);
  });

  test('after the header row was deleted: done, the header written again, nothing to log', () => {
    const w = world(fakeList(records(2)).fetch, [spec()]);
    expect(run(w).status).toBe('done');
    w.tables.set('Partners', table(w).slice(1));
    const before = w.changeLog.length;
    expect(run(w).status).toBe('done');
    expect(table(w)[0]).toEqual(['id', 'fullName']);
    expect(w.changeLog).toHaveLength(before);
  });
});
