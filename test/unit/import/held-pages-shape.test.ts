/**
 * The shape pages read ahead of page 1 show (src/import/held.ts provisionalShape): pages of a list
 * asked for with one limit, held in any order, some holding none or refused as no such page; the
 * reading that places the most of them wins. And when two such readings are the same (sameShape).
 */
import { ServiceError } from '../../../src/api/errors';
import { type Held, provisionalShape, type Shape, sameShape } from '../../../src/import/held';

/** Held page `p` of a list of `total` items, holding `n` of them. */
const page = (p: number, n: number, total: number): Held => {
  const ids = Array.from({ length: n }, (_, k) => `p${p}-${k}`);
  return {
    page: {
      items: ids.map((id) => ({ id })),
      pagination: { totalItems: total, totalPages: 0, currentPage: p, pageSize: 0 },
    },
    rows: ids.map((id) => [id]),
  };
};
const noSuchPage: Held = { refused: new ServiceError('NOT_FOUND', 'Not found (HTTP 404).') };
const held = (...pages: Array<[number, Held]>) => new Map<number, Held>(pages);

/** 5 items in pages of 2: pages 1 and 2 full, page 3 holding the last one. */
const fiveInTwos: Shape = { size: 2, totalItems: 5, lastPage: 3 };

test('pages held in any order: the full page before the last one tells the size, whichever came first', () => {
  // Page 3 (the last, one item) came before page 2 (full): page 2 is the one that tells the size.
  expect(provisionalShape(held([3, page(3, 1, 5)], [2, page(2, 2, 5)]), 2)).toEqual(fiveInTwos);
});

test('a lone page holding items followed by an empty page reads as the last page', () => {
  // Page 3 holds one item of 5 and page 4 none: pages 1 and 2 hold two each.
  expect(provisionalShape(held([3, page(3, 1, 5)], [4, page(4, 0, 5)]), 2)).toEqual(fiveInTwos);
});

test('a lone page followed by a refused page reads as the last page: the refused one lies past the end', () => {
  // Page 2 holds 2 of 5 items and page 3 is refused: pages of 3, page 2 the last.
  expect(provisionalShape(held([2, page(2, 2, 5)], [3, noSuchPage]), 3)).toEqual({
    size: 3,
    totalItems: 5,
    lastPage: 2,
  });
});

test('a refused page held before the empty ones: the list is one page, as long as the limit allows', () => {
  expect(provisionalShape(held([2, noSuchPage], [3, page(3, 0, 5)]), 10)).toEqual({
    size: 10,
    totalItems: 5,
    lastPage: 1,
  });
});

test('no shape is not the same as a shape, either way round', () => {
  expect(sameShape(undefined, fiveInTwos)).toBe(false);
  expect(sameShape(fiveInTwos, undefined)).toBe(false);
});
