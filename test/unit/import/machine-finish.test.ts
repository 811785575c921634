/**
 * How an import run ends (src/import/machine.ts): the run log's row and the saved import's last
 * run, the notes of the run's message (records skipped, rows with a repeated id), a replace run
 * refused at the moment of writing, the change log of a watched replace, and the analyst letting
 * the import own a table it did not write (adoptTable). Driven over the in-memory ports.
 */
import { ServiceError } from '../../../src/api/errors';
import { adoptTable, beginRun } from '../../../src/import/machine';
import { RUN_LOG_HEADER } from '../../../src/import/run-log';
import type { OutCell } from '../../../src/import/merge';
import type { RunSummary } from '../../../src/import/run-state';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { timedDrive } from '../../helpers/import-drive';

const spec = (mode: 'replace' | 'merge' = 'replace', more: Partial<ImportSpec> = {}): ImportSpec => ({
  id: 'imp1',
  sheetName: 'Partners',
  fields: ['id', 'fullName'],
  mode,
  ...more,
});
const drive = (w: World): RunSummary[] => timedDrive(w, 60_000).steps;
const logCell = (w: World, row: number, column: string) => w.runLog[row][RUN_LOG_HEADER.indexOf(column)];

describe('the run log and the saved import after a run', () => {
  test('a failed run logs no history rows and no alert: both cells empty', () => {
    const refused = world(
      fakeList(records(3), { fail: () => new ServiceError('AUTH', 'The API key was refused.') }).fetch,
      [spec()],
    );
    expect(drive(refused).pop()?.status).toBe('failed');
    expect(logCell(refused, 0, 'History rows')).toBe('');
    expect(logCell(refused, 0, 'Alert')).toBe('');
  });

  test('a failed run keeps the row count of the last run that wrote the sheet', () => {
    let refuse = false;
    const list = fakeList(records(3), {
      fail: () => (refuse ? new ServiceError('AUTH', 'The API key was refused.') : undefined),
    });
    const w = world(list.fetch, [spec()]);
    expect(drive(w).pop()?.status).toBe('done');
    expect(w.specs[0].last).toMatchObject({ status: 'done', rows: 3 });
    refuse = true;
    expect(drive(w).pop()?.status).toBe('failed');
    expect(w.specs[0].last).toMatchObject({ status: 'failed', rows: 3 });
  });

  test('a run notes its outcome on its own saved import only, wherever it is in the list', () => {
    const other: ImportSpec = { ...spec(), id: 'imp0', sheetName: 'Other' };
    const w = world(fakeList(records(3)).fetch, [other, spec()]);
    expect(drive(w).pop()?.status).toBe('done');
    expect(w.specs.find((s) => s.id === 'imp0')?.last).toBeUndefined();
    expect(w.specs.find((s) => s.id === 'imp1')?.last).toMatchObject({ status: 'done', rows: 3 });
  });

  test('an import deleted while its run reads still ends its run: the table is written and the run logged', () => {
    const list = fakeList(records(3), {
      before: () => {
        w.specs = [];
      },
    });
    const w = world(list.fetch, [spec()]);
    const end = drive(w).pop();
    expect(end?.status).toBe('done');
    expect(w.runLog).toHaveLength(1);
    expect(logCell(w, 0, 'Outcome')).toBe('done');
  });
});

describe("the run's message", () => {
  test('one record skipped is named in the singular', () => {
    const items = records(5);
    items[2] = { fullName: 'No id at all' };
    const w = world(fakeList(items).fetch, [spec()]);
    expect(drive(w).pop()?.message).toBe(
      'Imported 4 active limited partners into "Partners". Skipped 1 listed record: 1 without an id.',
    );
  });

  test('a merge counts the further rows with a repeated id, kept as they were', () => {
    const w = world(fakeList(records(3)).fetch, [spec('merge')]);
    w.own('Partners', [
      ['id', 'fullName'],
      ['p1', 'Name 1'],
      ['p1', 'Twice'],
    ]);
    expect(drive(w).pop()?.message).toBe(
      'Imported 3 active limited partners into "Partners". 2 new, 0 no longer active, 0 field changes. 1 row with a repeated id kept as it was.',
    );
  });
});

describe('a replace run refused when it comes to write', () => {
  test('a table edited while the run read is not overwritten: the run fails and says why', () => {
    const w = world(fakeList(records(2500)).fetch, [spec()], { msPerFetch: 1000 });
    w.own('Partners', [
      ['id', 'fullName'],
      ['old', 'Old'],
    ]);
    const first = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 15_000);
    expect(first.status).toBe('running');
    const edited: OutCell[][] = [
      ['id', 'fullName'],
      ['old', 'Edited'],
    ];
    w.tables.set('Partners', edited);
    const end = timedDrive(w, 60_000).steps.pop();
    expect(end?.status).toBe('failed');
    expect(end?.message).toContain('"Partners" is not as the import left it');
    expect(w.tables.get('Partners')).toEqual(edited);
  });
});

describe('a watched replace logs its changes', () => {
  const before: OutCell[][] = [
    ['id', 'fullName'],
    ['p0', 'Old 0'],
    ['gone', 'X'],
  ];
  const alert = { on: ['added' as const], owner: 'me@example.com' };

  test('once the alert has its baseline, every change goes to the change log', () => {
    const w = world(fakeList(records(2)).fetch, [spec('replace', { alert: { ...alert, baselineAt: 1 } })]);
    w.own('Partners', before);
    expect(drive(w).pop()?.status).toBe('done');
    expect(w.changeLog.map((c) => c.slice(1))).toEqual([
      ['Partners', 'p0', 'changed', 'fullName', 'Old 0', 'Name 0'],
      ['Partners', 'p1', 'new partner', '', '', ''],
      ['Partners', 'gone', 'no longer active', '', '', ''],
    ]);
    expect(w.changeLog.every((c) => c[0] instanceof Date)).toBe(true);
  });

  test('before its baseline (and without an alert) a replace logs none', () => {
    for (const more of [{ alert }, {}]) {
      const w = world(fakeList(records(2)).fetch, [spec('replace', more)]);
      w.own('Partners', before);
      expect(drive(w).pop()?.status).toBe('done');
      expect(w.changeLog).toEqual([]);
    }
  });
});

describe('the analyst lets the import own a table it did not write', () => {
  const typed: OutCell[][] = [
    ['id', 'fullName'],
    ['p0', 'Typed'],
  ];

  test('a typed table is refused by a replace until adopted; then the run replaces it', () => {
    const w = world(fakeList(records(2)).fetch, [spec()]);
    w.tables.set('Partners', typed);
    expect(drive(w).pop()?.status).toBe('failed');
    expect(w.tables.get('Partners')).toEqual(typed);
    adoptTable('imp1', w.nextExecution());
    expect(w.tags.get('Partners')?.import).toBe('imp1');
    expect(w.tables.get('Partners')).toEqual(typed);
    expect(drive(w).pop()?.status).toBe('done');
    expect(w.tables.get('Partners')).toEqual([
      ['id', 'fullName'],
      ['p0', 'Name 0'],
      ['p1', 'Name 1'],
    ]);
  });

  test('with no table in the sheet, adopting writes nothing', () => {
    const w = world(fakeList(records(2)).fetch, [spec()]);
    adoptTable('imp1', w.nextExecution());
    expect(w.writes).toEqual([]);
    expect(w.tables.has('Partners')).toBe(false);
  });
});
