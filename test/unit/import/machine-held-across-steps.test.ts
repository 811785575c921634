/**
 * Pages held across steps (src/import/held.ts), kept in staging and read back. Before page 1 is in, pages read ahead of it are kept in staging at the place the shape they
 * show gives them (src/import/held.ts), and asked for again only if page 1 shows another list. A
 * refusal that comes later can change that shape without any page being read: a page past the end
 * refused as no such page tells that a lone short page was the last one, not a full one. Staging
 * must then follow the new shape, or the next step reads those pages back from the wrong rows.
 * Pages the service answered empty are kept too: they are not asked for again. Once page 1 is in,
 * a staging sheet is only as long as what was written to it (or its first 1,000 rows), so the rows
 * read back stop at the last held page that holds rows: the page after the last one, asked to
 * confirm the end, holds none. Driven step by step over the in-memory ports.
 */
import type { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/**
 * Imports `total` partners in 20 s steps, page `p` refused for now (Retry-After `refusals(p)[k]` s)
 * at its k-th request and answered after; checks the run ends done with the list in the table and
 * returns how often each page was asked for.
 */
function imported(
  total: number,
  refusals: (page: number) => number[],
  options: { pastEnd?: '404'; msPerFetch?: number } = {},
): Map<number, number> {
  const asks = new Map<number, number>();
  const list = fakeList(records(total), {
    pastEnd: options.pastEnd,
    fail: (page): ServiceError | undefined => {
      const n = (asks.get(page) ?? 0) + 1;
      asks.set(page, n);
      const wait = refusals(page)[n - 1];
      return wait === undefined ? undefined : limited(wait);
    },
  });
  const w = world(list.fetch, [spec], { msPerFetch: options.msPerFetch });
  const { steps } = timedDrive(w, 20_000);
  expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: total });
  expect((w.tables.get('Partners') ?? []).slice(1).map((r) => r[0])).toEqual(records(total).map((r) => r.id));
  return asks;
}

test('page 1 late, page 3 (the short last one) read ahead, page 4 refused as missing a step later: the table is the list', () => {
  // 285 partners: pages of 100, 100 and 85. Page 3 alone reads as a full page of 85 (four pages) or as the last one.
  imported(285, (page) => (page <= 2 ? [60] : page === 4 ? [25] : []), { pastEnd: '404' });
});

test('pages 1 and 2 late, the pages read ahead of them empty: none of those is asked for again', () => {
  // 127 partners in two pages: pages 3 to 21, asked for with page 1, are past the end.
  const asks = imported(127, (page) => (page <= 2 ? [30] : []));
  expect([...asks].filter(([page, n]) => n > (page <= 2 ? 2 : 1)).map(([page]) => page)).toEqual([]);
});

test('the last page refused for 30 s, the empty page after it held: the next step takes it back and the import ends', () => {
  // 1,200 partners in 12 full pages: page 13 is asked for to confirm the end. Two seconds a request: a step reads
  // about eight pages, so the last one reads few and writes them at their place.
  const asks = imported(1200, (page) => (page === 12 ? [30] : []), { msPerFetch: 2000 });
  expect([asks.get(12), asks.get(13)]).toEqual([2, 1]);
});
