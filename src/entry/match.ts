/**
 * =LP_MATCH(fund_id, [limit], [fields], [weights], [headers]): the active limited partners ranked
 * by fit to a venture fund, best first, each criterion's points and reason in its own column. The
 * pure ranking (src/table/match.ts) over the shared partner snapshot (src/api/partners.ts: read
 * now when there is no fresh one, so a warm call asks only for the fund) and the fund's record
 * (one request, remembered like FUND_GET's). The fund is asked for first: a wrong id costs one
 * request, not a read of the list. A stale list or fund adds the "stale since" column.
 */
import { grouped } from '../api/numbers';
import { ServiceError } from '../api/errors';
import { type FieldSpec, LP_FIELD_SPECS } from '../api/records';
import { activePartners, clientFor } from '../gas/context';
import { type FormulaResult, guard } from '../gas/formula-guard';
import { parseFields } from '../table/fields';
import { readFlag, readIds, readPositiveInt } from '../table/input';
import {
  CRITERIA,
  checkProfile,
  FIT_FIELD_SPECS,
  fitField,
  fitRecord,
  fundProfile,
  PARTNER_FIELDS_READ,
  rankPartners,
  readWeights,
} from '../table/match';
import { rowsTable } from '../table/rows';

export const DEFAULT_MATCH_LIMIT = 100;
export const MAX_MATCH_LIMIT = 20000;

const spec = (name: string) => FIT_FIELD_SPECS.find((s) => s.name === name) as FieldSpec;

/**
 * Active limited partners ranked by fit to a venture fund, best first, each score explained.
 *
 * @param {string} fund_id The venture fund id, e.g. "vf_0003".
 * @param {number} [limit] Most partners returned, best first (default 100, at most 20,000).
 * @param {string|Array<Array<string>>} [fields] Field names to show after the id, comma-separated or a range (default: fullName, firm).
 * @param {string|Array<Array<string>>} [weights] Criterion weights, as rows of criterion | weight or text such as "sectors 50, ticket 0" (default: sectors 35, stage 20, geography 20, ticket 15, type 10); 0 leaves a criterion out.
 * @param {boolean} [headers] TRUE to add a header row (default TRUE: this is a stand-alone table).
 * @return {Array<Array<string|number>>} One row per partner with some fit: rank, id, the chosen fields, a score from 0 to 100, then each criterion's points and reason.
 * @example =LP_MATCH("vf_0003", 3, "fullName")
 * @customfunction
 */
export function LP_MATCH(
  fund_id: unknown,
  limit?: unknown,
  fields?: unknown,
  weights?: unknown,
  headers?: unknown,
): FormulaResult {
  return guard(() => {
    const ids = readIds(fund_id);
    if (ids.unique.length === 0) return '';
    if (ids.unique.length !== 1) throw new ServiceError('BAD_INPUT', 'LP_MATCH takes one fund id.');
    const n = readPositiveInt(limit, 'limit', DEFAULT_MATCH_LIMIT, MAX_MATCH_LIMIT) as number;
    const chosen = parseFields(
      fields === undefined || fields === null || fields === '' ? 'fullName,firm' : fields,
      LP_FIELD_SPECS,
      'limited partner',
    );
    const w = readWeights(weights);
    const withHeaders = readFlag(headers, 'headers', true);
    const id = ids.unique[0];
    const fund = clientFor('formula').funds([id])[0];
    if (!fund.ok) throw fund.error;
    const profile = fundProfile(fund.value, id);
    checkProfile(profile, w);
    // The records need only the fields the weighted criteria and the table read.
    const list = activePartners([
      ...CRITERIA.filter((c) => w[c] > 0).flatMap((c) => PARTNER_FIELDS_READ[c]),
      ...chosen.map((f) => f.name),
    ]);
    if (!list.records.length)
      throw new ServiceError('NOT_FOUND', 'The data service lists no active limited partners to rank.');
    const fits = rankPartners(list.records, profile, w, n);
    if (!fits.length)
      throw new ServiceError(
        'NOT_FOUND',
        `No active limited partner fits fund ${id} on any criterion (${grouped(list.records.length)} compared).`,
      );
    const columns = [
      spec('fitRank'),
      LP_FIELD_SPECS.find((f) => f.name === 'id') as FieldSpec,
      ...chosen.filter((f) => f.name !== 'id'),
      spec('fitScore'),
      ...CRITERIA.filter((c) => w[c] > 0).map((c) => spec(fitField(c))),
    ];
    const staleSince = list.staleSince ?? fund.staleSince;
    const rows = fits.map((fit, i) => ({ kind: 'record' as const, record: fitRecord(fit, i + 1), staleSince }));
    return rowsTable(rows, columns, withHeaders, 'formula');
  });
}
