/**
 * What the import owns in a sheet, and what replace and merge by id may write there. The record
 * (docs/architecture.md, kept by src/gas/sheets.ts): the sheet's tag, the field each of the
 * import's columns holds, and for each row it owns the partner's id and a short hash of each cell it
 * wrote there. A cell is the import's when it is on the first row of a recorded id below the header
 * row and hashes as one the import wrote in that row for its column's field (so a sort, or columns
 * moved or swapped, keep it the import's); every other cell with content is the analyst's, and
 * each can be named, in any number. The header row's names are the analyst's (headerName).
 */
import { fnv1a } from '../api/hash';
import { grouped } from '../api/numbers';
import { firstOfEachId } from '../api/records';
import { type Cell, isDate } from '../table/cells';
import { columnName } from '../table/names';
import type { Fields, ImportPorts, OutCell, OwnedTable } from './ports';
import type { ImportSpec, Offer } from './spec';

export interface Change {
  id: string;
  change: 'new partner' | 'no longer active' | 'no longer matches' | 'repeated id (kept)' | 'changed';
  field: string;
  before: Cell;
  after: Cell;
}

/** A table to write: `columns` the field of each column of `grid`, `owns` whether the import writes cell (r, c). */
export interface Owned {
  grid: OutCell[][];
  columns: Fields;
  owns: (r: number, c: number) => boolean;
}

export const MAX_CHANGES = 10000;
/** How far down the header row (the one with "id") may be, below a title or notes. */
export const HEADER_SEARCH_ROWS = 10;
/** The version of the record an import keeps (its rows packed many a cell); a sheet tagged with another is adopted anew. */
export const RECORD_VERSION = 3;

/** Why an import may not write its sheet as set up: `offers`, the choices its message names; a replace's, each cell. */
export type Refusal = { message: string; offers: Offer[]; overwrote?: string; all?: string };

/** A header cell as headers are compared: trimmed, any case. */
export const norm = (h: Cell | undefined): string => `${h ?? ''}`.trim().toLowerCase();
export const blankCell = (v: OutCell | undefined): boolean => v === '' || v === undefined;
export const isFormula = (c: OutCell | undefined): c is { formula: string } => typeof c === 'object' && 'formula' in c;

/** A value as Sheets gives it back, as values are compared: a date to the second, a number to 15 digits, never its text. */
export const cellKey = (v: Cell): string =>
  isDate(v)
    ? `d${Math.round(v.getTime() / 1000)}`
    : typeof v === 'number'
      ? `n${Number(v.toPrecision(15))}`
      : `${typeof v}${v}`;

/** A sheet's cells as one grid, formulas as formula cells. */
export const gridOf = (t: { values: Cell[][]; formulas: string[][] }): OutCell[][] =>
  t.values.map((row, r) => row.map((v, c) => (t.formulas[r]?.[c] ? { formula: t.formulas[r][c] } : v)));

/**
 * Where the import's table is: its header row `h`, the first top row where one of the import's columns reads "id"
 * (-1 when none); its id column there, the id field's own first (cut and paste moves cells, not their records); and
 * each id's first row below the header, the only row of that partner the import writes.
 */
export function tableLayout(values: ReadonlyArray<readonly Cell[]>, fields: Fields) {
  const own = fields.indexOf('id');
  const isId = (row: readonly Cell[], c: number) => !!fields[c] && norm(row[c]) === 'id';
  const h = values.slice(0, HEADER_SEARCH_ROWS).findIndex((row) => row.some((_, c) => isId(row, c)));
  const idCol = h < 0 || isId(values[h], own) ? own : values[h].findIndex((_, c) => isId(values[h], c));
  const idOf = (r: number) => String(values[r][idCol] ?? '');
  const first = new Map<string, number>();
  for (let r = values.length - 1; r > h; r--) if (idOf(r)) first.set(idOf(r), r);
  return { h, idCol, first, idOf };
}

/** The field whose name the header of column `c` reads while its own column reads otherwise: cut and paste moved it. */
const movedField = (row: readonly Cell[], fields: Fields, c: number): string | undefined =>
  fields.find((f, k) => row[c] === f && row[k] !== undefined && row[k] !== f);

/** The one header rule of both modes: the analyst's name for the import's column `c` is kept; a blank or moved one is its field's. */
export const headerName = (row: readonly Cell[], fields: Fields, c: number): Cell =>
  norm(row[c]) === '' || movedField(row, fields, c) ? (fields[c] as string) : row[c];

/** Why a merge by id may not write over `table`: its rows cannot be matched by the id column the import wrote. */
function mergeRefusal(table: OwnedTable, sheetName: string): Refusal | undefined {
  const { h, idCol } = tableLayout(table.values, table.fields);
  const id = table.fields.indexOf('id');
  // Rows are matched by the id column's own record: cells moved from it (a column inserted or pasted) are not its.
  if ((h >= 0 && id >= 0 && idCol === id) || gridOf(table).every((row) => row.every(blankCell))) return undefined;
  if (!table.fields.some(Boolean))
    return {
      message: `"${sheetName}" holds a table the import did not write; nothing was changed. Let the import own this table (its columns named like fields become the import's), or import into another sheet.`,
      offers: ['adopt'],
    };
  const rows = Math.min(HEADER_SEARCH_ROWS, table.values.length);
  return {
    message:
      id < 0
        ? `The id column the import wrote in "${sheetName}" is gone, so its rows cannot be matched; nothing was changed. Undo the deletion, or import into another sheet.`
        : `Merge by id needs the header "id" on the import's id column of "${sheetName}", in its first ${rows} rows; nothing was changed. Name that column "id" again.`,
    offers: [],
  };
}

/**
 * Merge by id, over a table `refusal` lets it merge: `incoming` laid over the table in the sheet, matched by id; no row
 * moves. A listed partner's first row takes the new values in the import's columns (an analyst's formula there stays);
 * any other row, and every column of the analyst's, keeps every cell; new partners go below, new fields at the right.
 * `unmatched`: ids the filters leave out, kept as a partner no longer active is.
 */
export function mergeTables(
  existing: { values: Cell[][]; formulas: string[][]; fields: Fields } | null,
  fields: readonly string[],
  incoming: readonly Cell[][],
  unmatched: ReadonlySet<string> = new Set(),
): Owned & { changes: Change[] } {
  const old = existing ? gridOf(existing) : [];
  if (!existing || old.every((row) => row.every(blankCell)))
    return { grid: [[...fields], ...incoming], columns: [...fields], changes: [], owns: (r) => r > 0 };
  const values = existing.values;
  const { h, first: firstRow, idOf } = tableLayout(values, existing.fields);
  // A loop, not a spread: one argument per row overflows the stack past about 125,000 rows.
  const width = old.reduce((w, r) => Math.max(w, r.length), 0);
  // The import's columns where they are now (a field it no longer writes leaves its column to the analyst), new fields at the right.
  const columns = Array.from({ length: width }, (_, c) => fields.find((f) => f === existing.fields[c]));
  for (const f of fields) if (!columns.includes(f)) columns.push(f);
  const idOfRow = (row: readonly Cell[]) => String(row[fields.indexOf('id')]);
  const listed = new Map(firstOfEachId(incoming, idOfRow).map((row) => [idOfRow(row), row] as const));
  const wrote = (r: number) => r >= values.length || (firstRow.get(idOf(r)) === r && listed.has(idOf(r)));
  const changes: Change[] = [];
  const log = (id: string, change: Change['change'], field = '', before: Cell = '', after: Cell = '') =>
    changes.push({ id, change, field, before, after });
  const grid: OutCell[][] = old.map((_, r) =>
    columns.map((f, c) => {
      if (!f || isFormula(old[r][c])) return old[r][c] ?? '';
      if (r === h) return c < width ? headerName(values[h], existing.fields, c) : f;
      return wrote(r) ? (listed.get(idOf(r)) as Cell[])[fields.indexOf(f)] : (old[r][c] ?? '');
    }),
  );
  for (const [id, row] of listed) {
    const at = firstRow.get(id);
    if (at === undefined) grid.push(columns.map((f) => (f ? row[fields.indexOf(f)] : '')));
    if (at === undefined) log(id, 'new partner');
    else
      fields.forEach((f, k) => {
        const c = columns.indexOf(f);
        const was = values[at][c] ?? '';
        if (c < width && !isFormula(old[at][c]) && cellKey(was) !== cellKey(row[k])) log(id, 'changed', f, was, row[k]);
      });
  }
  // A partner no longer listed, or a further row of a repeated id, is kept whole and logged.
  const whyKept = (id: string, r: number) =>
    firstRow.get(id) !== r ? 'repeated id (kept)' : unmatched.has(id) ? 'no longer matches' : 'no longer active';
  for (let r = h + 1; r < values.length; r++) if (idOf(r) && !wrote(r)) log(idOf(r), whyKept(idOf(r), r));
  return { grid, columns, changes: changes.slice(0, MAX_CHANGES), owns: wrote };
}

/** The hash of a field's prefix: cellHash hashes each of the field's values from it. */
const fieldHash = (field: string): number => fnv1a(`${field}\u0001`);

/** A value's short hash with its field (hashed from the field's fieldHash), the value as Sheets gives it back (cellKey). */
const cellHash = (v: Cell, from: number): string => fnv1a(cellKey(v), from).toString(36);

/** The record of a table: for each row it owns, the hashes of the cells it owns in the import's columns, then its id. */
export function recordOf(grid: readonly OutCell[][], columns: Fields, owns: Owned['owns']): string[] {
  const idCol = columns.indexOf('id');
  const from = columns.map((f) => (f ? fieldHash(f) : 0));
  const out: string[] = [];
  grid.forEach((row, r) => {
    if (blankCell(row[idCol]) || !owns(r, idCol)) return;
    let hashes = '';
    columns.forEach((f, c) => {
      if (f && !blankCell(row[c]) && !isFormula(row[c]) && owns(r, c))
        hashes += `${hashes ? '.' : ''}${cellHash(row[c] as Cell, from[c])}`;
    });
    out.push(`${hashes}|${String(row[idCol])}`);
  });
  return out;
}

/** The sheet joined with `importId`'s record: where its table is, and whether cell (r, c) is as the import wrote it. */
export function joined(table: OwnedTable, importId: string) {
  const { h, idCol, first, idOf } = tableLayout(table.values, table.fields);
  const tagged = table.tag?.import === importId && table.tag.version === RECORD_VERSION;
  // Each cell the record names, as `hash|id`.
  const wrote = new Set(
    (tagged ? table.written : []).flatMap((line) => {
      const [hashes, id] = [line.slice(0, line.indexOf('|')), line.slice(line.indexOf('|'))];
      return hashes.split('.').map((hash) => hash + id);
    }),
  );
  const grid = gridOf(table);
  // A column's cells are its field's, or those of the field moved there; a formula never hashes as a recorded value.
  const fieldOf = table.fields.map((f, c) => (h >= 0 ? movedField(table.values[h], table.fields, c) : undefined) ?? f);
  const ours = (r: number, c: number): boolean => {
    const [id, f] = [idOf(r), fieldOf[c]];
    return !!f && first.get(id) === r && wrote.has(`${cellHash(grid[r][c] as Cell, fieldHash(f))}|${id}`);
  };
  return { h, idCol, grid, ours, tagged };
}

/**
 * The analyst lets the import own the table: the columns headed like its fields on the first top row with an "id" (else
 * the first row), and the rows below with an id; a title above, and a row without an id (a TOTAL row), stay theirs.
 */
export function adoption(table: OwnedTable, fields: readonly string[]): Owned {
  const h = Math.max(
    0,
    table.values.slice(0, HEADER_SEARCH_ROWS).findIndex((row) => row.some((v) => norm(v) === 'id')),
  );
  const header = table.values[h] ?? [];
  const columns = header.map((name, c) =>
    fields.find((f) => norm(f) === norm(name) && header.findIndex((x) => norm(x) === norm(name)) === c),
  );
  return { grid: gridOf(table), columns, owns: (r: number) => r > h };
}

/**
 * Why the import, as it is set up, may not write `table`, or undefined. A merge: mergeRefusal. A replace, when the sheet
 * holds cells of the analyst's: each one, in order (formulas, imported cells edited, the rest). `message` names the first
 * `limit` ("(C2 (a formula), B3 (edited) and 2 more)"), `overwrote` says them for Replace anyway, `all` names each.
 */
export function refusal(
  table: OwnedTable | null,
  importing: { id: string; fields: readonly string[]; mode?: ImportSpec['mode'] },
  sheetName: string,
  limit = 3,
): Refusal | undefined {
  if (!table || importing.mode === 'merge') return table ? mergeRefusal(table, sheetName) : undefined;
  const { h, idCol, grid, ours, tagged } = joined(table, importing.id);
  const named: string[][] = [[], [], []];
  grid.forEach((row, r) => {
    row.forEach((v, c) => {
      const f = table.fields[c];
      // A header of the import's columns reading its field's name is the replace's to write; one the analyst named is
      // kept on the first row (as a merge keeps it), but for a field it no longer writes.
      const header = r === h && tagged && f && !isFormula(v);
      const kept =
        header && ((h === 0 && importing.fields.includes(f)) || headerName(table.values[h], table.fields, c) === f);
      if (blankCell(v) || (header ? kept : ours(r, c))) return;
      const kind = isFormula(v) ? 0 : f && (r === 0 || !blankCell(row[idCol])) ? 1 : 2;
      named[kind].push(`${columnName(c)}${r + 1}${[' (a formula)', ' (edited)', ''][kind]}`);
    });
  });
  const all = named.flat();
  if (!all.length) return undefined;
  const what = `(${all.slice(0, limit).join(', ')}${all.length > limit ? ` and ${grouped(all.length - limit)} more` : ''})`;
  return {
    message: tagged
      ? `Replace stopped: "${sheetName}" is not as the import left it ${what}. Undo those edits, import with merge by id, or choose Replace anyway.`
      : `Replace stopped: "${sheetName}" holds cells the import did not write ${what}. Let the import own this table, import into another sheet, or choose Replace anyway.`,
    overwrote: ` Replaced anyway: overwrote cells ${tagged ? 'not as the import left them' : 'the import did not write'} ${what}.`,
    all: all.join(', '),
    offers: tagged ? ['force'] : ['adopt', 'force'],
  };
}

/** The table a replace writes: its header keeps, on the first row, the names the analyst gave there (headerName). */
export function replaced(table: OwnedTable | null, fields: readonly string[], rows: Cell[][]): Owned {
  const at = table && tableLayout(table.values.slice(0, 1), table.fields).h === 0 ? table : null;
  const header = fields.map((f) => {
    const c = at?.fields.indexOf(f) ?? -1;
    return at && c >= 0 && !at.formulas[0][c] ? headerName(at.values[0], at.fields, c) : f;
  });
  return { grid: [header, ...rows], columns: fields, owns: (r) => r > 0 };
}

/** Whether Sheets gave back the very value written (a date as the same instant): its hash is the one already made. */
/**
 * Writes a table and its record: the record as pending beside the current one, the table (its columns' fields, formats
 * and protection), then the record made current as the sheet holds it (read back, and hashed again if Sheets stored a
 * cell otherwise than written). An execution killed at any point leaves the old table or the new one, with its record.
 */
export function writeOwned(spec: ImportSpec, ports: ImportPorts, { grid, columns, owns }: Owned): void {
  // Only rows it writes, and no formula (the analyst's): one the analyst types below the table while it writes is theirs.
  const mine = (r: number, c: number) => r < grid.length && !isFormula(grid[r][c]) && owns(r, c);
  const record = recordOf(grid, columns, mine);
  ports.target.record(spec.sheetName, spec.id, record);
  ports.target.write(spec.sheetName, grid, columns, spec.id);
  const values = ports.target.read(spec.sheetName)?.values;
  const as = (read: Cell | undefined, v: OutCell) => read === v || (isDate(read) && isDate(v) && +read === +v);
  const same = !values || grid.every((row, r) => row.every((v, c) => isFormula(v) || as(values[r]?.[c], v)));
  ports.target.commit(spec.sheetName, spec.id, same ? undefined : recordOf(values, columns, mine));
}
