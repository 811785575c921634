/**
 * The seven operations of the spec: where each lives, what it takes, and how its `data` is
 * read into one shape whatever the server sends (the spec leaves several shapes open: a fund
 * as object or one-element list, two paths for the active-partners list).
 */
import { ServiceError } from './errors';
import { isObject, type JsonValue, type Pagination, type ServiceRecord } from './records';

export type OperationName =
  | 'getAllActiveLimitedPartners'
  | 'getLimitedPartnerById'
  | 'getLimitedPartnersAndTheirFirms'
  | 'getLabelsByLimitedPartnerId'
  | 'getVentureFundById'
  | 'getIndustriesByVentureFundId'
  | 'getLastFundSizeByVentureFundId';

export interface Operation {
  readonly name: OperationName;
  /** Paths to try, in order; more than one only where the spec lists more than one. */
  readonly paths: readonly string[];
  /** The identifier parameter, for the per-id operations. */
  readonly idParam?: 'limitedPartnerId' | 'ventureFundId';
  /** What the identifier names, for messages ("limited partner", "venture fund"). */
  readonly subject?: string;
  readonly paginated: boolean;
  /** Short tag used in cache keys. */
  readonly tag: string;
}

const LP = '/api/limited-partners-data';
const VF = '/api/venture-funds-data';
const PARTNER = { idParam: 'limitedPartnerId', subject: 'limited partner' } as const;
const FUND = { idParam: 'ventureFundId', subject: 'venture fund' } as const;

/** A per-id operation: at its one path, named after it, under its service's folder. */
const byId = (
  name: OperationName,
  folder: string,
  id: typeof PARTNER | typeof FUND,
  tag: string,
  paginated = false,
): Operation => ({ name, paths: [`${folder}/${name}`], ...id, paginated, tag });

export const OPERATIONS: Readonly<Record<OperationName, Operation>> = {
  getAllActiveLimitedPartners: {
    name: 'getAllActiveLimitedPartners',
    paths: ['/api/active-partners-data/getAllActivePartnersData', `${LP}/getAllActiveLimitedPartners`],
    paginated: true,
    tag: 'act',
  },
  getLimitedPartnerById: byId('getLimitedPartnerById', LP, PARTNER, 'lp'),
  getLimitedPartnersAndTheirFirms: byId('getLimitedPartnersAndTheirFirms', LP, PARTNER, 'lpf'),
  getLabelsByLimitedPartnerId: byId('getLabelsByLimitedPartnerId', LP, PARTNER, 'lpl'),
  getVentureFundById: byId('getVentureFundById', VF, FUND, 'vf'),
  getIndustriesByVentureFundId: byId('getIndustriesByVentureFundId', VF, FUND, 'vfi', true),
  getLastFundSizeByVentureFundId: byId('getLastFundSizeByVentureFundId', VF, FUND, 'vfs'),
};

/**
 * `data` that should be one record: an object, or a list holding it. A 200 whose `data` is null or
 * an empty list is the service saying it has no such record: the same answer as a 404, "unknown
 * id" (not retried, remembered like any unknown id, and never in place of a last good copy). A
 * record whose `id` is not the one asked for is a wrong answer for this id (never cached under it).
 */
export function singleRecord(data: JsonValue | undefined, op: Operation, id: string): ServiceRecord {
  const value = Array.isArray(data) ? (data.length === 0 ? undefined : data[0]) : data;
  if (value === undefined || value === null) {
    throw new ServiceError('NOT_FOUND', `The data service has no ${op.subject ?? 'record'} with id ${id}.`);
  }
  if (!isObject(value)) throw new ServiceError('BAD_RESPONSE', `The service sent an unexpected ${op.name} record.`);
  // A record that names another id answers another question: shown, or cached, under this id it would be false.
  const own = value.id;
  // An id that is a list or an object names no id (and String() of one with a "toString" field throws).
  const ownText = typeof own === 'object' ? undefined : String(own);
  if (own !== undefined && own !== null && ownText !== String(id).trim()) {
    const shown = typeof own === 'string' || typeof own === 'number' ? String(own) : typeof own;
    const cut = shown.length > 40 ? `${shown.slice(0, 40)}…` : shown;
    throw new ServiceError(
      'BAD_RESPONSE',
      `The data service answered with ${op.subject ?? 'record'} id ${cut} when asked for ${String(id).trim()}.`,
    );
  }
  return value;
}

/**
 * `data` that should be a list of records. An item that is no record (null, text, a list) is a
 * record with nothing in it: without an id, so a list keyed by id skips and counts it like any
 * record without one, and one odd item never fails the page (and so the whole list).
 */
export function recordList(data: JsonValue | undefined, op: Operation): ServiceRecord[] {
  if (!Array.isArray(data)) throw new ServiceError('BAD_RESPONSE', `The service sent an unexpected ${op.name} list.`);
  return data.map((item) => (isObject(item) ? item : {}));
}

/**
 * The pagination object, checked. A list page without a usable one (no object, no whole
 * `totalItems`) is a broken answer: taking it for "the only page" once made a 350-partner import
 * end "done" with 100.
 */
export function readPagination(value: JsonValue | undefined, requested: { page: number; limit: number }): Pagination {
  if (!isObject(value)) {
    throw new ServiceError('MALFORMED', 'The data service sent a list page without its pagination object.');
  }
  const num = (k: string): number | undefined => {
    const v = value[k];
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
  };
  const totalItems = num('totalItems');
  const pageSize = num('pageSize') || requested.limit;
  if (totalItems === undefined)
    throw new ServiceError('MALFORMED', 'The data service sent a list page without a usable totalItems.');
  const totalPages = num('totalPages') ?? Math.ceil(totalItems / Math.max(1, pageSize));
  return { totalItems, totalPages, currentPage: num('currentPage') ?? requested.page, pageSize };
}
