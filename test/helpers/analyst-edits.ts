/**
 * Random analyst edits between runs of an import, from a seed: a first run (replace or merge by
 * id) writes a small list into a sheet over the in-memory ports (./fake-ports.ts); the analyst
 * then types values and formulas (in the import's cells, in new columns left, right or between,
 * in rows below or inside the table, above the header), inserts and deletes rows and columns
 * (the column record moving with its column, as Sheets moves developer metadata), sorts the
 * table's rows, moves a column, copies a value, clears cells; the list and the import's fields
 * may change too; then another run (replace, merge by id, or Replace anyway), and once more
 * edits and a run for half the seeds. Every cell carries where it came from (the import, or the
 * analyst), moved with it by each edit and kept by a merge that does not rewrite it, so the
 * check of what a run kept does not rely on the import's own record. Returns the promises the
 * scenario broke (none when it held): a refused run changes nothing; a replace that completes
 * lost no analyst cell; a merge keeps every analyst cell in its row, every formula, each listed
 * partner once with the new values, every analyst value it overwrote named in the change log;
 * Replace anyway touches no other sheet and says what of the analyst's it overwrote. Used by
 * test/unit/import/analyst-edits-random.test.ts.
 */
import { mulberry32 } from '../../dev/service/rng';
import type { ServiceRecord } from '../../src/api/records';
import { adoptTable, beginRun, continueRun } from '../../src/import/machine';
import { norm } from '../../src/import/ownership';
import type { OutCell } from '../../src/import/ports';
import type { ImportSpec } from '../../src/import/spec';
import { fakeList } from './fake-list';
import { type World, world } from './fake-ports';

export type LaterRun = 'replace' | 'merge' | 'force';

export interface Scenario {
  seed: number;
  /** The last run's mode and outcome ('done', or 'failed': refused). */
  last: LaterRun;
  status: string;
  /** The edits made, for a failure's message. */
  edits: string[];
  /** Promises broken, each said in a line. */
  broken: string[];
  /** What the scenario met that is no broken promise (a run refused after edits that harm nothing), each in a line. */
  notes: string[];
  /** How many analyst cells the sheet held before the last run. */
  analystCells: number;
}

/** Where a cell came from: written by the import ('i'), typed or pasted by the analyst ('a'), or blank (''). */
type Origin = 'i' | 'a' | '';

interface Sheet {
  cells: OutCell[][];
  origin: Origin[][];
  fields: Array<string | undefined>;
}

const OPTIONAL = ['fullName', 'firm', 'ticketSize'];
const SHEET = 'Partners';
const OTHER = 'Other';
const isFormula = (c: OutCell | undefined): c is { formula: string } =>
  typeof c === 'object' && c !== null && 'formula' in c;
const blank = (c: OutCell | undefined) => c === '' || c === undefined || c === null;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? '') === JSON.stringify(b ?? '');
const show = (c: unknown) => JSON.stringify(c ?? '');

function partner(k: number, version: number, random: () => number): ServiceRecord {
  return {
    id: `lp-${k}`,
    fullName: `Name ${k} v${version}`,
    firm: random() < 0.2 ? '' : `Firm ${Math.floor(random() * 4)}`,
    ticketSize: Math.floor(random() * 5) * 250_000,
  };
}

/** The cells the import writes for a record. */
const rowOf = (r: ServiceRecord, fields: readonly string[]): OutCell[] => fields.map((f) => (r[f] ?? '') as OutCell);

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function randomFields(random: () => number): string[] {
  const chosen = OPTIONAL.filter(() => random() < 0.6);
  const fields = shuffled(['id', ...chosen], random);
  return fields.length > 1 ? fields : ['id', 'fullName'];
}

/** The sheet as Sheets reads it: a rectangle, without blank rows or columns past the last content. */
function trim(s: Sheet): void {
  const width = Math.max(0, ...s.cells.map((r) => r.length));
  for (const [r, row] of s.cells.entries()) {
    while (row.length < width) row.push('');
    while (s.origin[r].length < width) s.origin[r].push('');
  }
  const empty = (row: OutCell[]) => row.every(blank);
  while (s.cells.length && empty(s.cells[s.cells.length - 1])) {
    s.cells.pop();
    s.origin.pop();
  }
  while (s.cells.length && s.cells.every((row) => blank(row[row.length - 1]))) {
    for (const row of s.cells) row.pop();
    for (const row of s.origin) row.pop();
    if (s.cells[0].length === 0) {
      s.cells = [];
      s.origin = [];
    }
  }
}

/** The header row as merge finds it: the first row (of ten) whose cell in the id column reads "id". */
function headerRow(cells: OutCell[][], fields: ReadonlyArray<string | undefined>): number {
  const idCol = fields.indexOf('id');
  if (idCol < 0) return -1;
  return cells.slice(0, 10).findIndex((row) => !isFormula(row[idCol]) && norm(row[idCol] as string) === 'id');
}

/** Edits that hold nothing of the analyst's: a sort, a column moved, a row deleted, a blank row inserted, a value cleared. */
const HARMLESS = [9, 11, 7, 15, 10];

/** One random analyst edit (of `HARMLESS` only, when `harmless`); returns what it did. */
function edit(s: Sheet, random: () => number, k: number, harmless: boolean): string {
  const pick = (n: number) => Math.floor(random() * n);
  const width = Math.max(1, ...s.cells.map((r) => r.length));
  const h = Math.max(0, headerRow(s.cells, s.fields));
  const token = (): OutCell => {
    const x = random();
    return x < 0.5 ? `note ${k}` : x < 0.75 ? 1_000_000 + k : { formula: `=${k}+ROW()` };
  };
  const put = (r: number, c: number, v: OutCell, o: Origin = 'a') => {
    while (s.cells.length <= r) {
      s.cells.push([]);
      s.origin.push([]);
    }
    while (s.cells[r].length <= c) {
      s.cells[r].push('');
      s.origin[r].push('');
    }
    // A cell given the value it holds is unchanged: it keeps its origin.
    if (same(s.cells[r][c], v)) return;
    s.cells[r][c] = v;
    s.origin[r][c] = blank(v) ? '' : o;
  };
  const bodyRow = () => h + 1 + pick(Math.max(1, s.cells.length - h - 1));
  const importCols = () => s.fields.flatMap((f, c) => (f && c < width ? [c] : []));
  const insertColumn = (at: number) => {
    for (const [r, row] of s.cells.entries()) {
      while (row.length < at) row.push('');
      while (s.origin[r].length < at) s.origin[r].push('');
      row.splice(at, 0, '');
      s.origin[r].splice(at, 0, '');
    }
    while (s.fields.length < at) s.fields.push(undefined);
    s.fields.splice(at, 0, undefined);
  };
  const kind = harmless ? HARMLESS[pick(HARMLESS.length)] : pick(14);
  switch (kind) {
    case 15: {
      const at = h + 1 + pick(Math.max(1, s.cells.length - h - 1));
      s.cells.splice(at, 0, new Array<OutCell>(width).fill(''));
      s.origin.splice(at, 0, new Array<Origin>(width).fill(''));
      return `blank row inserted at r${at}`;
    }
    case 0:
    case 1: {
      const cols = importCols();
      if (!cols.length) return 'nothing';
      const [r, c] = [bodyRow(), cols[pick(cols.length)]];
      const v = token();
      put(r, c, v);
      return `typed ${show(v)} in import cell r${r} c${c}`;
    }
    case 2: {
      const at = pick(width + 1);
      insertColumn(at);
      put(h, at, `Notes ${k}`);
      for (let r = h + 1; r < s.cells.length + 1; r++) if (random() < 0.5) put(r, at, token());
      return `new column at c${at}`;
    }
    case 3: {
      const cols = s.fields.slice(0, width).flatMap((f, c) => (f ? [] : [c]));
      const c = cols.length ? cols[pick(cols.length)] : width;
      const r = bodyRow();
      const v = token();
      put(r, c, v);
      return `typed ${show(v)} in analyst cell r${r} c${c}`;
    }
    case 4: {
      const r = s.cells.length + pick(2);
      const c = pick(width + 1);
      put(r, c, token());
      if (random() < 0.5) put(r, pick(width), token());
      return `row below the table at r${r}`;
    }
    case 5: {
      const at = bodyRow();
      s.cells.splice(at, 0, new Array<OutCell>(width).fill(''));
      s.origin.splice(at, 0, new Array<Origin>(width).fill(''));
      if (random() < 0.7) put(at, pick(width), token());
      return `row inserted at r${at}`;
    }
    case 6: {
      if (h >= 8) return 'nothing';
      s.cells.unshift(new Array<OutCell>(width).fill(''));
      s.origin.unshift(new Array<Origin>(width).fill(''));
      put(0, pick(width), `Title ${k}`);
      return 'row above the header';
    }
    case 7: {
      if (s.cells.length <= h + 1) return 'nothing';
      const r = bodyRow();
      s.cells.splice(r, 1);
      s.origin.splice(r, 1);
      return `deleted row r${r}`;
    }
    case 8: {
      const c = pick(width);
      if (random() < 0.7 && !s.fields[c]) return 'nothing';
      for (const [r, row] of s.cells.entries()) {
        row.splice(c, 1);
        s.origin[r].splice(c, 1);
      }
      s.fields.splice(c, 1);
      return `deleted column c${c}`;
    }
    case 9: {
      const c = pick(width);
      const key = (row: OutCell[]) => (isFormula(row[c]) ? '' : String(row[c] ?? ''));
      const rows = s.cells.slice(h + 1).map((row, i) => ({ row, origin: s.origin[h + 1 + i] }));
      const sorted = [...rows].sort((a, b) => key(a.row).localeCompare(key(b.row)));
      if (random() < 0.5) sorted.reverse();
      s.cells.splice(h + 1, rows.length, ...sorted.map((x) => x.row));
      s.origin.splice(h + 1, rows.length, ...sorted.map((x) => x.origin));
      return `sorted rows by c${c}`;
    }
    case 10: {
      // A value cleared (when harmless, not an id or a header: the cells beside those would read as other cells).
      const idCol = s.fields.indexOf('id');
      const cols = harmless ? importCols().filter((c) => c !== idCol) : [pick(width)];
      if (!cols.length) return 'nothing';
      const [r, c] = [harmless ? bodyRow() : pick(s.cells.length), cols[pick(cols.length)]];
      if (!s.cells[r]) return 'nothing';
      put(r, c, '');
      return `cleared r${r} c${c}`;
    }
    case 11: {
      const [from, to] = [pick(width), pick(width)];
      for (const [r, row] of s.cells.entries()) {
        row.splice(to, 0, ...row.splice(from, 1));
        s.origin[r].splice(to, 0, ...s.origin[r].splice(from, 1));
      }
      while (s.fields.length < width) s.fields.push(undefined);
      s.fields.splice(to, 0, ...s.fields.splice(from, 1));
      return `moved column c${from} to c${to}`;
    }
    case 12: {
      // A value copied (the partner's name, say) to another cell: the copy is the analyst's.
      const [r, c] = [bodyRow(), pick(width)];
      const from = s.cells[r]?.[c];
      if (blank(from) || isFormula(from)) return 'nothing';
      const [r2, c2] = [bodyRow(), pick(width + 1)];
      if (r2 === r && c2 === c) return 'nothing';
      put(r2, c2, from as OutCell);
      return `copied r${r} c${c} to r${r2} c${c2}`;
    }
    default: {
      // An id typed by hand: another partner's, or one of the analyst's own.
      const idCol = s.fields.indexOf('id');
      if (idCol < 0) return 'nothing';
      const r = s.cells.length + pick(2);
      const id = random() < 0.5 ? `lp-${pick(14)}` : `mine-${k}`;
      put(r, idCol, id);
      if (random() < 0.7) put(r, pick(width + 1), token());
      return `typed id ${id} at r${r}`;
    }
  }
}

/** Each cell as (its row's id, its column's header, its content), the header the first row's. */
function triples(cells: OutCell[][]): string[][] {
  const idCol = (cells[0] ?? []).findIndex((h) => !isFormula(h) && norm(h as string) === 'id');
  return cells.map((row) => row.map((c, k) => JSON.stringify([row[idCol] ?? '', cells[0][k] ?? '', c])));
}

const copy = <T>(v: T): T => structuredClone(v);

function drive(w: World, force: boolean): string {
  let step = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000, { force });
  for (let i = 0; step.status === 'running' && i < 50; i++)
    step = continueRun('imp1', w.nextExecution(), w.clock.t + 60_000);
  return step.status;
}

/** The list between runs: partners gone, new ones, values edited. */
function changeList(items: ServiceRecord[], version: number, random: () => number): ServiceRecord[] {
  const kept = items.filter(() => random() < 0.8);
  const added = shuffled(
    Array.from({ length: 14 }, (_, k) => k).filter((k) => !kept.some((r) => r.id === `lp-${k}`)),
    random,
  ).slice(0, Math.floor(random() * 4));
  return [
    ...kept.map((r) => (random() < 0.4 ? partner(Number(String(r.id).slice(3)), version, random) : r)),
    ...added.map((k) => partner(k, version, random)),
  ];
}

/**
 * One scenario: a first run, then once or twice random edits, the list (and perhaps the fields)
 * changed and another run (`runs` forces the modes after the first); what it broke.
 */
export function analystScenario(seed: number, runs?: LaterRun[]): Scenario {
  const random = mulberry32(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const firstMode = random() < 0.5 ? 'replace' : 'merge';
  const modes: LaterRun[] =
    runs ?? Array.from({ length: 1 + pick(2) }, () => (['replace', 'merge', 'force'] as const)[pick(3)]);
  const ids = shuffled(
    Array.from({ length: 12 }, (_, k) => k),
    random,
  ).slice(0, pick(8));
  const list = fakeList(ids.map((k) => partner(k, 1, random)));
  const spec: ImportSpec = { id: 'imp1', sheetName: SHEET, fields: randomFields(random), mode: firstMode };
  const w = world(list.fetch, [spec]);
  const other: OutCell[][] = [
    ['Budget', 'Q1'],
    ['lp-1', { formula: '=Partners!B2' }],
  ];
  w.tables.set(OTHER, copy(other));
  const scenario: Scenario = { seed, last: modes[0], status: '', edits: [], broken: [], notes: [], analystCells: 0 };
  const { broken, notes, edits } = scenario;
  if (drive(w, false) !== 'done') broken.push('the first run did not complete');
  const first = w.tables.get(SHEET) ?? [];
  const s: Sheet = {
    cells: copy(first),
    origin: first.map((row) => row.map((c) => (blank(c) ? '' : 'i'))),
    fields: [...(w.columns.get(SHEET) ?? [])],
  };
  // What the import wrote for a partner under a header: a copy of it typed by the analyst is the import's data (an id
  // typed again in a new row after its row was deleted, say), written anew by a replace.
  const wrote = new Set(triples(first).flat());
  modes.forEach((mode, run) => {
    const harmless = random() < 0.3;
    for (let k = 0, n = 1 + pick(6); k < n; k++) edits.push(edit(s, random, 10 * run + k, harmless));
    trim(s);
    w.tables.set(SHEET, copy(s.cells));
    w.columns.set(SHEET, [...s.fields]);
    list.items = changeList(list.items, run + 2, random);
    if (random() < 0.3) edits.push(`fields ${((w.specs[0].fields = randomFields(random))).join(',')}`);
    w.specs[0].mode = mode === 'merge' ? 'merge' : 'replace';
    edits.push(`run ${mode}`);
    const fields = w.specs[0].fields;
    const before = { cells: copy(s.cells), fields: [...s.fields], tag: copy(w.tags.get(SHEET)) };
    const changesBefore = w.changeLog.length;
    const wroteRows = new Set<number>();
    const status = drive(w, mode === 'force');
    const after = { cells: w.tables.get(SHEET) ?? [], fields: w.columns.get(SHEET) ?? [], tag: w.tags.get(SHEET) };
    const message = String(w.runs.get('imp1')?.message ?? '');
    const typed = triples(s.cells);
    const analystCells: Array<[number, number]> = [];
    s.origin.forEach((row, r) => {
      row.forEach((o, c) => {
        if (o === 'a' && !blank(s.cells[r][c]) && !wrote.has(typed[r][c])) analystCells.push([r, c]);
      });
    });
    [scenario.last, scenario.status, scenario.analystCells] = [mode, status, analystCells.length];
    if (mode === 'replace' && harmless && !analystCells.length && status !== 'done')
      notes.push(`refused after harmless edits: ${message}`);
    if (!same(w.tables.get(OTHER), other)) broken.push('another sheet was changed');
    // A replace writes the new list under the header the analyst named on the header row (a column of the import
    // reads "id" there), unless it is exactly another field's name while that field's column reads otherwise (a
    // column moved without its record).
    const onHeader = before.fields.some((f, c) => f && norm(before.cells[0]?.[c] as string) === 'id');
    const headerRow = onHeader ? before.cells[0] : [];
    const headerOf = (f: string) => headerRow[before.fields.indexOf(f)];
    const named = (h: OutCell | undefined, f: string) =>
      !blank(h) &&
      (typeof h !== 'object' || h instanceof Date) &&
      !fields.some((other) => other !== f && h === other && headerOf(other) !== undefined && headerOf(other) !== other);
    const header = fields
      .map((f) => headerRow[before.fields.indexOf(f)])
      .map((h, k) => (named(h, fields[k]) ? h : fields[k]));
    const fresh = [header, ...list.items.map((r) => rowOf(r, fields))];
    if (status === 'failed') {
      if (!same(after.cells, before.cells)) broken.push(`refused (${message}) but the sheet changed`);
      if (!same(after.fields, before.fields)) broken.push('refused but the column record changed');
      if (!same(after.tag, before.tag)) broken.push('refused but the tag changed');
      return;
    }
    if (status !== 'done') broken.push(`run ${run + 2} ended ${status}: ${message}`);
    else if (mode !== 'merge') {
      if (!same(after.cells, fresh)) broken.push('the replaced table is not the new list');
      if (mode === 'replace')
        for (const [r, c] of analystCells)
          broken.push(`replace completed but lost the analyst's ${show(s.cells[r][c])} (r${r} c${c})`);
      if (mode === 'force' && analystCells.length && !message.includes('Replaced anyway: overwrote'))
        broken.push(`Replace anyway overwrote ${analystCells.length} analyst cells without saying so: "${message}"`);
    } else {
      const rows = checkMerge(before, after, s.origin, fields, list.items, w.changeLog.slice(changesBefore), broken);
      rows.forEach((r) => {
        wroteRows.add(r);
      });
    }
    // The sheet as the run left it: a cell a merge kept as it was, outside the import's columns of the rows it wrote,
    // keeps its origin; every other is the import's.
    const kept = (r: number, k: number) =>
      mode === 'merge' && same(after.cells[r][k], before.cells[r]?.[k]) && !(wroteRows.has(r) && after.fields[k]);
    const origin = after.cells.map((row, r) =>
      row.map((c, k): Origin => (blank(c) ? '' : kept(r, k) ? s.origin[r][k] : 'i')),
    );
    [s.cells, s.origin, s.fields] = [copy(after.cells), origin, [...after.fields]];
    triples(s.cells).forEach((row, r) => {
      row.forEach((t, c) => {
        if (origin[r][c] === 'i') wrote.add(t);
      });
    });
  });
  return scenario;
}

/**
 * Merge by id's promises, from the sheet before and after, each cell's origin, the new list and the change log; returns
 * the rows of the sheet before that are a listed partner's (the rows the merge writes).
 */
function checkMerge(
  before: { cells: OutCell[][]; fields: Array<string | undefined> },
  after: { cells: OutCell[][]; fields: Array<string | undefined> },
  origin: Origin[][],
  fields: readonly string[],
  items: readonly ServiceRecord[],
  changes: ReadonlyArray<ReadonlyArray<unknown>>,
  broken: string[],
): number[] {
  const cells = before.cells;
  const width = Math.max(0, ...cells.map((r) => r.length));
  if (cells.every((row) => row.every(blank))) {
    if (!same(after.cells, [fields, ...items.map((r) => rowOf(r, fields))]))
      broken.push('a blank sheet did not get the new table');
    return [];
  }
  const h = headerRow(cells, before.fields);
  if (h < 0) {
    broken.push('merged a sheet whose id column or header is gone');
    return [];
  }
  const idCol = before.fields.indexOf('id');
  const columns: Array<string | undefined> = Array.from({ length: width }, (_, c) =>
    fields.includes(before.fields[c] as string) ? before.fields[c] : undefined,
  );
  for (const f of fields) if (!columns.includes(f)) columns.push(f);
  if (!same(after.fields, columns)) broken.push(`column record ${show(after.fields)} is not ${show(columns)}`);
  const idOf = (row: OutCell[] | undefined) => (isFormula(row?.[idCol]) ? '0' : String(row?.[idCol] ?? ''));
  const listed = new Map(items.map((r) => [String(r.id), r]));
  const seen = new Set<string>();
  const partners: number[] = [];
  cells.forEach((row, r) => {
    const now = after.cells[r] ?? [];
    const id = idOf(row);
    const first = r > h && !!id && !seen.has(id);
    if (r > h && id) seen.add(id);
    const record = first ? listed.get(id) : undefined;
    if (record) partners.push(r);
    for (let c = 0; c < width; c++) {
      const f = columns[c];
      const at = `r${r} c${c}`;
      if (r === h && f && blank(row[c])) {
        if (!same(now[c], f))
          broken.push(`the blank header of ${f} (${at}) became ${show(now[c])}, not its field's name`);
        continue;
      }
      if (record && f && !isFormula(row[c])) {
        const value = (record[f] ?? '') as OutCell;
        if (!same(now[c], value)) broken.push(`${id}'s ${f} (${at}) is ${show(now[c])}, not ${show(value)}`);
        if (
          origin[r][c] === 'a' &&
          !same(row[c], value) &&
          !changes.some((e) => e[2] === id && e[4] === f && same(e[5] as OutCell, row[c]))
        )
          broken.push(`the analyst's ${show(row[c])} in ${id}'s ${f} (${at}) was overwritten and not logged`);
        continue;
      }
      if (!same(now[c], row[c]))
        broken.push(
          `${origin[r][c] === 'a' ? "the analyst's" : 'the'} ${show(row[c])} at ${at} (row of ${id || 'no id'}) became ${show(now[c])}`,
        );
    }
  });
  const appended = after.cells.slice(cells.length);
  const missing = items.filter((r) => !seen.has(String(r.id)));
  if (
    !same(
      appended,
      missing.map((r) => columns.map((f) => (f ? ((r[f] ?? '') as OutCell) : ''))),
    )
  )
    broken.push(`rows appended ${show(appended)} are not the new partners ${missing.map((r) => r.id).join(',')}`);
  return partners;
}

/**
 * A table typed by hand (a title above it at times, a notes column, partners' rows, a row without
 * an id, a TOTAL row, formulas), which the analyst lets the import own, then a replace or a merge
 * by id: what it broke. The import owns, in the columns headed like its fields, the header and the
 * partners' rows without their formulas; a replace that completes must have found nothing else,
 * and a refused run changes nothing.
 */
export function adoptedScenario(seed: number): { mode: string; status: string; broken: string[] } {
  const random = mulberry32(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const fields = shuffled(['id', 'fullName', 'firm'], random);
  const headers = [...fields];
  if (random() < 0.3) headers.splice(pick(headers.length + 1), 0, 'Notes');
  const h = random() < 0.3 ? 1 : 0;
  const cells: OutCell[][] = h ? [headers.map((_, c) => (c ? '' : 'Fund III'))] : [];
  cells.push([...headers]);
  for (let i = 0, n = pick(5); i < n; i++) {
    const id = random() < 0.15 ? '' : `lp-${pick(6)}`;
    cells.push(
      headers.map((name): OutCell => {
        if (name === 'id') return id;
        if (name === 'Notes') return random() < 0.5 ? `note ${i}` : '';
        return random() < 0.2 ? { formula: `=${i}+1` } : `${name} ${i}`;
      }),
    );
  }
  if (random() < 0.3) cells.push(headers.map((name) => (name === 'fullName' ? 'Total' : '')));
  const idCol = headers.indexOf('id');
  const owned = (r: number, c: number) =>
    headers[c] !== 'Notes' && !isFormula(cells[r][c]) && (r === h || (r > h && cells[r][idCol] !== ''));
  const theirs = cells.flatMap((row, r) => row.flatMap((v, c) => (blank(v) || owned(r, c) ? [] : [`r${r} c${c}`])));
  const items = Array.from({ length: pick(4) }, (_, k) => partner(k, 1, random));
  const mode = random() < 0.5 ? 'replace' : 'merge';
  const w = world(fakeList(items).fetch, [{ id: 'imp1', sheetName: SHEET, fields, mode }]);
  w.tables.set(SHEET, copy(cells));
  adoptTable('imp1', w.nextExecution());
  const status = drive(w, false);
  const broken: string[] = [];
  if (status !== 'done' && !same(w.tables.get(SHEET), cells)) broken.push(`refused but the sheet changed`);
  if (mode === 'replace' && status === 'done' && theirs.length)
    broken.push(`replace of the adopted table dropped the analyst's ${theirs.join(', ')}`);
  return { mode, status, broken };
}
