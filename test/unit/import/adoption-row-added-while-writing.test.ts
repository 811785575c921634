/**
 * Letting the import own a table records the rows it read, not rows the analyst adds below them
 * while it writes (Sheets takes edits during an execution): the record is completed from the
 * sheet as read back, and a partner's row typed meanwhile stays the analyst's, so the next replace
 * names it instead of dropping it.
 */
import { adoptTable, beginRun } from '../../../src/import/machine';
import type { OutCell } from '../../../src/import/ports';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';

test('a row typed below the table while the adoption writes is named by the next replace, not dropped', () => {
  const w = world(fakeList(records(2)).fetch, [
    { id: 'imp1', sheetName: 'P', fields: ['id', 'fullName'], mode: 'replace' },
  ]);
  w.tables.set('P', [
    ['id', 'fullName'],
    ['p0', 'Name 0'],
  ]);
  const run = () => beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
  expect(run().message).toContain('holds cells the import did not write');
  const ports = w.nextExecution();
  const write = ports.target.write;
  ports.target.write = (...args) => {
    write(...args);
    w.tables.get('P')?.push(['p7', 'Typed meanwhile']);
  };
  adoptTable('imp1', ports);
  const before = (w.tables.get('P') as OutCell[][]).map((r) => [...r]);
  const done = run();
  expect(done.status).toBe('failed');
  expect(done.message).toContain('(A3 (edited), B3 (edited))');
  expect(w.tables.get('P')).toEqual(before);
});
