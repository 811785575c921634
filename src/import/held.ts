/**
 * Pages of the list that arrived ahead of their turn. The cursor (src/api/pages.ts) takes pages
 * in order only, but a rate-limited page must not hold back the pages after it: those are held
 * until the missing page comes. At the end of a step, held pages whose place in the staging area
 * is known are written there at that place: by the cursor's shape (every page before them full,
 * the list steady), or before page 1 is in by the shape the held pages show (all were asked with
 * the same limit, and a page that could be the last one does not tell the size alone). Pages read
 * back are the service's answers whatever shape placed them: page 1 takes them as they are unless
 * it shows another total (an older list's, read again). The run keeps a compact note
 * of them and of the pages the service asked to wait for (Retry-After), so the next step, a new
 * execution, carries on without asking for them again and without asking for a page before its
 * time. Pure: the machine does the reading and writing.
 */
import { ServiceError } from '../api/errors';
import { type ListCursor, noSuchPage } from '../api/pages';
import type { Page, ServiceRecord } from '../api/records';
import type { Cell } from '../table/cells';

/** A page that came ahead of its turn: its records and rows, or a refusal (the page past the end). */
export type Held = { page: Page<ServiceRecord>; rows: Cell[][] } | { refused: ServiceError };

/** Where pages sit: items a full page holds, the list's total and its last page holding items. */
export type Shape = Pick<ListCursor, 'size' | 'totalItems' | 'lastPage'>;

const shapeFor = (size: number, totalItems: number): Shape => ({
  size,
  totalItems,
  lastPage: Math.ceil(totalItems / size),
});

/** Whether held page `p` is where shape `s` puts it: as long as its place, with the list's total. */
function fits(s: Shape, p: number, h: Held): boolean {
  return 'page' in h && h.page.items.length === expectedRows(s, p) && h.page.pagination.totalItems === s.totalItems;
}

/**
 * The shape held pages show before page 1 is in (all were asked for with `limit`): the one that
 * puts the most of them at their place (a refusal past its end), `placed` (the shape they were
 * placed by in staging) first. A page holding items before another one that does is full, so it
 * tells the size; a lone one may as well be the last page, and pages that hold none may all lie
 * past a list of one page (the limit's): each reading is tried against every held page, so a page
 * that could be the last one never sets the size alone. Undefined while none places any.
 */
export function provisionalShape(held: ReadonlyMap<number, Held>, limit: number, placed?: Shape): Shape | undefined {
  const pages = [...held].flatMap(([p, h]) =>
    'page' in h ? [{ p, n: h.page.items.length, total: h.page.pagination.totalItems }] : [],
  );
  const holding = pages.filter((x) => x.n > 0).sort((a, b) => a.p - b.p);
  const readings: Shape[] = placed ? [placed] : [];
  if (holding.length > 1) readings.push(shapeFor(holding[0].n, holding[0].total));
  else if (holding.length === 1) {
    const { p, n, total } = holding[0];
    readings.push(shapeFor(n, total));
    // As the last page: the pages before it share the rest, each at least as long as it.
    const before = (total - n) / (p - 1);
    if (Number.isInteger(before) && before >= n) readings.push(shapeFor(before, total));
  } else if (pages.length && limit > 0) readings.push(shapeFor(limit, pages[0].total));
  let best: Shape | undefined;
  let most = 0;
  for (const s of readings) {
    const n = [...held].filter(([p, h]) => ('page' in h ? fits(s, p, h) : p > s.lastPage)).length;
    if (n > most) [best, most] = [s, n];
  }
  return best;
}

/** Whether two shapes (or their absence) place every page alike. */
export const sameShape = (a: Shape | undefined, b: Shape | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.size === b.size && a.totalItems === b.totalItems);

/** The shape pages are placed by: the cursor's once page 1 is in, before that the held pages' (`placed`: see provisionalShape). */
export function shapeOf(c: ListCursor, held: ReadonlyMap<number, Held>, placed?: Shape): Shape | undefined {
  return c.started ? c : provisionalShape(held, c.limit, placed);
}

/**
 * Saved with the run. From page `from` on, one mark per page: `h` held in staging at its place,
 * `x` refused as no such page (404 or 400; it has no rows), `w` asked for and refused for now (not
 * to be asked for again before its own time in `at`), `.` not in yet.
 */
export interface HeldNote {
  from: number;
  marks: string;
  /** The latest of the waits (all a note saved before `at` existed has). */
  until: number;
  /** The not-before time of each `w` mark, in order: each page waits for its own Retry-After, not the longest one. */
  at?: number[];
  /** Before page 1 is in: the shape the `h` pages were placed by. */
  shape?: Shape;
}

/** The rows page `page` holds when the cursor's checks pass: full pages, then the rest, then none (the page after the last). */
export function expectedRows(s: Shape, page: number): number {
  if (page < s.lastPage) return s.size;
  if (page === s.lastPage) return s.totalItems - (s.lastPage - 1) * s.size;
  return 0;
}

/**
 * Whether pages can sit at their final place in staging: list steady and `staged` rows = the pages
 * taken in (page size known; before page 1, nothing staged).
 */
export function placeable(c: ListCursor, staged: number): boolean {
  if (!c.started) return staged === 0;
  return !c.changed && c.problem === undefined && c.size > 0 && staged === (c.nextPage - 1) * c.size;
}

const lastWanted = (c: ListCursor): number => (c.started ? c.lastPage + (c.probe ? 1 : 0) : Number.POSITIVE_INFINITY);

/**
 * The held pages that can be kept for the next step: each exactly as long as its place, with the
 * list's total. Before page 1, that includes the empty pages past the end the shape gives: the
 * service said they hold nothing, and page 1 checks them against the total it shows.
 */
export function keepable(c: ListCursor, shape: Shape | undefined, held: ReadonlyMap<number, Held>): number[] {
  const out: number[] = [];
  for (const [p, h] of held) {
    if (shape && p >= c.nextPage && p <= lastWanted(c) && fits(shape, p, h)) out.push(p);
  }
  return out.sort((a, b) => a - b);
}

/** The held pages the service said it does not have (see noSuchPage): kept in the note as such. */
export function gonePages(held: ReadonlyMap<number, Held>): number[] {
  return [...held].flatMap(([p, h]) => ('refused' in h && noSuchPage(h.refused) ? [p] : []));
}

/** The note for the next step (`gone`: pages refused as no such page), or undefined when nothing is held or waiting. */
export function noteHeld(
  c: ListCursor,
  shape: Shape | undefined,
  kept: readonly number[],
  waits: ReadonlyMap<number, number>,
  gone: readonly number[] = [],
): HeldNote | undefined {
  const waiting = [...waits.keys()].filter((p) => p >= c.nextPage);
  const last = Math.max(0, ...kept, ...waiting, ...gone);
  if (last < c.nextPage) return undefined;
  const keptSet = new Set(kept);
  const goneSet = new Set(gone);
  let marks = '';
  const mark = (p: number) => (keptSet.has(p) ? 'h' : goneSet.has(p) ? 'x' : waits.has(p) ? 'w' : '.');
  for (let p = c.nextPage; p <= last; p++) marks += mark(p);
  const at = [...marks].flatMap((m, k) => (m === 'w' ? [waits.get(c.nextPage + k) as number] : []));
  const note: HeldNote = { from: c.nextPage, marks, until: Math.max(0, ...at), at };
  return !c.started && kept.length && shape ? { ...note, shape: { ...shape } } : note;
}

/** Staging rows from the cursor's next page to the last kept page: each kept page's rows, blank rows for the others. */
export function heldRows(
  c: ListCursor,
  shape: Shape | undefined,
  kept: readonly number[],
  held: ReadonlyMap<number, Held>,
  width: number,
): Cell[][] {
  if (!kept.length || !shape) return [];
  const rows: Cell[][] = [];
  for (let p = c.nextPage; p <= kept[kept.length - 1]; p++) {
    const h = held.get(p);
    if (h && 'rows' in h && kept.includes(p)) rows.push(...h.rows);
    else for (let k = 0; k < expectedRows(shape, p); k++) rows.push(new Array<Cell>(width).fill(''));
  }
  return rows;
}

/**
 * How many staging rows after `staged` the note's held pages need read back: up to the last held
 * page holding rows (staging is only as long as what was written; a held page past the end has none).
 */
export function heldSpan(s: Shape, note: HeldNote): number {
  let n = 0;
  let span = 0;
  for (let k = 0; k < note.marks.length; k++) {
    const rows = expectedRows(s, note.from + k);
    n += rows;
    if (note.marks[k] === 'h' && rows > 0) span = n;
  }
  return span;
}

/**
 * The held pages and waits of a note, back from the staging rows after `staged` (`rows`, heldSpan
 * of them). A page's records are rebuilt from its id column: enough for the cursor's checks; a
 * page the service does not have comes back as its refusal.
 */
export function restoreHeld(
  s: Shape | undefined,
  note: HeldNote,
  rows: readonly Cell[][],
  idCol: number,
): { held: Map<number, Held>; waits: Map<number, number> } {
  const held = new Map<number, Held>();
  const waits = new Map<number, number>();
  let at = 0;
  let w = 0;
  for (let k = 0; k < note.marks.length; k++) {
    const p = note.from + k;
    const n = s ? expectedRows(s, p) : 0;
    if (note.marks[k] === 'w') waits.set(p, note.at?.[w++] ?? note.until);
    if (note.marks[k] === 'x')
      held.set(p, { refused: new ServiceError('NOT_FOUND', `The data service has no page ${p}.`) });
    if (s && note.marks[k] === 'h' && (n === 0 || at + n <= rows.length)) {
      const mine = rows.slice(at, at + n).map((r) => [...r]);
      const items = mine.map((r): ServiceRecord => ({ id: String(r[idCol]) }));
      const pagination = { totalItems: s.totalItems, totalPages: s.lastPage, currentPage: p, pageSize: s.size };
      held.set(p, { rows: mine, page: { items, pagination } });
    }
    at += n;
  }
  return { held, waits };
}
