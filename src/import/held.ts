/**
 * Pages of the list that arrived ahead of their turn. The cursor (src/api/pages.ts) takes pages
 * in order only, but a rate-limited page must not hold back the pages after it: those are held
 * until the missing page comes. At the end of a step, held pages whose place in the staging area
 * is certain (every page before them is full, the list did not move) are written there at that
 * place, and the run keeps a compact note of them and of the pages the service asked to wait for
 * (Retry-After), so the next step, a new execution, carries on without asking for them again
 * and without asking for a page before its time. Pure: the machine does the reading and writing.
 */
import type { ServiceError } from '../api/errors';
import type { ListCursor } from '../api/pages';
import type { Page, ServiceRecord } from '../api/records';
import type { Cell } from '../table/cells';

/** A page that came ahead of its turn: its records and rows, or a refusal (the page past the end). */
export type Held = { page: Page<ServiceRecord>; rows: Cell[][] } | { refused: ServiceError };

/**
 * Saved with the run. From page `from` on, one mark per page: `h` held in staging at its place,
 * `w` asked for and refused for now (not to be asked for again before its own time in `at`), `.` not in yet.
 */
export interface HeldNote {
  from: number;
  marks: string;
  /** The latest of the waits (all a note saved before `at` existed has). */
  until: number;
  /** The not-before time of each `w` mark, in order: each page waits for its own Retry-After, not the longest one. */
  at?: number[];
}

/** The rows page `page` holds when the cursor's checks pass: full pages, then the rest, then none (the page after the last). */
export function expectedRows(c: ListCursor, page: number): number {
  if (page < c.lastPage) return c.size;
  if (page === c.lastPage) return c.totalItems - (c.lastPage - 1) * c.size;
  return 0;
}

/** Whether pages can sit at their final place in staging: page size known, list steady, `staged` rows = the pages taken in. */
export function placeable(c: ListCursor, staged: number): boolean {
  return c.started && !c.changed && c.problem === undefined && c.size > 0 && staged === (c.nextPage - 1) * c.size;
}

const lastWanted = (c: ListCursor): number => c.lastPage + (c.probe ? 1 : 0);

/** The held pages that can be kept for the next step: each exactly as long as its place, with the list's total. */
export function keepable(c: ListCursor, held: ReadonlyMap<number, Held>): number[] {
  const out: number[] = [];
  for (const [p, h] of held) {
    if (p < c.nextPage || p > lastWanted(c) || !('page' in h)) continue;
    if (h.page.items.length === expectedRows(c, p) && h.page.pagination.totalItems === c.totalItems) out.push(p);
  }
  return out.sort((a, b) => a - b);
}

/** The note for the next step, or undefined when nothing is held or waiting. */
export function noteHeld(c: ListCursor, kept: readonly number[], waits: ReadonlyMap<number, number>): HeldNote | undefined {
  const waiting = [...waits.keys()].filter((p) => p >= c.nextPage);
  const last = Math.max(0, ...kept, ...waiting);
  if (last < c.nextPage) return undefined;
  const keptSet = new Set(kept);
  let marks = '';
  for (let p = c.nextPage; p <= last; p++) marks += keptSet.has(p) ? 'h' : waits.has(p) ? 'w' : '.';
  const at = [...marks].flatMap((m, k) => (m === 'w' ? [waits.get(c.nextPage + k) as number] : []));
  return { from: c.nextPage, marks, until: Math.max(0, ...at), at };
}

/** Staging rows from the cursor's next page to the last kept page: each kept page's rows, blank rows for the others. */
export function heldRows(c: ListCursor, kept: readonly number[], held: ReadonlyMap<number, Held>, width: number): Cell[][] {
  if (!kept.length) return [];
  const rows: Cell[][] = [];
  for (let p = c.nextPage; p <= kept[kept.length - 1]; p++) {
    const h = held.get(p);
    if (h && 'rows' in h && kept.includes(p)) rows.push(...h.rows);
    else for (let k = 0; k < expectedRows(c, p); k++) rows.push(new Array<Cell>(width).fill(''));
  }
  return rows;
}

/** How many staging rows after `staged` the note's held pages need read back. */
export function heldSpan(c: ListCursor, note: HeldNote): number {
  const last = note.from + note.marks.lastIndexOf('h');
  let n = 0;
  for (let p = note.from; p <= last; p++) n += expectedRows(c, p);
  return n;
}

/**
 * The held pages and waits of a note, back from the staging rows after `staged` (`rows`, heldSpan
 * of them). A page's records are rebuilt from its id column: enough for the cursor's checks.
 */
export function restoreHeld(c: ListCursor, note: HeldNote, rows: readonly Cell[][], idCol: number): { held: Map<number, Held>; waits: Map<number, number> } {
  const held = new Map<number, Held>();
  const waits = new Map<number, number>();
  let at = 0;
  let w = 0;
  for (let k = 0; k < note.marks.length; k++) {
    const p = note.from + k;
    const n = expectedRows(c, p);
    if (note.marks[k] === 'w') waits.set(p, note.at?.[w++] ?? note.until);
    if (note.marks[k] === 'h' && at + n <= rows.length) {
      const mine = rows.slice(at, at + n).map((r) => [...r]);
      const items = mine.map((r): ServiceRecord => ({ id: String(r[idCol]) }));
      held.set(p, { rows: mine, page: { items, pagination: { totalItems: c.totalItems, totalPages: c.lastPage, currentPage: p, pageSize: c.size } } });
    }
    at += n;
  }
  return { held, waits };
}
