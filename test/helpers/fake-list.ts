/**
 * A paginated list as a PageFetcher, with the lies a real service may tell: a page size cap,
 * no pagination object, an under-reported total, a repeated page, a false pageSize, a false
 * totalPages, and three ways of answering a page past the end. Used by the page reader's and
 * the import state machine's unit tests; counts every page it is asked for.
 */
import type { Outcome } from '../../src/api/client';
import { ServiceError } from '../../src/api/errors';
import type { PageFetcher } from '../../src/api/pages';
import type { Page, ServiceRecord } from '../../src/api/records';

export interface FakeListOptions {
  cap?: number;
  dropPagination?: boolean;
  /** Reported totalItems = this function of the real total. */
  reportTotal?: (real: number) => number;
  /** Page that answers with the previous page's items. */
  repeatPage?: number;
  reportedPageSize?: number;
  reportedTotalPages?: number;
  pastEnd?: 'empty' | '404' | 'clamp';
  /** Fails requests (returns an error instead of the page) while this returns one. */
  fail?: (page: number, call: number) => ServiceError | undefined;
  /** Called before each page is served: may change the list. */
  before?: (page: number, call: number) => void;
}

export interface FakeList {
  fetch: PageFetcher;
  items: ServiceRecord[];
  /** Every page asked for, in order, with its limit. */
  asked: Array<{ page: number; limit: number }>;
}

export const records = (n: number, prefix = 'p'): ServiceRecord[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, fullName: `Name ${i}` }));

export function fakeList(items: ServiceRecord[], o: FakeListOptions = {}): FakeList {
  const list: FakeList = { items, asked: [], fetch: () => [] };
  const cap = o.cap ?? 100;
  const slice = (page: number, size: number) => list.items.slice((page - 1) * size, page * size);
  list.fetch = (pages, limit) =>
    pages.map((page): Outcome<Page<ServiceRecord>> => {
      const call = list.asked.length;
      list.asked.push({ page, limit });
      o.before?.(page, call);
      const error = o.fail?.(page, call);
      if (error) return { ok: false, error };
      const size = Math.min(limit, cap);
      const total = list.items.length;
      const lastPage = Math.max(1, Math.ceil(total / size));
      let data = o.repeatPage === page ? slice(page - 1, size) : slice(page, size);
      if (page > lastPage && o.pastEnd === '404')
        return { ok: false, error: new ServiceError('NOT_FOUND', 'Not found (HTTP 404).') };
      if (page > lastPage && o.pastEnd === 'clamp') data = slice(lastPage, size);
      if (o.dropPagination)
        return {
          ok: false,
          error: new ServiceError('MALFORMED', 'The data service sent a list page without its pagination object.'),
        };
      const totalItems = o.reportTotal ? o.reportTotal(total) : total;
      return {
        ok: true,
        value: {
          items: data,
          pagination: {
            totalItems,
            totalPages: o.reportedTotalPages ?? Math.ceil(totalItems / size),
            currentPage: page,
            pageSize: o.reportedPageSize ?? size,
          },
        },
      };
    });
  return list;
}
