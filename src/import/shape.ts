/**
 * What an import keeps of each partner between executions, and which of them it writes. Every
 * partner of the list is staged, so the completeness rules count the whole list as before; an
 * import with filters or sort stages, after the import's own columns, whether the partner meets
 * the filters (judged on its record, by the engine LP_FILTER uses: src/table/filter.ts) and its
 * sort values. Once the read is complete, `keep` turns the whole list's rows into the rows to
 * write: the matching ones, sorted (ties in the service's order), cut to the import's columns;
 * and names the partners read that do not match, which a merge reports as such.
 */
import { type FieldSpec, idProblem, LP_FIELD_SPECS, recordId, type ServiceRecord } from '../api/records';
import type { Cell } from '../table/cells';
import { compileQuery, orderBy, type SortCell } from '../table/filter';
import { recordRow } from '../table/rows';
import type { ImportSpec } from './spec';

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

export function rowShape(spec: ImportSpec): RowShape {
  const fields = spec.fields.map((name) => LP_FIELD_SPECS.find((s) => s.name === name) as FieldSpec);
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
      const matches = (row: readonly Cell[]) => {
        if (row[width] === true) return true;
        unmatched.add(String(row[idCol]));
        return false;
      };
      const kept = orderBy(rows, matches, (row) => row.slice(width + 1) as SortCell[], query.compare);
      return { rows: kept.map((row) => row.slice(0, width)), unmatched };
    },
  };
}
