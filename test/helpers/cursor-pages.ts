/**
 * Pages of a fake list (./fake-list.ts) handed to the list cursor (src/api/pages.ts) one at a
 * time, the way the import hands it the pages it holds: a page as the fake service serves it, and
 * a cursor with the first pages of a list already in.
 */
import { acceptPage, type ListCursor, startCursor } from '../../src/api/pages';
import type { Page, ServiceRecord } from '../../src/api/records';
import { fakeList } from './fake-list';

/** Page `page` of `items` as the fake service serves it at `limit` (100 a page at most). */
export function servedPage(items: ServiceRecord[], page: number, limit: number): Page<ServiceRecord> {
  const o = fakeList(items).fetch([page], limit)[0];
  if (!o.ok) throw o.error;
  return o.value;
}

/** A cursor with pages 1..`upTo` of `items` in, read 100 a page. */
export function readUpTo(items: ServiceRecord[], upTo: number): ListCursor {
  const c = startCursor(1000);
  for (let p = 1; p <= upTo; p++) acceptPage(c, p, servedPage(items, p, c.limit));
  return c;
}
