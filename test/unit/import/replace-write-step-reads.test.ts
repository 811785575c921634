/**
 * What the step that ends a replace run asks of its sheet (src/import/end.ts): reading the target
 * table (its values, formulas and the import's record) is a call to Sheets, slow on a large table
 * and taken from the step's budget. The step reads the sheet once before writing it, and the check
 * that the sheet may still be replaced uses that same read; after writing, one read records the
 * table as Sheets holds it. Driven over the in-memory ports, every call to the target port of the
 * writing execution recorded in order.
 */
import { beginRun, continueRun } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** Records, in order, each call to the target port of the next execution of `w`: a read, a record (pending or made current) or a table write. */
function targetCalls(w: World): string[] {
  const calls: string[] = [];
  const ports = w.nextExecution();
  const { read, record, commit, write } = ports.target;
  ports.target.read = (name) => {
    calls.push('read');
    return read(name);
  };
  ports.target.record = (name, importId, rows) => {
    calls.push('tag');
    record(name, importId, rows);
  };
  ports.target.commit = (name, importId, rows) => {
    calls.push('tag');
    commit(name, importId, rows);
  };
  ports.target.write = (name, grid, columns, importId) => {
    calls.push('table');
    write(name, grid, columns, importId);
  };
  return calls;
}

test('the step that writes a replace reads the sheet once before writing it and once after', () => {
  const w = world(fakeList(records(3)).fetch, [spec]);
  w.own('Partners', [
    ['id', 'fullName'],
    ['p0', 'Old name'],
  ]);
  // Started with no time for a step: the run is left running, its sheet not yet written.
  expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t).status).toBe('running');
  const calls = targetCalls(w);
  expect(continueRun('imp1', w.ports, w.clock.t + 60_000).status).toBe('done');
  expect(calls).toEqual(['read', 'tag', 'table', 'read', 'tag']);
  expect(w.tables.get('Partners')).toEqual([['id', 'fullName'], ...records(3).map((r) => [r.id, r.fullName])]);
});
