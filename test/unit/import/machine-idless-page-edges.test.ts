/**
 * Records without a usable id (missing, null, blank) are skipped and counted, never a reason to fail
 * the list: two pages in a row whose first and last records have none are not taken for a repeat of
 * each other, whether the step read them itself or read them back from staging, where pages held
 * past a step wait (src/import/machine.ts hold(), src/import/held.ts restoreHeld, the cursor's page
 * signature in src/api/pages.ts). Driven over the in-memory ports.
 */
import { beginRun, continueRun } from '../../../src/import/machine';
import type { ServiceRecord } from '../../../src/api/records';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { limited } from '../../helpers/import-drive';
import { idsBelowHeader, world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

// 400 partners, pages of 100; the first and last record of pages 2 and 3 have no usable id (`id` missing, null, blank).
const list = (missing: unknown): ServiceRecord[] =>
  records(400).map((r, i) => ([100, 199, 200, 299].includes(i) ? { ...r, id: missing } : r) as ServiceRecord);

test.each([[undefined], [null], ['']])(
  'records whose id is %p at the edges of two pages: the import completes',
  (missing) => {
    const items = list(missing);
    const expected = items.filter((r) => typeof r.id === 'string' && r.id !== '').map((r) => r.id);
    const w = world(fakeList(items).fetch, [spec], { msPerFetch: 10 });
    let last = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 20_000);
    for (let k = 0; k < 20 && last.status === 'running'; k++)
      last = continueRun('imp1', w.nextExecution(), w.clock.t + 20_000);
    expect(last.message).not.toMatch(/repeats/);
    expect(last.status).toBe('done');
    expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(expected);
    expect(last.message).toMatch(/Skipped 4 listed records/);
  },
);

test.each([[undefined], [null], ['']])(
  'records whose id is %p at the edges of pages 3 and 4, held past a step while page 2 waits: the import completes',
  (missing) => {
    const items = records(500).map(
      (r, i) => ([200, 299, 300, 399].includes(i) ? { ...r, id: missing } : r) as ServiceRecord,
    );
    const expected = items.filter((r) => typeof r.id === 'string' && r.id !== '').map((r) => r.id);
    let refused = false;
    const list = fakeList(items, {
      fail: (page) => {
        if (page !== 2 || refused) return undefined;
        refused = true;
        return limited(30);
      },
    });
    const w = world(list.fetch, [spec], { msPerFetch: 10 });
    let last = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 20_000);
    expect(last.status).toBe('running');
    expect(w.runs.get('imp1')?.list).toMatchObject({ next: 2, slots: 'wiiix' });
    for (let k = 0; k < 20 && last.status === 'running'; k++)
      last = continueRun('imp1', w.nextExecution(), w.clock.t + 20_000);
    expect(last.status).toBe('done');
    expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(expected);
    expect(list.asked.filter((a) => a.page === 3 || a.page === 4)).toHaveLength(2);
  },
);
