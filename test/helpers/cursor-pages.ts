/**
 * Pages of a fake list (./fake-list.ts) handed to the record of a read (src/api/pages.ts) one at a
 * time, the way the import hands it the pages it gets: a page as the fake service serves it, and
 * a record with the first pages of a list already in.
 */
import { type ListRecord, startRead, takePage, factsOf } from '../../src/api/pages';
import type { Page, ServiceRecord } from '../../src/api/records';
import { fakeList } from './fake-list';

/** Page `page` of `items` as the fake service serves it at `limit` (100 a page at most). */
export function servedPage(items: ServiceRecord[], page: number, limit: number): Page<ServiceRecord> {
  const o = fakeList(items).fetch([page], limit)[0];
  if (!o.ok) throw o.error;
  return o.value;
}

/** A record with pages 1..`upTo` of `items` in, read 100 a page. */
export function readUpTo(items: ServiceRecord[], upTo: number): ListRecord {
  const r = startRead(1000);
  for (let p = 1; p <= upTo; p++) takePage(r, p, factsOf(servedPage(items, p, r.limit)));
  return r;
}
