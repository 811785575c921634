/**
 * Reading a paginated list: one page when a page is named, otherwise the first page and then
 * every other page in one parallel batch, sized by what the server says its pages are (it may
 * cap the page size below what was asked).
 */
import type { Outcome } from './api/client';
import { ServiceError } from './api/errors';
import type { Page, ServiceRecord } from './api/records';

/** Most items a formula reads from a list before it points the analyst to the import. */
export const MAX_LIST_ITEMS = 5000;

export type PageFetcher = (pages: number[], limit: number) => Outcome<Page<ServiceRecord>>[];

export interface ListRead {
  records: ServiceRecord[];
  /** When some page came from the last good copy because the service failed: the oldest such copy's time. */
  staleSince?: number;
}

export function paginateAll(fetch: PageFetcher, limit: number, page?: number): ListRead {
  let staleSince: number | undefined;
  const unwrap = (o: Outcome<Page<ServiceRecord>>): Page<ServiceRecord> => {
    if (!o.ok) throw o.error;
    if (o.staleSince !== undefined) staleSince = Math.min(staleSince ?? o.staleSince, o.staleSince);
    return o.value;
  };
  const first = unwrap(fetch([page ?? 1], limit)[0]);
  if (page !== undefined) return { records: first.items, staleSince };
  const { totalPages, totalItems, pageSize } = first.pagination;
  if (totalItems > MAX_LIST_ITEMS) {
    throw new ServiceError('BAD_INPUT', `${totalItems} items are too many for a formula (at most ${MAX_LIST_ITEMS}); use Investor Data ▸ Import, or pass page and limit.`);
  }
  const rest = Array.from({ length: Math.max(0, totalPages - 1) }, (_, i) => i + 2);
  const items = [...first.items];
  for (const o of rest.length ? fetch(rest, pageSize || limit) : []) items.push(...unwrap(o).items);
  const seen = new Set<unknown>();
  const records = items.filter((r) => {
    if (r.id === undefined) return true;
    if (seen.has(r.id)) return false;
    seen.add(r.id);
    return true;
  });
  return { records, staleSince };
}
