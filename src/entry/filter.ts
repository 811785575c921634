/**
 * =LP_FILTER(conditions, [fields], [sort], [limit], [headers]): the active limited partners that
 * meet every condition of a range (field | operator | value rows), sorted by up to three keys,
 * as a typed table with ids first. The same engine as a saved import's filters and sort
 * (src/table/filter.ts), over the shared partner snapshot (src/api/partners.ts: read now when
 * there is no fresh one, so a warm call makes no request); a stale list adds the "stale since"
 * column. The rows agree, in order, with an import saved with the same conditions and sort.
 */
import { LP_FIELD_SPECS } from '../api/records';
import { activePartners } from '../gas/context';
import { type FormulaResult, guard } from '../gas/formula-guard';
import { sheetWallTime } from '../gas/sheets';
import { DEFAULT_IMPORT_FIELDS } from '../import/spec';
import { parseFields } from '../table/fields';
import { applyQuery } from '../table/filter';
import { readConditions, readFilterLimit, readSortArg } from '../table/filter-args';
import { readFlag } from '../table/input';
import { partnerListTable } from '../table/rows';

/**
 * Active limited partners that meet every condition, optionally sorted; text compares ignore case and accents.
 *
 * @param {Array<Array<string|number|Date>>} conditions A range of rows: field | operator | value, e.g. region | is | Europe. Operators: is, isAnyOf (values in the next cells or split by ";"), contains, startsWith, atLeast, atMost (numbers and dates), isEmpty, isNotEmpty. On a list field a row holds when any element meets it.
 * @param {string|Array<Array<string>>} [fields] Field names to show after the id, comma-separated or a range (default: the import's default fields).
 * @param {string|Array<Array<string>>} [sort] Up to three field names, each optionally followed by desc, e.g. "region, ticketSize desc" (default: the service's order).
 * @param {number} [limit] Most partners returned (default 1,000, at most 20,000).
 * @param {boolean} [headers] TRUE to add a header row (default TRUE: this is a stand-alone table).
 * @return {Array<Array<string|number|Date>>} One row per partner that matches: id, then the chosen fields.
 * @example =LP_FILTER({"region", "is", "Europe"}, "fullName,region", "ticketSize desc", 3)
 * @customfunction
 */
export function LP_FILTER(
  conditions: unknown,
  fields?: unknown,
  sort?: unknown,
  limit?: unknown,
  headers?: unknown,
): FormulaResult {
  return guard(() => {
    const filters = readConditions(conditions, LP_FIELD_SPECS, sheetWallTime());
    const chosen = parseFields(
      fields === undefined || fields === null || fields === '' ? DEFAULT_IMPORT_FIELDS.join(',') : fields,
      LP_FIELD_SPECS,
      'limited partner',
    );
    const keys = readSortArg(sort);
    const n = readFilterLimit(limit);
    const withHeaders = readFlag(headers, 'headers', true);
    // The records need only the fields the conditions, the sort and the table read.
    const list = activePartners([
      ...filters.map((c) => c.field),
      ...keys.map((k) => k.field),
      ...chosen.map((f) => f.name),
    ]);
    const found = applyQuery(list.records, { filters, sort: keys }).slice(0, n);
    const table = partnerListTable(found, chosen, list.staleSince, withHeaders);
    return table.length ? table : '';
  });
}
