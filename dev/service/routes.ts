/**
 * What each of the seven operations answers, given its query parameters: the spec's shapes,
 * pagination with a capped page size, and 400/404 errors for bad parameters and unknown ids.
 */
import type { OperationName } from '../../src/api/operations';
import type { ServiceRecord } from '../../src/api/records';
import type { ServiceOptions } from './config';

/** A refusal a route (or the server) answers with: its status, message and headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

type Body = Record<string, unknown>;

function positiveInt(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new HttpError(400, `${name} must be a positive integer.`);
  }
  return Number(raw);
}

function requiredId(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || value.trim() === '') throw new HttpError(400, `${name} is required.`);
  return value;
}

/** One page of a list, honest unless the options ask for one of the lies a real service may tell. */
function paginate(
  items: readonly ServiceRecord[] | readonly string[],
  params: URLSearchParams,
  o: ServiceOptions,
  read: (i: number) => unknown,
): Body {
  const q = o.quirks;
  const page = positiveInt(params, 'page', 1);
  const pageSize = Math.min(positiveInt(params, 'limit', 10), o.maxPageSize);
  const totalItems = items.length;
  const lastPage = Math.max(1, Math.ceil(totalItems / pageSize));
  const served = q.clampPages && page > lastPage ? lastPage : q.repeatPage === page && page > 1 ? page - 1 : page;
  const start = (served - 1) * pageSize;
  const data: unknown[] = [];
  for (let i = start; i < Math.min(totalItems, start + pageSize); i++) data.push(read(i));
  if (q.dropPagination) return { data };
  const reportedTotal =
    q.totalItemsFactor !== undefined && q.totalItemsFactor < 1
      ? Math.floor(totalItems * q.totalItemsFactor)
      : totalItems;
  return {
    data,
    pagination: {
      totalItems: reportedTotal,
      totalPages: q.reportedTotalPages ?? Math.ceil(reportedTotal / pageSize),
      currentPage: q.clampPages ? served : page,
      pageSize: q.reportedPageSize ?? pageSize,
    },
  };
}

const SUMMARY = ['id', 'name', 'fullName', 'activeStatus', 'slug', 'foto'] as const;

function summary(r: ServiceRecord): ServiceRecord {
  return Object.fromEntries(SUMMARY.map((k) => [k, r[k] ?? null]));
}

export function route(op: OperationName, params: URLSearchParams, o: ServiceOptions): Body {
  const ds = o.dataset;
  const partner = (): ServiceRecord => {
    const id = requiredId(params, 'limitedPartnerId');
    const r = ds.partner(id);
    if (!r) throw new HttpError(404, `Limited partner not found: ${id}`);
    return r;
  };
  const fundOf = (): [string, ServiceRecord] => {
    const id = requiredId(params, 'ventureFundId');
    const r = ds.fund(id);
    if (!r) throw new HttpError(404, `Venture fund not found: ${id}`);
    return [id, r];
  };
  switch (op) {
    case 'getAllActiveLimitedPartners': {
      const ids = ds.activePartnerIds();
      return paginate(ids, params, o, (i) => ds.partner(ids[i]) as ServiceRecord);
    }
    case 'getLimitedPartnerById':
      return { data: [partner()] };
    case 'getLimitedPartnersAndTheirFirms': {
      const r = partner();
      return { data: { ...summary(r), firm: typeof r.firm === 'string' && r.firm ? [r.firm] : [] } };
    }
    case 'getLabelsByLimitedPartnerId': {
      const r = partner();
      return { data: { ...summary(r), labels: Array.isArray(r.labels) ? r.labels : [] } };
    }
    case 'getVentureFundById': {
      const [, r] = fundOf();
      return { data: o.quirks.fundAsList ? [r] : r };
    }
    case 'getIndustriesByVentureFundId': {
      const [id] = fundOf();
      const items = ds.industries(id) ?? [];
      // Each item is `{industries: [name]}`, or the name alone where the quirk says so.
      return paginate(items, params, o, (i) =>
        o.quirks.industryNames ? (items[i].industries as string[])[0] : items[i],
      );
    }
    case 'getLastFundSizeByVentureFundId': {
      const [, r] = fundOf();
      return { data: { lastFundSize: r.lastFundSize ?? null } };
    }
  }
}
