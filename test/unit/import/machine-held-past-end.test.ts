/**
 * Pages held across steps read back from staging: a staging sheet is only as long as what was
 * written to it (or its first 1,000 rows), so the rows read back must stop at the last held page
 * that holds rows. The page after the last one, asked to confirm the end, holds none: held behind a
 * page that waits, it must come back in the next step without a read past the sheet, and without
 * being asked again. Driven step by step over the in-memory ports.
 */
import type { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('the last page refused for 30 s, the empty page after it held: the next step takes it back and the import ends', () => {
  // 1,200 partners in 12 full pages: page 13 is asked for to confirm the end.
  let refusedOnce = false;
  const list = fakeList(records(1200), {
    fail: (page): ServiceError | undefined => {
      if (page !== 12 || refusedOnce) return undefined;
      refusedOnce = true;
      return limited(30);
    },
  });
  // Two seconds a request: a step reads about eight pages, so the last one reads few and writes them at their place.
  const w = world(list.fetch, [spec], { msPerFetch: 2000 });
  const { steps } = timedDrive(w, 20_000);
  expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: 1200 });
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(records(1200).map((r) => r.id));
  const asked = list.asked.map((a) => a.page);
  expect(asked.filter((p) => p === 13)).toEqual([13]);
  expect(asked.filter((p) => p === 12)).toEqual([12, 12]);
});
