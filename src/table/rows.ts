/**
 * Records into rows: one row per input row, the selected fields as columns, an optional header
 * row, per-row error text where one id failed, and a trailing "stale since" column when some
 * values come from the last good copy because the service failed.
 */
import type { ServiceError } from '../api/errors';
import { type FieldSpec, LP_FIELD_SPECS, type ServiceRecord } from '../api/records';
import { type Cell, type CellTarget, safeText, toCell } from './cells';

export type RowResult =
  | { kind: 'blank' }
  | { kind: 'record'; record: ServiceRecord; staleSince?: number }
  | { kind: 'error'; error: ServiceError };

export function recordRow(record: ServiceRecord, fields: readonly FieldSpec[], target: CellTarget): Cell[] {
  return fields.map((f) => toCell(record[f.name], f.type, target));
}

export const STALE_HEADER = 'stale since';

/** A table of rows, same width throughout, as a custom function or setValues needs it. */
export function rowsTable(
  results: readonly RowResult[],
  fields: readonly FieldSpec[],
  headers: boolean,
  target: CellTarget,
): Cell[][] {
  const anyStale = results.some((r) => r.kind === 'record' && r.staleSince !== undefined);
  const width = fields.length + (anyStale ? 1 : 0);
  const rows: Cell[][] = [];
  if (headers) rows.push([...fields.map((f) => f.name), ...(anyStale ? [STALE_HEADER] : [])]);
  for (const r of results) {
    const row: Cell[] = new Array(width).fill('');
    if (r.kind === 'record') {
      recordRow(r.record, fields, target).forEach((c, i) => {
        row[i] = c;
      });
      if (r.staleSince !== undefined) row[fields.length] = new Date(r.staleSince);
    } else if (r.kind === 'error') {
      row[0] = safeText(`Error: ${r.error.message}`, target);
    }
    rows.push(row);
  }
  return rows;
}

/**
 * Partners from a list (LP_FIND, LP_FILTER) as a formula's table: the id first, then the chosen
 * fields, a "stale since" column when the list is a last good copy.
 */
export function partnerListTable(
  records: readonly ServiceRecord[],
  chosen: readonly FieldSpec[],
  staleSince: number | undefined,
  withHeaders: boolean,
): Cell[][] {
  const columns = [LP_FIELD_SPECS.find((f) => f.name === 'id') as FieldSpec, ...chosen.filter((f) => f.name !== 'id')];
  const rows: RowResult[] = records.map((record) => ({ kind: 'record', record, staleSince }));
  return rowsTable(rows, columns, withHeaders, 'formula');
}
