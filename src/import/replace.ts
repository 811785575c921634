/**
 * Whether replace may rewrite a sheet: one predicate over the import's record in the sheet. An
 * import tags each sheet it writes (src/gas/sheets.ts keeps the tag as sheet developer metadata)
 * with its id and a digest of the cells it owns there once it has written them (its columns; in a
 * merge, the rows it wrote and, of the rows it kept, the cells it had recorded; in a table the
 * analyst lets it own, the header row and the partners' rows: what the analyst typed elsewhere
 * stays theirs), and, just before writing, the digest of what it is about to write (`pending`,
 * for an execution that ends in between).
 * Replace may rewrite the sheet if and only if it is blank, or carries this import's tag and its
 * cells match the recorded or the pending digest. Otherwise it changes nothing and names the first
 * differences: formulas, then imported cells that were edited, then cells outside the table.
 * The digest keys each cell that is not blank by its row's id, its column's field (the column's
 * record, which moves with it) and its content, never by position or header text, so sorting the
 * rows or moving the columns keeps the table the import's; imported cells cleared or deleted hold
 * nothing to lose. It leaves out the header row's names in the import's columns: those are the
 * analyst's to choose, and both modes keep them (replaceHeader, src/import/merge.ts analystHeader).
 * A tag recorded before (by header text, every cell) is read by that keying when it explains the
 * sheet better. The digest is a small invertible sketch (an invertible Bloom lookup table), so a
 * few edited cells can be named.
 */
import { fnv1a } from '../api/hash';
import { type Cell, isDate } from '../table/cells';
import { analystHeader, HEADER_SEARCH_ROWS, norm, type OutCell } from './merge';

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

/**
 * Slots in each of the sketch's three parts. An edited cell differs twice (its old and its new
 * value), so a dozen edits are nearly always named and a few dozen often are not; replace refuses
 * either way, past that with "many edited imported cells" instead of their names.
 */
const SLOTS = 30;
const mix = (key: number, salt: number): number =>
  Math.imul((Math.imul(key ^ salt, 0x9e3779b1) >>> 15) ^ Math.imul(key ^ salt, 0x9e3779b1), 0x85ebca6b) >>> 0;
const blank = (v: OutCell | undefined) => v === '' || v === undefined || v === null;
const isFormula = (c: OutCell | undefined): c is { formula: string } =>
  typeof c === 'object' && c !== null && !isDate(c) && 'formula' in c;
const text = (v: OutCell | undefined): string =>
  isFormula(v)
    ? `=${v.formula}`
    : isDate(v)
      ? `d${Math.round(v.getTime() / 1000)}`
      : typeof v === 'number'
        ? `n${Number(v.toPrecision(15))}`
        : `${typeof v}${String(v ?? '')}`;

/** Adds (`sign` 1) or removes (-1) a key in each of the sketch's three parts: a count, the keys' XOR, their checks' XOR. */
function toggle(sketch: number[], key: number, sign: number): void {
  for (let part = 0; part < 3; part++) {
    const i = 3 * (part * SLOTS + (mix(key, part + 1) % SLOTS));
    [sketch[i], sketch[i + 1], sketch[i + 2]] = [
      sketch[i] + sign,
      (sketch[i + 1] ^ key) >>> 0,
      (sketch[i + 2] ^ mix(key, 99)) >>> 0,
    ];
  }
}

/**
 * How a digest keys a sheet: by the columns' records (the fields, each column's or undefined), leaving out the header
 * row's names in the import's columns (the analyst may name those); or, as tags were recorded before columns were
 * keyed by their records, by the headers' text (no records), every cell.
 */
type Keying = ReadonlyArray<string | undefined>;
const BY_HEADER_TEXT: Keying = [];

/**
 * Whether a grid's first row is its header row: one of the import's columns (by their records) reads "id" there, as
 * a merge asks (the id column's own, or another's after columns were swapped by cut and paste).
 */
function headerRow(grid: ReadonlyArray<ReadonlyArray<OutCell>>, fields: ReadonlyArray<string | undefined>): boolean {
  return fields.some((f, c) => f !== undefined && norm(grid[0]?.[c] as Cell) === 'id');
}

/**
 * Each cell with content (a blank one holds nothing to lose), keyed by its row's id, its column's name and its
 * content, and whether it is a name on the header row of one of the import's columns (by `fields`). A column's name
 * is its field, from the column's record (the header's text for a column without one), so renaming or clearing a
 * header changes nothing else.
 */
function keyed(
  grid: ReadonlyArray<ReadonlyArray<OutCell>>,
  fields: Keying,
  each: (key: number, r: number, c: number, inRow: boolean, headerName: boolean) => void,
): void {
  const header = grid[0] ?? [];
  const names = header.map((h, c) => text(fields[c] ?? h));
  const recordedId = fields.indexOf('id');
  const idCol = recordedId >= 0 ? recordedId : header.findIndex((h) => !isFormula(h) && norm(h) === 'id');
  const onHeader = headerRow(grid, fields);
  grid.forEach((row, r) => {
    const id = text(row[idCol]);
    for (let c = 0; c < row.length; c++) {
      if (blank(row[c])) continue;
      const headerName = r === 0 && onHeader && !!fields[c] && !isFormula(row[c]);
      each(fnv1a(`${id}\u0001${names[c]}\u0001${text(row[c])}`) >>> 0, r, c, r === 0 || !blank(row[idCol]), headerName);
    }
  });
}

/** The sketch of a grid's keyed cells that `include` takes. */
function sketchOf(
  grid: ReadonlyArray<ReadonlyArray<OutCell>>,
  keying: Keying,
  include: (r: number, c: number) => boolean = () => true,
): string {
  const sketch = new Array<number>(9 * SLOTS).fill(0);
  keyed(grid, keying, (key, r, c, _, headerName) => {
    if (!headerName && include(r, c)) toggle(sketch, key, 1);
  });
  return sketch.map((n) => n.toString(36)).join('.');
}

/** The digest of every cell of a grid, keyed by the headers' text (a blank grid's is the record of nothing). */
export const digestOf = (grid: ReadonlyArray<ReadonlyArray<OutCell>>): string => sketchOf(grid, BY_HEADER_TEXT);

/**
 * The digest of what the import owns in `grid`: its columns, without formulas (those are the analyst's) or the
 * header row's names, in the cells `owned` names (the rows it wrote or adopted, and the cells of the rows it kept
 * that it had recorded).
 */
export const ownDigest = (
  grid: readonly OutCell[][],
  columns: ReadonlyArray<string | undefined>,
  owned: (r: number, c: number) => boolean = () => true,
): string => sketchOf(grid, columns, (r, c) => !!columns[c] && !isFormula(grid[r][c]) && owned(r, c));

/** A sheet's cells as one grid, formulas as formula cells. */
export const gridOf = (t: OwnedTable): OutCell[][] =>
  t.values.map((row, r) => row.map((v, c) => (t.formulas[r]?.[c] ? { formula: t.formulas[r][c] } : v)));

/**
 * The analyst lets the import own the table: the columns headed like its fields (on the first row with an "id" cell,
 * else the first) become its own, on that header row and the rows below it with an id; a title above and a row
 * without an id (a TOTAL row) stay the analyst's.
 */
export function adoption(
  table: OwnedTable,
  fields: readonly string[],
): { grid: OutCell[][]; columns: Array<string | undefined>; owned: (r: number, c: number) => boolean } {
  const h = Math.max(
    0,
    table.values.slice(0, HEADER_SEARCH_ROWS).findIndex((row) => row.some((c) => norm(c) === 'id')),
  );
  const header = table.values[h] ?? [];
  const columns = header.map((name, c) =>
    fields.find((f) => norm(f) === norm(name) && header.findIndex((x) => norm(x) === norm(name)) === c),
  );
  const idCol = columns.indexOf('id');
  return {
    grid: gridOf(table),
    columns,
    owned: (r) => r === h || (r > h && idCol >= 0 && !blank(table.values[r]?.[idCol])),
  };
}

/**
 * The cells of a sheet the import recorded writing and no one changed since: with its tag, those whose key is not
 * among the ones added since (all of them when the sheet is as its pending write left it); none without the tag or
 * when the differences are too many to name.
 */
export function recordedCells(table: OwnedTable | null, importId: string): (r: number, c: number) => boolean {
  const tag = table?.tag?.import === importId ? table.tag : null;
  if (!table || !tag) return () => false;
  const grid = gridOf(table);
  const { keying, extra } = against(grid, table.fields, tag);
  if (!extra) return () => false;
  const recorded = new Set<string>();
  keyed(grid, keying, (key, r, c) => {
    if (!extra.has(key)) recorded.add(`${r},${c}`);
  });
  return (r, c) => recorded.has(`${r},${c}`);
}

/**
 * A sheet against its tag: the keying the tag was recorded with (by the columns' records, or by the headers' text
 * for a tag recorded before them), and the keys added since (none when the sheet is as recorded or as its pending
 * write left it; null when too many to name). Of the two keyings, the one that explains the sheet with the fewer
 * added keys.
 */
function against(
  grid: OutCell[][],
  fields: ReadonlyArray<string | undefined>,
  tag: SheetTag,
): { keying: Keying; extra: Set<number> | null } {
  let best: { keying: Keying; extra: Set<number> | null } = { keying: fields, extra: null };
  for (const keying of [fields, BY_HEADER_TEXT]) {
    const now = sketchOf(grid, keying);
    if (now === tag.digest || now === tag.pending) return { keying, extra: new Set() };
    const extra = extraKeys(now, tag.digest);
    if (extra && (!best.extra || extra.size < best.extra.size)) best = { keying, extra };
  }
  return best;
}

/** A1 name of a 0-based cell. */
export function a1(row: number, col: number): string {
  let letters = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26))
    letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}

/** The keys in digest `now` and not in `then`, by peeling the difference of their sketches; null when too many to list. */
function extraKeys(now: string, then: string): Set<number> | null {
  const [a, b] = [now, then].map((d) => d.split('.').map((n) => Number.parseInt(n, 36)));
  if (a.length !== b.length) return null;
  const d = a.map((n, i) => (i % 3 ? (n ^ b[i]) >>> 0 : n - b[i]));
  const extra = new Set<number>();
  // A sketch names at most as many keys as it has slots; a digest not made by this rule (another form, or
  // altered) could otherwise be peeled for ever.
  let peels = 0;
  for (let peeled = true; peeled; ) {
    peeled = false;
    for (let i = 0; i < d.length; i += 3) {
      if (Math.abs(d[i]) !== 1 || d[i + 2] !== mix(d[i + 1], 99)) continue;
      if (++peels > 3 * SLOTS) return null;
      if (d[i] === 1) extra.add(d[i + 1]);
      toggle(d, d[i + 1], -d[i]);
      peeled = true;
    }
  }
  return d.every((n) => n === 0) ? extra : null;
}

/**
 * The header a replace writes: on the sheet's header row, each field's header as the analyst named it their own way
 * in the field's column (analystHeader: a formula there is not kept, replace names it), else the field's name. The
 * replace keeps it, as a merge does.
 */
export function replaceHeader(table: OwnedTable | null, fields: readonly string[]): Cell[] {
  if (!table || !headerRow(table.values, table.fields)) return [...fields];
  // A field without a column (a field just added) reads an empty header (index -1): its name.
  const headerOf = (f: string) => table.values[0][table.fields.indexOf(f)];
  return fields.map((f) => {
    const c = table.fields.indexOf(f);
    return !table.formulas[0][c] && analystHeader(headerOf(f), undefined, fields, headerOf) ? headerOf(f) : f;
  });
}

/**
 * What of the sheet is not as the import left it (see the file's comment), the first `limit` differences named
 * ("(C2 (a formula), B3 (edited) and 2 more)"), and whether the sheet carries this import's tag; undefined when
 * replace may rewrite it.
 */
export function replaceDifferences(
  table: OwnedTable | null,
  importing: { id: string; fields: readonly string[] },
  limit = 3,
): { what: string; tagged: boolean } | undefined {
  if (!table) return undefined;
  const grid = gridOf(table);
  const tag = table.tag?.import === importing.id ? table.tag : null;
  const header = !!tag && headerRow(grid, table.fields);
  // The header row's names in the import's columns are the replace's to write (the analyst's kept: replaceHeader),
  // but for a field it no longer writes: a name the analyst gave there is theirs.
  const renamedGone = (c: number) =>
    !importing.fields.includes(table.fields[c] as string) && grid[0][c] !== table.fields[c];
  const named: string[][] = [[], [], []];
  let count = 0;
  const name = (r: number, c: number, kind: number) => {
    count++;
    if (named[kind].length < limit) named[kind].push(a1(r, c) + [' (a formula)', ' (edited)', ''][kind]);
  };
  // A sheet without this import's tag: every cell is named, none is the import's.
  const { keying, extra } = tag ? against(grid, table.fields, tag) : { keying: BY_HEADER_TEXT, extra: null };
  // Too many differences to list: the formulas and the cells outside the import's columns are named.
  const many = !!tag && !extra;
  keyed(grid, keying, (key, r, c, inRow) => {
    // Formulas first, then imported cells (a column the import wrote, on the header row or a row with an id), then the rest.
    const kind = isFormula(grid[r][c]) ? 0 : table.fields[c] && inRow ? 1 : 2;
    if (kind === 1 && r === 0 && header) {
      if (renamedGone(c)) name(r, c, kind);
    } else if (!tag || !kind || (extra ? extra.has(key) : kind !== 1)) name(r, c, kind);
  });
  // Only imported cells gone (values cleared, rows deleted): nothing of the analyst's to lose.
  if (!count && !many) return undefined;
  const places = named.flat().slice(0, limit);
  const tail = many ? 'many edited imported cells' : count > places.length ? `${count - places.length} more` : '';
  return { what: `(${places.join(', ')}${places.length && tail ? ' and ' : ''}${tail})`, tagged: !!tag };
}

/** Why replace may not rewrite the sheet (see the file's comment), or undefined when it may; the first `limit` differences named. */
export function replaceRefusal(
  table: OwnedTable | null,
  importing: { id: string; fields: readonly string[] },
  sheetName: string,
  limit = 3,
): string | undefined {
  const differences = replaceDifferences(table, importing, limit);
  if (!differences) return undefined;
  return differences.tagged
    ? `Replace stopped: "${sheetName}" is not as the import left it ${differences.what}. Undo those edits, import with merge by id, or choose Replace anyway.`
    : `Replace stopped: "${sheetName}" holds cells the import did not write ${differences.what}. Let the import own this table, import into another sheet, or choose Replace anyway.`;
}
