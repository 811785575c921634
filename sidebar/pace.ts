/**
 * How the sidebar paces an import's steps, so that its progress bar moves every second or two: the
 * first step reads FIRST_PAGES (it tells the total, so the bar shows "page 1 of n" at once), each
 * later one as many pages as the last step's pace fits in STEP_TARGET_MS. The benchmarks drive
 * imports with the same rule (test/helpers/imports.ts, paceImport).
 */

/** Pages the first step of a run reads. */
export const FIRST_PAGES = 1;
/** Pages the second step reads, before any pace is known. */
export const SECOND_PAGES = 2;
/** How long a step should take, as the sidebar sees it (the call included): the bar moves at least this often. */
export const STEP_TARGET_MS = 1500;
/** The most pages a step asks for (a round of the server's reads). */
export const MOST_PAGES = 20;

/**
 * The pages the next step may read: as many as the last step's pace (`read` pages in `ms`) fits in
 * STEP_TARGET_MS, 1 to MOST_PAGES, so the bar moves every second or two on a slow service and a
 * fast one is not slowed by short steps; `pages` again when the last step read none.
 */
export function nextPages(pages: number, read: number, ms: number): number {
  if (read <= 0) return pages;
  return Math.max(1, Math.min(MOST_PAGES, Math.floor((read * STEP_TARGET_MS) / Math.max(1, ms))));
}
