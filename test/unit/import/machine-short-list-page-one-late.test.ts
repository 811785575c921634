/**
 * A short list (two pages, the second one short) whose page 1 must wait (Retry-After past the
 * step): the pages read ahead of it are kept in staging by the shape they show. The second page
 * is the last one, shorter than a full page, so it says nothing of the page size; when page 1
 * comes in the next step the pages read ahead must still be taken back, each page of the list
 * answered once in the run (the pages past the end asked for no more than once). Driven step by step over the in-memory ports.
 */
import type { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('page 1 late, the page read ahead of it short: each page is answered once and the table is the list', () => {
  for (const total of [150, 120, 101]) {
    let refusedOnce = false;
    const list = fakeList(records(total), {
      fail: (page): ServiceError | undefined => {
        if (page !== 1 || refusedOnce) return undefined;
        refusedOnce = true;
        return limited(30);
      },
    });
    const w = world(list.fetch, [spec]);
    const { steps } = timedDrive(w, 20_000);
    expect(steps.map((s) => s.status).pop()).toBe('done');
    expect(
      w.tables
        .get('Partners')
        ?.slice(1)
        .map((r) => r[0]),
    ).toEqual(records(total).map((r) => r.id));
    // No page is answered twice in the run (page 1, refused once, is asked for twice).
    const asked = new Map<number, number>();
    for (const { page } of list.asked) asked.set(page, (asked.get(page) ?? 0) + 1);
    const repeated = [...asked].filter(([page, n]) => n > (page === 1 ? 2 : 1)).map(([page]) => page);
    expect({ total, repeated }).toEqual({ total, repeated: [] });
  }
});
