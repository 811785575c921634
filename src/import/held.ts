/**
 * Pages of the list that arrived ahead of their turn. The cursor (src/api/pages.ts) takes pages
 * in order only, but a rate-limited page must not hold back the pages after it: those are held
 * until the missing page comes. Pages after page 1 only: page 1 tells the page size and the total,
 * so every page has its place in the staging area, and a step writes the pages it read there at
 * that place. The run keeps a compact note of the held pages and of the pages the service asked
 * to wait for (Retry-After), so the next step, a new execution, reads them back instead of asking
 * for them again, and asks for no page before its time. Pure: the machine reads and writes.
 */
import { ServiceError } from '../api/errors';
import { type ListCursor, noSuchPage } from '../api/pages';
import { idProblem, type Page, type ServiceRecord } from '../api/records';
import type { Cell } from '../table/cells';

/** A page that came ahead of its turn: its records and rows, or a refusal (the page past the end). */
export type Held = { page: Page<ServiceRecord>; rows: Cell[][] } | { refused: ServiceError };

/** Where pages sit: items a full page holds, the list's total and its last page holding items. */
export type Shape = Pick<ListCursor, 'size' | 'totalItems' | 'lastPage'>;

/**
 * Saved with the run. From page `from` on, one mark per page: `h` held in staging at its place,
 * `x` refused as no such page (404 or 400; it has no rows), `w` asked for and refused for now (not
 * to be asked for again before its own time in `at`), `.` not in yet.
 */
export interface HeldNote {
  from: number;
  marks: string;
  /** The not-before time of each `w` mark, in order: each page waits for its own Retry-After, not the longest one. */
  at: number[];
}

/** The rows page `page` holds when the cursor's checks pass: full pages, then the rest, then none (the page after the last). */
export function expectedRows(s: Shape, page: number): number {
  if (page < s.lastPage) return s.size;
  if (page === s.lastPage) return s.totalItems - (s.lastPage - 1) * s.size;
  return 0;
}

/**
 * The held pages that can be kept for the next step: those the cursor will still ask for, each
 * exactly as long as its place, with the list's total.
 */
export function keepable(c: ListCursor, held: ReadonlyMap<number, Held>): number[] {
  const out: number[] = [];
  for (const [p, h] of held) {
    const fits =
      'page' in h && h.page.items.length === expectedRows(c, p) && h.page.pagination.totalItems === c.totalItems;
    if (fits && p >= c.nextPage && p <= c.lastPage + (c.probe ? 1 : 0)) out.push(p);
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
  return { from: c.nextPage, marks, at };
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

/** The pages a note says wait, each with its not-before time. */
export function noteWaits(note: HeldNote): Map<number, number> {
  let w = 0;
  return new Map([...note.marks].flatMap((m, k) => (m === 'w' ? [[note.from + k, note.at[w++]]] : [])));
}

/**
 * The held pages of a note, back from the staging rows after `staged` (`rows`, heldSpan of them;
 * none before page 1, when a note holds waits only). A page's records are rebuilt from its id
 * column: enough for the cursor's checks; a page the service does not have comes back as its refusal.
 */
export function restoreHeld(s: Shape, note: HeldNote, rows: readonly Cell[][], idCol: number): Map<number, Held> {
  const held = new Map<number, Held>();
  let at = 0;
  for (let k = 0; k < note.marks.length; k++) {
    const p = note.from + k;
    const n = expectedRows(s, p);
    if (note.marks[k] === 'x')
      held.set(p, { refused: new ServiceError('NOT_FOUND', `The data service has no page ${p}.`) });
    if (note.marks[k] === 'h' && (n === 0 || at + n <= rows.length)) {
      const mine = rows.slice(at, at + n).map((r) => [...r]);
      // A row without a usable id brings its cells: the page's signature knows such a record by its fields.
      const items = mine.map((r): ServiceRecord => {
        const id = String(r[idCol]);
        return idProblem(id) ? { id, cells: r.map(String) } : { id };
      });
      const pagination = { totalItems: s.totalItems, totalPages: s.lastPage, currentPage: p, pageSize: s.size };
      held.set(p, { rows: mine, page: { items, pagination } });
    }
    at += n;
  }
  return held;
}
