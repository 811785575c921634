/**
 * How an import run ends: a complete read is written to its sheet in one write, with the import's
 * record (./replace.ts), the changes it made (merge, or a watched replace) and its alert, and the run
 * gets its row in the run log (./run-log.ts). The step that reads the list is ./machine.ts.
 */
import { type Fields, gridOf, MergeRefused, headerName, mergeTables, type OutCell, tableLayout } from './merge';
import type { ImportPorts } from './ports';
import { joined, recordOf, replaceRefusal } from './replace';
import { doneRun, failRun, logChanges, mergeNote } from './run-log';
import type { RunState, RunSummary } from './run-state';
import type { Kept } from './shape';
import type { ImportSpec } from './spec';
import { afterWrite } from './watch';

/** Why this replace run may not rewrite its sheet (./replace.ts replaceRefusal), or undefined. */
export const replaceRefused = (spec: ImportSpec, run: RunState, ports: ImportPorts) =>
  spec.mode === 'replace' && !run.force
    ? replaceRefusal(ports.target.read(spec.sheetName), spec, spec.sheetName)
    : undefined;

/**
 * Writes a table with the import's record (src/import/replace.ts) of the cells `owns` names: the
 * record first, as pending beside the current one, then the table, its columns' fields, formats and
 * protection, then the record made current, as the sheet holds it (read back: how Sheets stores a
 * value is what the next run compares). An execution killed at any point leaves the old table or
 * the new one, each matching a record the next run reads.
 */
export function writeOwned(
  spec: ImportSpec,
  grid: OutCell[][],
  columns: Fields,
  ports: ImportPorts,
  owns: (r: number, c: number) => boolean,
): void {
  // Only rows it writes: one the analyst types below the table while it writes is theirs.
  const mine = (r: number, c: number) => r < grid.length && owns(r, c);
  const record = recordOf(grid, columns, mine);
  ports.target.record(spec.sheetName, spec.id, record);
  ports.target.write(spec.sheetName, grid, columns, spec.id);
  const written = ports.target.read(spec.sheetName);
  const stored = written ? recordOf(gridOf(written), columns, mine) : record;
  ports.target.commit(spec.sheetName, spec.id, stored.join('\n') === record.join('\n') ? undefined : stored);
}

export function writeTarget(
  spec: ImportSpec,
  run: RunState,
  kept: Kept,
  read: number,
  ports: ImportPorts,
  skippedNote: string,
): RunSummary {
  const rows = kept.rows;
  const existing = ports.target.read(spec.sheetName);
  let note = '';
  let grid: OutCell[][];
  let columns: Fields = spec.fields;
  let owns = (r: number, _c: number) => r > 0;
  if (spec.mode === 'merge') {
    const merged = mergeTables(existing, spec.fields, rows, spec.sheetName, kept.unmatched);
    ({ grid, columns } = merged);
    // The import owns the rows it wrote and, in the rows it kept, the cells it had written that no one changed since.
    const before = existing ? joined(existing, spec.id).ours : () => false;
    owns = (r, c) => merged.owns(r) || before(r, c);
    logChanges(spec, ports, merged.changes);
    note = mergeNote(merged.changes);
  } else {
    // Replace anyway: what it overwrites of the analyst's is said, never dropped without a word.
    const refusal = replaceRefusal(existing, spec, spec.sheetName);
    if (refusal && !run.force) return failRun(spec, run, ports, refusal);
    note = refusal?.overwrote ?? '';
    // Its header, on the first row, keeps the names the analyst gave there, as a merge does (./merge.ts headerName).
    const at = existing && tableLayout(existing.values.slice(0, 1), existing.fields).h === 0 ? existing : null;
    const header = (f: string, c: number) =>
      at && c >= 0 && !at.formulas[0][c] ? headerName(at.values[0], at.fields, c) : f;
    grid = [spec.fields.map((f) => header(f, at?.fields.indexOf(f) ?? -1)), ...rows];
    // A watched replace logs its changes too, so the alert's link to the change log shows them: none over a table it
    // cannot match by id (one a merge refuses, such as a table the import did not write, replaced anyway).
    if (spec.alert?.baselineAt !== undefined)
      try {
        logChanges(spec, ports, mergeTables(existing, spec.fields, rows, spec.sheetName, kept.unmatched).changes);
      } catch (e) {
        if (!(e instanceof MergeRefused)) throw e;
      }
  }
  writeOwned(spec, grid, columns, ports, owns);
  ports.staging.remove(spec.id);
  run.read = rows.length;
  return doneRun(spec, run, ports, read, note + skippedNote + afterWrite(spec, run, rows, ports));
}
