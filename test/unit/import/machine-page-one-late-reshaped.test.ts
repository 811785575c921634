/**
 * Before page 1 is in, pages read ahead of it are kept in staging at the place the shape they
 * show gives them (./held.ts). A refusal that comes later can change that shape without any page
 * being read: a page past the end refused as no such page tells that a lone short page was the
 * last one, not a full one. Staging must then follow the new shape, or the next step reads those
 * pages back from the wrong rows. Driven step by step over the in-memory ports.
 */
import type { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('page 1 late, page 3 (the short last one) read ahead, page 4 refused as missing a step later: the table is the list', () => {
  // 285 partners: pages of 100, 100 and 85. Page 3 alone reads as a full page of 85 (four pages) or as the last one.
  const asks = new Map<number, number>();
  const list = fakeList(records(285), {
    pastEnd: '404',
    fail: (page): ServiceError | undefined => {
      const n = (asks.get(page) ?? 0) + 1;
      asks.set(page, n);
      if (n > 1) return undefined;
      if (page === 1 || page === 2) return limited(60);
      if (page === 4) return limited(25);
      return undefined;
    },
  });
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 20_000);
  expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: 285 });
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(records(285).map((r) => r.id));
});
