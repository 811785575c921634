/**
 * Whether replace may rewrite a sheet: one predicate over the import's record in the sheet. An
 * import tags each sheet it writes (src/gas/sheets.ts keeps the tag as sheet developer metadata)
 * with its id and a digest of every cell there once it has written it, and, just before writing,
 * the digest of what it is about to write (`pending`, for an execution that ends in between).
 * Replace may rewrite the sheet if and only if it is blank, or carries this import's tag and its
 * cells match the recorded or the pending digest. Otherwise it changes nothing and names the first
 * differences: formulas, then imported cells that were edited, then cells outside the table.
 * The digest keys each cell that is not blank by its row's id, its column's header and its
 * content, never by position, so sorting the rows or moving the columns keeps the table the
 * import's; imported cells cleared or deleted hold nothing to lose. It is a small invertible
 * sketch (an invertible Bloom lookup table), so a few edited cells can be named.
 */
import { fnv1a } from '../api/hash';
import { type Cell, isDate } from '../table/cells';
import { HEADER_SEARCH_ROWS, norm, type OutCell } from './merge';

/** The import's record on a sheet it wrote. */
export interface SheetTag {
  import: string;
  digest: string;
  pending?: string;
}

/** A sheet as ownership sees it: its cells, the field each column's metadata names, its tag. */
export interface OwnedTable {
  values: Cell[][];
  formulas: string[][];
  fields: ReadonlyArray<string | undefined>;
  tag: SheetTag | null;
}

/** Slots in each of the sketch's three parts: enough to name about 60 differing cells. */
const SLOTS = 30;
const mix = (key: number, salt: number): number => {
  const h = Math.imul(key ^ salt, 0x9e3779b1);
  return Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
};
const blankCell = (v: Cell | undefined) => v === '' || v === undefined || v === null;
const text = (v: Cell | undefined): string => (isDate(v) ? `d${Math.round(v.getTime() / 1000)}` : typeof v === 'number' ? `n${Number(v.toPrecision(15))}` : `${typeof v}${String(v ?? '')}`);
const isFormula = (c: OutCell | undefined): c is { formula: string } => typeof c === 'object' && c !== null && !isDate(c) && 'formula' in c;

function toggle(sketch: number[], key: number, sign: number): void {
  for (let part = 0; part < 3; part++) {
    const i = 3 * (part * SLOTS + (mix(key, part + 1) % SLOTS));
    sketch[i] += sign;
    sketch[i + 1] = (sketch[i + 1] ^ key) >>> 0;
    sketch[i + 2] = (sketch[i + 2] ^ mix(key, 99)) >>> 0;
  }
}

/** The keyed cells of a grid: every cell with content (a blank one holds nothing of anyone's to lose). */
function keyed(grid: ReadonlyArray<ReadonlyArray<OutCell>>, each: (key: number, r: number, c: number, formula: boolean, inRow: boolean) => void): void {
  const header = grid[0] ?? [];
  const idCol = header.findIndex((h) => !isFormula(h) && String(h).trim().toLowerCase() === 'id');
  grid.forEach((row, r) => {
    const id = idCol >= 0 && !isFormula(row[idCol]) ? text(row[idCol] as Cell) : '';
    for (let c = 0; c < Math.max(row.length, header.length); c++) {
      const cell = row[c];
      const formula = isFormula(cell);
      if (!formula && blankCell(cell as Cell)) continue;
      const head = isFormula(header[c]) ? '' : text(header[c] as Cell);
      each(fnv1a(`${id}\u0001${head}\u0001${formula ? `=${cell.formula}` : text(cell as Cell)}`) >>> 0, r, c, formula, r === 0 || !blankCell(row[idCol] as Cell));
    }
  });
}

function sketchOf(grid: ReadonlyArray<ReadonlyArray<OutCell>>): number[] {
  const sketch = new Array<number>(9 * SLOTS).fill(0);
  keyed(grid, (key) => toggle(sketch, key, 1));
  return sketch;
}

/** The digest of a grid as the import writes it (or as the sheet holds it). */
export const digestOf = (grid: ReadonlyArray<ReadonlyArray<OutCell>>): string => sketchOf(grid).map((n) => n.toString(36)).join('.');

/** The digest of what the import writes in `grid`: its columns, without formulas (those are the analyst's). */
export const ownDigest = (grid: readonly OutCell[][], columns: ReadonlyArray<string | undefined>): string => digestOf(grid.map((row) => row.map((cell, c) => (columns[c] && !isFormula(cell) ? cell : ''))));

const gridOf = (table: OwnedTable): OutCell[][] => table.values.map((row, r) => row.map((v, c) => (table.formulas[r]?.[c] ? { formula: table.formulas[r][c] } : v)));

/**
 * The analyst lets the import own the table in the sheet: the columns headed like its fields (in
 * the header row, the first with a cell reading "id", else the first row) become the import's.
 */
export function adoption(table: OwnedTable, fields: readonly string[]): { grid: OutCell[][]; columns: Array<string | undefined> } {
  const header = table.values[Math.max(0, table.values.slice(0, HEADER_SEARCH_ROWS).findIndex((row) => row.some((c) => norm(c) === 'id')))] ?? [];
  const columns = header.map((h, c) => fields.find((f) => norm(f) === norm(h) && header.findIndex((x) => norm(x) === norm(h)) === c));
  return { grid: gridOf(table), columns };
}

/** A1 name of a 0-based cell. */
export function a1(row: number, col: number): string {
  let letters = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}

/** The keys in `now` and not in `then`; null when they differ in too many to list. */
function difference(now: number[], then: string): Set<number> | null {
  const d = then.split('.').map((n) => Number.parseInt(n, 36));
  if (d.length !== now.length) return null;
  for (let i = 0; i < d.length; i += 3) [d[i], d[i + 1], d[i + 2]] = [now[i] - d[i], (now[i + 1] ^ d[i + 1]) >>> 0, (now[i + 2] ^ d[i + 2]) >>> 0];
  const extra = new Set<number>();
  for (let peeled = true; peeled; ) {
    peeled = false;
    for (let i = 0; i < d.length; i += 3) {
      if (Math.abs(d[i]) !== 1 || d[i + 2] !== mix(d[i + 1], 99)) continue;
      if (d[i] === 1) extra.add(d[i + 1]);
      toggle(d, d[i + 1], -d[i]);
      peeled = true;
    }
  }
  return d.every((n) => n === 0) ? extra : null;
}

/**
 * Why replace may not rewrite the sheet (see the file's comment), or undefined when it may:
 * the first `limit` differences named, formulas first, then edited imported cells, then cells
 * outside the table.
 */
export function replaceRefusal(table: OwnedTable | null, importId: string, sheetName: string, limit = 3): string | undefined {
  if (!table) return undefined;
  const grid = gridOf(table);
  const tag = table.tag?.import === importId ? table.tag : null;
  const now = tag ? sketchOf(grid) : [];
  const digest = now.map((n) => n.toString(36)).join('.');
  if (tag && (digest === tag.digest || digest === tag.pending)) return undefined;
  const diff = tag ? difference(now, tag.digest) : null;
  // Too many differences to list: the formulas and the cells outside the import's columns are named.
  const many = !!tag && !diff;
  const named: string[][] = [[], [], []];
  let count = 0;
  keyed(grid, (key, r, c, formula, inRow) => {
    // An imported cell: in a column the import wrote, on the header row or a row with an id.
    const kind = formula ? 0 : table.fields[c] && inRow ? 1 : 2;
    if (tag && !formula && (diff ? !diff.has(key) : kind === 1)) return;
    count++;
    if (named[kind].length < limit) named[kind].push(a1(r, c) + [' (a formula)', ' (edited)', ''][kind]);
  });
  // Only imported cells gone (rows deleted, the sheet cleared): nothing of the analyst's to lose.
  if (!count && !many) return undefined;
  const places = named.flat().slice(0, limit);
  const tail = many ? 'many edited imported cells' : count > places.length ? `${count - places.length} more` : '';
  const what = ` (${places.length ? places.join(', ') + (tail ? ` and ${tail}` : '') : tail})`;
  return tag
    ? `Replace stopped: "${sheetName}" is not as the import left it${what}. Undo those edits, import with merge by id, or choose Replace anyway.`
    : `Replace stopped: "${sheetName}" holds cells the import did not write${what}. Let the import own this table, import into another sheet, or choose Replace anyway.`;
}
