/**
 * The custom functions that answer with a whole table of their own rather than a row per id:
 * a list (LP_ACTIVE, FUND_INDUSTRIES) and the field lists (LP_FIELDS, FUND_FIELDS). A sheet holds
 * a few of them, not a column, so the build ships them apart from the per-id functions (see
 * ENTRY_GROUPS in scripts/build-lib.ts): an execution compiles them only when it runs one.
 */
import { grouped } from '../api/numbers';
import type { Client } from '../api/client';
import { ServiceError } from '../api/errors';
import type { OperationName } from '../api/operations';
import { incompleteError, noSuchPage, type PageFetcher, readList } from '../api/pages';
import { MAX_FILL_PAGES } from '../api/lookup-cache';
import {
  FUND_FIELD_SPECS,
  type FieldSpec,
  firstOfEachId,
  LP_FIELD_SPECS,
  type JsonValue,
  recordId,
  type ServiceRecord,
} from '../api/records';
import { clientFor } from '../gas/context';
import { type FormulaResult, guard } from '../gas/formula-guard';
import type { Cell } from '../table/cells';
import { parseFields } from '../table/fields';
import { readFlag, readIds, readPositiveInt } from '../table/input';
import type { QueryValue } from '../api/url';
import { rowsTable } from '../table/rows';

/** Most items a formula reads from a list before it points the analyst to the import. */
export const MAX_LIST_ITEMS = 5000;

/**
 * One page when `page` is given; otherwise the whole list through the one page reader, which
 * says when the service's pages do not add up: then the formula shows that, never a short list.
 * A list `keyed` by id (partners) leaves out records without a usable id, as every reader does.
 * The answer is remembered as one whole (`Client.whole`, under `query`), never put together from
 * pages remembered apart: it is the list of one moment, fresh or the last good one marked stale.
 */
function readPages(
  client: Client,
  list: { op: OperationName; query: Record<string, QueryValue>; fetch: PageFetcher; what: string; keyed: boolean },
  limit: number,
  page: number | undefined,
): { records: ServiceRecord[]; staleSince?: number } {
  const answer = client.whole(list.op, { ...list.query, page: page ?? 'all', limit }, () =>
    readNow(list.fetch, limit, page, list.what, list.keyed),
  );
  if (!answer.ok) throw answer.error;
  return { records: answer.value, staleSince: answer.staleSince };
}

/** The list (or one page of it) as the service gives it now; an error when its pages do not add up. */
function readNow(
  fetch: PageFetcher,
  limit: number,
  page: number | undefined,
  what: string,
  keyed: boolean,
): ServiceRecord[] {
  if (page !== undefined) return onePage(fetch, limit, page, keyed);
  const read = readList(fetch, {
    limit,
    batch: 100,
    passes: 2,
    keyed,
    refuse: (n, pages) =>
      n > MAX_LIST_ITEMS
        ? `${grouped(n)} items are too many for a formula (at most ${grouped(MAX_LIST_ITEMS)}); use Investor Data ▸ Import, or pass page and limit.`
        : pages > MAX_FILL_PAGES
          ? `${grouped(n)} items at ${grouped(Math.ceil(n / pages))} a page are ${grouped(pages)} requests, too many for a formula (at most ${grouped(MAX_FILL_PAGES)}); pass a larger limit, or page and limit.`
          : undefined,
  });
  if (!read.verdict.complete) throw incompleteError(what, read.verdict);
  return read.records;
}

/**
 * Page `page` of a list. A page past the end, by the service's own count of pages, is blank: whether
 * it comes empty, refused as no such page, or (from a service that clamps the page asked for) as a
 * copy of the last page, which would otherwise show as this one. A list keyed by id shows each usable
 * id once, as a whole read does.
 */
function onePage(fetch: PageFetcher, limit: number, page: number, keyed: boolean): ServiceRecord[] {
  const one = fetch([page], limit)[0];
  if (!one.ok && page > 1 && noSuchPage(one.error)) return [];
  if (!one.ok) throw one.error;
  const { items, pagination } = one.value;
  if (page > Math.max(1, pagination.totalPages)) return [];
  return keyed ? firstOfEachId(items).filter((r) => recordId(r) !== undefined) : items;
}

/**
 * Lists active limited partners: one page, or every page when page is left blank.
 *
 * @param {number} [page] Page number from 1 (default: all pages, up to 5,000 partners).
 * @param {number} [limit] Partners per page (default 100; the service may cap it).
 * @param {string|Array<Array<string>>} [fields] Field names, comma-separated or a range of names (default: all).
 * @param {boolean} [headers] TRUE to add a header row (default TRUE: this is a stand-alone table).
 * @return {Array<Array<string|number|Date>>} One row per active limited partner.
 * @example =LP_ACTIVE(1, 3, "fullName,firm")
 * @customfunction
 */
export function LP_ACTIVE(page?: unknown, limit?: unknown, fields?: unknown, headers?: unknown): FormulaResult {
  return guard(() => {
    const p = readPositiveInt(page, 'page', undefined);
    const l = readPositiveInt(limit, 'limit', 100, 10000) as number;
    const chosen = parseFields(fields, LP_FIELD_SPECS, 'limited partner');
    const withHeaders = readFlag(headers, 'headers', true);
    const client = clientFor('formula');
    const list = readPages(
      client,
      {
        op: 'getAllActiveLimitedPartners',
        query: {},
        fetch: (pages, size) => client.activePartnerPages(pages, size),
        what: 'list of active partners',
        keyed: true,
      },
      l,
      p,
    );
    const table = rowsTable(
      list.records.map((record) => ({ kind: 'record', record, staleSince: list.staleSince })),
      chosen,
      withHeaders,
      'formula',
    );
    // Sheets shows an error for an empty array result; an empty page is an empty cell.
    return table.length ? table : '';
  });
}

/**
 * Lists the industries of a venture fund, one per row, each once.
 *
 * @param {string} id The venture fund id.
 * @param {number} [page] Page number from 1 (default: all pages).
 * @param {number} [limit] Items per page (default 100; the service may cap it).
 * @param {boolean} [headers] TRUE to add a header row (default TRUE: this is a stand-alone table).
 * @return {Array<Array<string>>} One industry per row.
 * @example =FUND_INDUSTRIES("vf_0003", 1, 3)
 * @customfunction
 */
export function FUND_INDUSTRIES(id: unknown, page?: unknown, limit?: unknown, headers?: unknown): FormulaResult {
  return guard(() => {
    const ids = readIds(id);
    if (ids.unique.length === 0) return '';
    if (ids.unique.length !== 1) throw new ServiceError('BAD_INPUT', 'FUND_INDUSTRIES takes one fund id.');
    const p = readPositiveInt(page, 'page', undefined);
    const l = readPositiveInt(limit, 'limit', 100, 10000) as number;
    const withHeaders = readFlag(headers, 'headers', true);
    const client = clientFor('formula');
    const fund = ids.unique[0];
    const list = readPages(
      client,
      {
        op: 'getIndustriesByVentureFundId',
        query: { fund },
        fetch: (pages, size) => client.industriesPages(fund, pages, size),
        what: 'list of industries',
        keyed: false,
      },
      l,
      p,
    );
    // An item without industries (null, or no record at all) names none: never a blank industry.
    const listed: JsonValue[] = list.records.flatMap((item) =>
      item.industries === undefined ? [] : [item.industries],
    );
    const names = [...new Set(listed.flat())].filter((v) => v !== null && v !== '');
    if (list.records.length && !listed.length)
      throw new ServiceError(
        'BAD_RESPONSE',
        `The data service sent industries for fund ${fund} in a shape the add-in does not read (no "industries" in its items).`,
      );
    const rows = names.map((record) => ({
      kind: 'record' as const,
      record: { industries: record },
      staleSince: list.staleSince,
    }));
    const spec: FieldSpec[] = [{ name: 'industries', type: 'string' }];
    const table = rowsTable(rows, spec, withHeaders, 'formula');
    return table.length ? table : [['']];
  });
}

/**
 * Lists the fields of a limited partner record, for the fields argument of LP_GET.
 *
 * @param {boolean} [withTypes] TRUE to add a column with each field's type.
 * @return {Array<Array<string>>} One field name per row.
 * @example =LP_FIELDS(TRUE)
 * @customfunction
 */
export function LP_FIELDS(withTypes?: unknown): FormulaResult {
  return guard(() => fieldList(LP_FIELD_SPECS, readFlag(withTypes, 'withTypes', false)));
}

/**
 * Lists the fields of a venture fund record, for the fields argument of FUND_GET.
 *
 * @param {boolean} [withTypes] TRUE to add a column with each field's type.
 * @return {Array<Array<string>>} One field name per row.
 * @example =FUND_FIELDS(TRUE)
 * @customfunction
 */
export function FUND_FIELDS(withTypes?: unknown): FormulaResult {
  return guard(() => fieldList(FUND_FIELD_SPECS, readFlag(withTypes, 'withTypes', false)));
}

function fieldList(specs: readonly FieldSpec[], withTypes: boolean): Cell[][] {
  return specs.map((s) => (withTypes ? [s.name, s.type] : [s.name]));
}
