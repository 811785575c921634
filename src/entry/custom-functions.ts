/**
 * The custom functions analysts type in cells, a row per id (the list and field-list functions
 * are in lists.ts). Each one reads its arguments, asks the client
 * for everything in one batch, and shapes the answer with the table module. A function whose
 * every row failed throws one short message (the cell shows it); otherwise failed rows carry
 * their own "Error: …" text and the others keep their values. The JSDoc blocks here are copied
 * by the build onto the top-level wrappers, so Sheets' autocomplete shows them.
 */
import type { Outcome } from '../api/client';
import { ServiceError } from '../api/errors';
import {
  FUND_FIELD_SPECS,
  type FieldSpec,
  LP_FIELD_SPECS,
  LP_FIRMS_FIELD_SPECS,
  LP_LABELS_FIELD_SPECS,
  type ServiceRecord,
} from '../api/records';
import { clientFor, lookupPartners } from '../gas/context';
import { type FormulaResult, guard } from '../gas/formula-guard';
import { neighboursOf } from '../gas/neighbours';
import type { Cell } from '../table/cells';
import { flattenCells, parseFields } from '../table/fields';
import { readFlag, readIds } from '../table/input';
import { type RowResult, rowsTable } from '../table/rows';

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
