/** A log row lands under its own column names on a log sheet whose header is of an earlier layout. */
import { logLayout } from '../../../src/table/log-layout';

const NOW = ['Started', 'Outcome', 'Read', 'Kept', 'Message'];

test('the same header: the row as it is, nothing added', () => {
  const layout = logLayout(NOW, NOW);
  expect(layout.added).toEqual([]);
  expect(layout.place(['t', 'done', 5, 3, 'ok'])).toEqual(['t', 'done', 5, 3, 'ok']);
});

test('an earlier header without a column: the values follow their names, the new name goes at the end', () => {
  const layout = logLayout(['Started', 'Outcome', 'Read', 'Message'], NOW);
  expect(layout.added).toEqual(['Kept']);
  expect(layout.place(['t', 'done', 5, 3, 'ok'])).toEqual(['t', 'done', 5, 'ok', 3]);
});

test("columns in another order, and the analyst's own column, keep their places", () => {
  const layout = logLayout(['Message', 'My note', 'Started', 'Kept', 'Outcome', 'Read'], NOW);
  expect(layout.added).toEqual([]);
  expect(layout.place(['t', 'done', 5, 3, 'ok'])).toEqual(['ok', '', 't', 3, 'done', 5]);
});

test('blank or non-text header cells match no name', () => {
  const layout = logLayout(['Started', '', 7, null], ['Started', 'Read']);
  expect(layout.added).toEqual(['Read']);
  expect(layout.place(['t', 5])).toEqual(['t', '', '', '', 5]);
});
