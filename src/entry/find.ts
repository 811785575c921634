/**
 * =LP_FIND(query, [fields], [limit], [headers]): finds active limited partners by name, firm,
 * headquarters or sector, case- and accent-insensitive (`muller` finds `Müller`), ranked by the
 * pure search (src/table/search.ts), as a typed table with ids first. The records come from the
 * shared partner snapshot (src/api/partners.ts: read now when there is no fresh one, so a warm
 * search makes no request), with the fields searched and shown only; a stale list adds the "stale
 * since" column. Nothing found is said in the cell, as Sheets' FILTER does, rather than left as a
 * bare header row.
 */
import { ServiceError } from '../api/errors';
import { LP_FIELD_SPECS } from '../api/records';
import { activePartners } from '../gas/context';
import { type FormulaResult, guard } from '../gas/formula-guard';
import { parseFields } from '../table/fields';
import { readFlag } from '../table/input';
import { partnerListTable } from '../table/rows';
import { readFindLimit, readQuery, SEARCH_READS, searchRecords } from '../table/search';

/** Columns when no fields are chosen: what the search looks at. */
const DEFAULT_FIND_FIELDS = ['fullName', 'firm', 'headquarters', 'sectorsFocused'];

/**
 * Finds active limited partners by name, firm, headquarters or sector, ignoring case and accents.
 *
 * @param {string} query Words to find, e.g. "muller berlin"; every word must match (at most 200 characters).
 * @param {string|Array<Array<string>>} [fields] Field names to show after the id, comma-separated or a range (default: fullName, firm, headquarters, sectorsFocused).
 * @param {number} [limit] Most partners returned, best matches first (default 50, at most 5,000).
 * @param {boolean} [headers] TRUE to add a header row (default TRUE: this is a stand-alone table).
 * @return {Array<Array<string|number|Date>>} One row per partner found: id, then the chosen fields; when none matches, the cell says so.
 * @example =LP_FIND("upton group", "firm", 3)
 * @customfunction
 */
export function LP_FIND(query: unknown, fields?: unknown, limit?: unknown, headers?: unknown): FormulaResult {
  return guard(() => {
    const q = readQuery(query);
    const chosen = parseFields(
      fields === undefined || fields === null || fields === '' ? DEFAULT_FIND_FIELDS.join(',') : fields,
      LP_FIELD_SPECS,
      'limited partner',
    );
    const n = readFindLimit(limit);
    const withHeaders = readFlag(headers, 'headers', true);
    // The records need only the fields the search reads and the table shows (their column copies, at scale).
    const list = activePartners([...SEARCH_READS, ...chosen.map((f) => f.name)]);
    const found = searchRecords(list.records, q, { limit: n });
    if (!found.length)
      throw new ServiceError(
        'NOT_FOUND',
        `No active limited partner matches "${q.text}": every word must be in a name, firm, headquarters or sector.`,
      );
    return partnerListTable(found, chosen, list.staleSince, withHeaders);
  });
}
