/**
 * The import state machine's promises over small random imports (test/helpers/random-import.ts):
 * lists of 0 to 13 pages, any request refused for now (page 1 included), steps of 6 to 20 s.
 * Whatever the draw, the run ends done with the list in the table, no step runs past its budget,
 * no page is answered twice (every request is a page's first or follows a refusal of that page),
 * and staging is gone; a list that moves under the read ends as it was at one moment, never a mix.
 * A few seeds here (fast enough for mutation testing); the seed sweeps
 * (machine-sweeps.test.ts) run hundreds more.
 */
import { firstBroken } from '../../helpers/random-import';

test('random refusals, page 1 included: every import ends done with the list, within its steps, each page answered once (seeds 1-30)', () => {
  expect(firstBroken(1, 30)).toBeUndefined();
});

test('short lists whose page 1 comes late, pages read ahead of it kept across steps: the same promises (seeds 1-60)', () => {
  expect(firstBroken(1, 60, { pages: 4, pageOneLate: true })).toBeUndefined();
});

test('short live lists (partners added or removed while the first pages are read): each table is the list as it was at one moment (seeds 1-40)', () => {
  expect(firstBroken(1, 40, { pages: 4, live: true })).toBeUndefined();
});

test('executions killed while a page is fetched: each import still ends done with the list, its sheet untouched until then (seeds 1-30)', () => {
  expect(firstBroken(1, 30, { kills: true, pages: 4, pageOneLate: true })).toBeUndefined();
});

test('a shared snapshot, live lists, executions killed: what an import publishes is its table, partner for partner (seeds 1-30)', () => {
  expect(firstBroken(1, 30, { snapshot: true, kills: true, live: true })).toBeUndefined();
});
