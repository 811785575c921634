/**
 * What an import keeps of each partner between executions, and which of them it writes. Every
 * partner of the list is staged, so the completeness rules count the whole list as before; an
 * import with filters or sort stages, after the import's own columns, whether the partner meets
 * the filters (judged on its record, by the engine LP_FILTER uses: src/table/filter.ts) and its
 * sort values. Once the read is complete, `keep` turns the whole list's rows into the rows to
 * write: the matching ones, sorted (ties in the service's order), cut to the import's columns;
 * and names the partners read that do not match, which a merge reports as such. An import sorted
 * by fit to a fund stages each partner's fit columns (src/table/match.ts, the ranking LP_MATCH
 * uses), whether it matches (the filters, and some fit), its score and its id; `keep` orders them
 * best first, ties by id, keeps the best `top`, and numbers their rank. Before that, only rows
 * with a usable id are written, each id once (keyedRows, dedupe).
 */
import { grouped, plural } from '../api/numbers';
import { type FieldSpec, firstOfEachId, idProblem, LP_FIELD_SPECS, recordId, type ServiceRecord } from '../api/records';
import type { Cell } from '../table/cells';
import { type CompiledQuery, compileQuery, orderBy, type SortCell } from '../table/filter';
import {
  checkProfile,
  compareScored,
  DEFAULT_WEIGHTS,
  FIT_FIELD_SPECS,
  type FundProfile,
  fitRecord,
  fundProfile,
  scorePartner,
} from '../table/match';
import { recordRow } from '../table/rows';
import type { FitSort, ImportSpec } from './spec';

export interface Kept {
  rows: Cell[][];
  /** Ids read but not meeting the filters. */
  unmatched: Set<string>;
}

export interface RowShape {
  /** Cells staged per partner. */
  readonly width: number;
  row(record: ServiceRecord): Cell[];
  /** The complete list's rows (unique ids, list order) into the rows to write. */
  keep(rows: readonly Cell[][]): Kept;
}

/** Whether a staged row matched (its cell after the import's columns), noting the ids of those that did not. */
const matchedRows =
  (width: number, idCol: number, unmatched: Set<string>) =>
  (row: readonly Cell[]): boolean => {
    if (row[width] === true) return true;
    unmatched.add(String(row[idCol]));
    return false;
  };

/** The fields an import can write: the partner's, and the fit columns of an import sorted by fit. */
const IMPORT_FIELD_SPECS: readonly FieldSpec[] = [...LP_FIELD_SPECS, ...FIT_FIELD_SPECS];

/** `fund` gives the record of the fund an import sorted by fit ranks against (asked for at the first row staged). */
export function rowShape(spec: ImportSpec, fund?: (id: string) => ServiceRecord): RowShape {
  const fields = spec.fields.map((name) => IMPORT_FIELD_SPECS.find((s) => s.name === name) as FieldSpec);
  const width = fields.length;
  const query = compileQuery({ filters: spec.filters ?? [], sort: spec.sort ?? [] });
  const idCol = spec.fields.indexOf('id');
  // A record without a usable id (recordId) never gets a usable id cell: typed as a cell, a list or an object, or a
  // number past a double, would become text that passes for an id (["p1"] as "p1", another partner's). Blank, it is
  // skipped and counted as without an id.
  const cells = (record: ServiceRecord): Cell[] => {
    const row = recordRow(record, fields, 'formula');
    if (idCol >= 0 && recordId(record) === undefined && idProblem(row[idCol]) === undefined) row[idCol] = '';
    return row;
  };
  if (spec.fit) return fitShape(spec.fit, spec.fields, width, cells, query, fund);
  if (!query.active)
    return {
      width,
      row: cells,
      keep: (rows) => ({ rows: [...rows], unmatched: new Set() }),
    };
  return {
    width: width + 1 + (spec.sort?.length ?? 0),
    row: (record) => [...cells(record), query.matches(record), ...query.keys(record)],
    keep: (rows) => {
      const unmatched = new Set<string>();
      const matches = matchedRows(width, idCol, unmatched);
      const kept = orderBy(rows, matches, (row) => row.slice(width + 1) as SortCell[], query.compare);
      return { rows: kept.map((row) => row.slice(0, width)), unmatched };
    },
  };
}

/** The staged rows of an import sorted by fit: its columns (fit columns filled, rank a placeholder), matches, score, id. */
function fitShape(
  fit: FitSort,
  names: readonly string[],
  width: number,
  cells: (record: ServiceRecord) => Cell[],
  query: CompiledQuery,
  fund: ((id: string) => ServiceRecord) | undefined,
): RowShape {
  let profile: FundProfile | undefined;
  const ranked = () => {
    if (!profile) {
      if (!fund) throw new Error('This import sorts by fit to a fund and needs the data service to read the fund.');
      profile = fundProfile(fund(fit.fund), fit.fund);
      checkProfile(profile, DEFAULT_WEIGHTS);
    }
    return profile;
  };
  const idCol = names.indexOf('id');
  const rankCol = names.indexOf('fitRank');
  return {
    width: width + 3,
    row: (record) => {
      const scored = scorePartner(record, ranked());
      // The rank staged is a placeholder (0): `keep` numbers every row it writes.
      const row = cells(fitRecord(scored, 0));
      const id = typeof record.id === 'string' ? record.id : '';
      return [...row, query.matches(record) && scored.score > 0, scored.score, id];
    },
    keep: (rows) => {
      const unmatched = new Set<string>();
      const matches = matchedRows(width, idCol, unmatched);
      const sorted = orderBy(
        rows,
        matches,
        (row) => [Number(row[width + 1]), String(row[width + 2])],
        (a, b) => compareScored(a[0] as number, a[1] as string, b[0] as number, b[1] as string),
      );
      const top = fit.top ?? sorted.length;
      for (const row of sorted.slice(top)) unmatched.add(String(row[idCol]));
      return {
        rows: sorted
          .slice(0, top)
          .map((row, i) => row.slice(0, width).map((cell, j) => (j === rankCol ? i + 1 : cell))),
        unmatched,
      };
    },
  };
}

/**
 * The rows whose id is usable (src/api/records.ts idProblem), `unique` each id's first listing
 * (firstOfEachId, the one rule), and a note counting the others by reason: those are never
 * written, so no later run meets a row of its own it cannot key.
 */
export function keyedRows(rows: readonly Cell[][], idCol: number) {
  const reasons = new Map<string, number>();
  const keyed = rows.filter((row) => {
    const problem = idProblem(row[idCol]);
    if (problem) reasons.set(problem, (reasons.get(problem) ?? 0) + 1);
    return !problem;
  });
  const skipped = rows.length - keyed.length;
  const why = [...reasons].map(([reason, n]) => `${grouped(n)} ${reason}`).join(', ');
  const note = skipped ? ` Skipped ${plural(skipped, 'listed record')}: ${why}.` : '';
  return { keyed, unique: firstOfEachId(keyed, (row) => String(row[idCol])), skipped, note };
}
