/**
 * How a step that read few pages writes them to staging (src/import/machine.ts save): at their
 * place, one write per run of consecutive pages in list order, whatever order the pages came in.
 * Driven over the in-memory ports, with every staging write of the step recorded.
 */
import { beginRun, continueRun } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { records } from '../../helpers/fake-list';
import { idsBelowHeader, world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('page 1 that came after the pages behind it is written with them, in one write from row 0', () => {
  // Page 1 waits 2 s; pages from 6 on wait 200 s: the first step reads pages 2 to 5, then page 1.
  const list = refusingList(2000, (page, call) =>
    call === 0 && (page === 1 || page >= 6) ? limited(page === 1 ? 2 : 200) : undefined,
  );
  const w = world(list.fetch, [spec]);
  const writes: Array<{ at: number; rows: number }> = [];
  const ports = w.nextExecution();
  const write = ports.staging.write;
  ports.staging.write = (id, header, at, rows) => {
    writes.push({ at, rows: rows.length });
    write(id, header, at, rows);
  };
  const first = beginRun('imp1', 'sidebar', ports, w.clock.t + 20_000);
  expect(first.status).toBe('running');
  expect(list.asked.filter((a) => a.page === 1)).toHaveLength(2);
  expect(writes).toEqual([{ at: 0, rows: 500 }]);
  expect(idsBelowHeader(w.staging.get('imp1'))).toEqual(records(500).map((r) => r.id));
  // The run goes on from page 6 once it may be asked for.
  let summary = first;
  for (let k = 0; k < 20 && summary.status === 'running'; k++)
    summary = continueRun('imp1', w.nextExecution(), w.clock.t + 20_000);
  expect(summary.status).toBe('done');
  expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(records(2000).map((r) => r.id));
});
