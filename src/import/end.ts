/**
 * How an import run ends: a complete read is written to its sheet in one write, with the import's
 * record (./ownership.ts), the changes it made (merge, or a watched replace) and its alert, and the run
 * gets its row in the run log (./run-log.ts). The step that reads the list is ./machine.ts.
 */
import {
  type Fields,
  gridOf,
  joined,
  MergeRefused,
  mergeTables,
  type OutCell,
  recordOf,
  replaceHeader,
  replaceRefusal,
} from './ownership';
import type { ImportPorts } from './ports';
import { doneRun, failRun, logChanges } from './run-log';
import type { RunState, RunSummary } from './run-state';
import type { Kept } from './shape';
import type { ImportSpec } from './spec';
import { afterWrite } from './watch';

/** Why this replace run may not rewrite its sheet (./ownership.ts replaceRefusal), or undefined. */
export const replaceRefused = (spec: ImportSpec, run: RunState, ports: ImportPorts) =>
  spec.mode === 'replace' && !run.force
    ? replaceRefusal(ports.target.read(spec.sheetName), spec, spec.sheetName)
    : undefined;

/**
 * Writes a table with the import's record (./ownership.ts) of the cells `owns` names: the record
 * first, as pending beside the current one, then the table, its columns' fields, formats and
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
  { rows, unmatched }: Kept,
  read: number,
  ports: ImportPorts,
  skippedNote: string,
): RunSummary {
  const existing = ports.target.read(spec.sheetName);
  let note: string;
  if (spec.mode === 'merge') {
    const merged = mergeTables(existing, spec.fields, rows, spec.sheetName, unmatched);
    note = logChanges(spec, ports, merged.changes);
    // The import owns the rows it wrote and, in the rows it kept, the cells it had written that no one changed since.
    const before = existing ? joined(existing, spec.id).ours : () => false;
    writeOwned(spec, merged.grid, merged.columns, ports, (r, c) => merged.owns(r) || before(r, c));
  } else {
    // Replace anyway: what it overwrites of the analyst's is said, never dropped without a word.
    const refusal = replaceRefusal(existing, spec, spec.sheetName);
    if (refusal && !run.force) return failRun(spec, run, ports, refusal);
    note = refusal?.overwrote ?? '';
    // A watched replace logs its changes too, so the alert's link to the change log shows them: none over a table it
    // cannot match by id (one a merge refuses, such as a table the import did not write, replaced anyway).
    try {
      if (spec.alert?.baselineAt !== undefined)
        logChanges(spec, ports, mergeTables(existing, spec.fields, rows, spec.sheetName, unmatched).changes);
    } catch (e) {
      if (!(e instanceof MergeRefused)) throw e;
    }
    writeOwned(spec, [replaceHeader(existing, spec.fields), ...rows], spec.fields, ports, (r) => r > 0);
  }
  ports.staging.remove(spec.id);
  run.read = rows.length;
  return doneRun(spec, run, ports, read, note + skippedNote + afterWrite(spec, run, rows, ports));
}
