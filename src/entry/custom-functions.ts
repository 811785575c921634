/**
 * The custom functions analysts type in cells. Each one reads its arguments, asks the client
 * for everything in one batch, and shapes the answer with the table module. A function whose
 * every row failed throws one short message (the cell shows it); otherwise failed rows carry
 * their own "Error: …" text and the others keep their values. The JSDoc blocks here are copied
 * by the build onto the top-level wrappers, so Sheets' autocomplete shows them.
 */
import { grouped } from '../api/numbers';
import type { Client, Outcome } from '../api/client';
import { ServiceError } from '../api/errors';
import type { OperationName } from '../api/operations';
import { incompleteError, noSuchPage, type PageFetcher, readList } from '../api/pages';
import { MAX_FILL_PAGES } from '../api/partners';
import {
  FUND_FIELD_SPECS,
  type FieldSpec,
  firstOfEachId,
  LP_FIELD_SPECS,
  LP_FIRMS_FIELD_SPECS,
  LP_LABELS_FIELD_SPECS,
  type JsonValue,
  recordId,
  type ServiceRecord,
} from '../api/records';
import { clientFor, lookupPartners } from '../gas/context';
import { type FormulaResult, guard } from '../gas/formula-guard';
import { neighboursOf } from '../gas/neighbours';
import type { Cell } from '../table/cells';
import { flattenCells, parseFields } from '../table/fields';
import { readFlag, readIds, readPositiveInt } from '../table/input';
import type { QueryValue } from '../api/url';
import { type RowResult, rowsTable } from '../table/rows';

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

function perIdTable(
  idsInput: unknown,
  fieldsInput: unknown,
  headersInput: unknown,
  specs: readonly FieldSpec[],
  what: string,
  fetch: (ids: string[], single: boolean, fields: readonly FieldSpec[]) => Outcome<ServiceRecord>[],
): FormulaResult {
  const ids = readIds(idsInput);
  const fields = parseFields(fieldsInput, specs, what);
  const headers = readFlag(headersInput, 'headers', false);
  // Blank ids ask nothing of the service: a formula filled down ahead of its data stays blank.
  const outcomes = ids.unique.length ? fetch(ids.unique, ids.single, fields) : [];
  const byId = new Map(ids.unique.map((id, i) => [id, outcomes[i]]));
  const failures = outcomes.filter((o): o is { ok: false; error: ServiceError } => !o.ok);
  if (failures.length && failures.length === outcomes.length) throw failures[0].error;
  const results: RowResult[] = ids.rows.map((id, i) => {
    if (ids.invalid[i] !== undefined) return { kind: 'error', error: new ServiceError('BAD_INPUT', ids.invalid[i]) };
    if (id === null) return { kind: 'blank' };
    const o = byId.get(id) as Outcome<ServiceRecord>;
    return o.ok ? { kind: 'record', record: o.value, staleSince: o.staleSince } : { kind: 'error', error: o.error };
  });
  const table = rowsTable(results, fields, headers, 'formula');
  if (ids.single && !headers && (table[0].length === 1 || ids.unique.length === 0)) return table[0][0];
  return ids.across ? transpose(table) : table;
}

/** A row of ids answers across: one column per id, the fields (and headers) down. */
function transpose(table: Cell[][]): Cell[][] {
  return table[0].map((_, c) => table.map((row) => row[c]));
}

/**
 * Looks up limited partners by id and returns the chosen fields, one row per id.
 *
 * @param {string|Array<Array<string>>} ids One id, or a column or row of ids; blank cells give blank rows.
 * @param {string|Array<Array<string>>} [fields] Field names, comma-separated or a range of names (default: all; see LP_FIELDS()).
 * @param {boolean} [headers] TRUE to add a header row (default FALSE, so rows line up with your ids).
 * @return {Array<Array<string|number|Date>>} One row per id; a single id and field give a single value.
 * @example =LP_GET("lp_0000a", "fullName,firm,ticketSize", TRUE)
 * @customfunction
 */
export function LP_GET(ids: unknown, fields?: unknown, headers?: unknown): FormulaResult {
  return guard(() =>
    perIdTable(ids, fields, headers, LP_FIELD_SPECS, 'limited partner', (u, single, shown) =>
      // Every field (the default) is what the snapshot's buckets hold: no column copies to ask for.
      lookupPartners(
        u,
        single ? () => neighboursOf('LP_GET') : undefined,
        shown.length < LP_FIELD_SPECS.length ? shown.map((f) => f.name) : undefined,
      ),
    ),
  );
}

/** What LP_FIRMS and LP_LABELS show when no fields are given: who the partner is, and their list. */
const SUMMARY_DEFAULT = (list: string) => ['fullName', list];
/** No field named: nothing given, or blank cells or text only. */
const noFields = (input: unknown): boolean =>
  flattenCells(input).every((v) => v === undefined || v === null || String(v).trim() === '');

/**
 * Returns each limited partner's name and the firms they belong to (other fields of the partner's summary on request).
 *
 * @param {string|Array<Array<string>>} ids One id, or a column or row of ids; blank cells give blank rows.
 * @param {string|Array<Array<string>>} [fields] Field names, comma-separated or a range of names, from id, name, fullName, activeStatus, slug, foto, firm (default: fullName, firm).
 * @param {boolean} [headers] TRUE to add a header row naming each field (default FALSE, so rows line up with your ids).
 * @return {Array<Array<string>>} For each id, the chosen fields: by default the partner's full name and their firms, comma-separated.
 * @example =LP_FIRMS("lp_0000a", "fullName,firm", TRUE)
 * @customfunction
 */
export function LP_FIRMS(ids: unknown, fields?: unknown, headers?: unknown): FormulaResult {
  return guard(() =>
    perIdTable(ids, noFields(fields) ? SUMMARY_DEFAULT('firm') : fields, headers, LP_FIRMS_FIELD_SPECS, 'firms', (u) =>
      clientFor('formula').firms(u),
    ),
  );
}

/**
 * Returns each limited partner's name and their labels (other fields of the partner's summary on request).
 *
 * @param {string|Array<Array<string>>} ids One id, or a column or row of ids; blank cells give blank rows.
 * @param {string|Array<Array<string>>} [fields] Field names, comma-separated or a range of names, from id, name, fullName, activeStatus, slug, foto, labels (default: fullName, labels).
 * @param {boolean} [headers] TRUE to add a header row naming each field (default FALSE, so rows line up with your ids).
 * @return {Array<Array<string>>} For each id, the chosen fields: by default the partner's full name and their labels, comma-separated.
 * @example =LP_LABELS("lp_0000a", "fullName,labels", TRUE)
 * @customfunction
 */
export function LP_LABELS(ids: unknown, fields?: unknown, headers?: unknown): FormulaResult {
  return guard(() =>
    perIdTable(
      ids,
      noFields(fields) ? SUMMARY_DEFAULT('labels') : fields,
      headers,
      LP_LABELS_FIELD_SPECS,
      'labels',
      (u) => clientFor('formula').labels(u),
    ),
  );
}

/**
 * Looks up venture funds by id and returns the chosen fields, one row per id.
 *
 * @param {string|Array<Array<string>>} ids One id, or a column or row of ids; blank cells give blank rows.
 * @param {string|Array<Array<string>>} [fields] Field names, comma-separated or a range of names (default: all; see FUND_FIELDS()).
 * @param {boolean} [headers] TRUE to add a header row (default FALSE, so rows line up with your ids).
 * @return {Array<Array<string|number|Date|boolean>>} One row per id; a single id and field give a single value.
 * @example =FUND_GET("vf_0003", "name,vintageYear,lastFundSize", TRUE)
 * @customfunction
 */
export function FUND_GET(ids: unknown, fields?: unknown, headers?: unknown): FormulaResult {
  return guard(() =>
    perIdTable(ids, fields, headers, FUND_FIELD_SPECS, 'venture fund', (u) => clientFor('formula').funds(u)),
  );
}

/**
 * Returns the last fund size of each venture fund.
 *
 * @param {string|Array<Array<string>>} ids One id, or a column or row of ids; blank cells give blank rows.
 * @param {boolean} [headers] TRUE to add a header row (default FALSE).
 * @return {string|Array<Array<string>>} The last fund size as the service writes it (text such as $80M), one row per id.
 * @example =FUND_LASTSIZE("vf_0003", TRUE)
 * @customfunction
 */
export function FUND_LASTSIZE(ids: unknown, headers?: unknown): FormulaResult {
  const specs: FieldSpec[] = [{ name: 'lastFundSize', type: 'string' }];
  return guard(() =>
    perIdTable(ids, undefined, headers, specs, 'last fund size', (u) =>
      clientFor('formula')
        .lastFundSizes(u)
        .map((o) => (o.ok ? { ...o, value: { lastFundSize: o.value } } : o)),
    ),
  );
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
