/**
 * Log rows on a sheet the analyst may have edited (src/table/log-layout.ts): a header cell that
 * Sheets reads as a number or a boolean still matches the name it shows, and a row shorter than
 * the header leaves the cells it lacks blank.
 */
import { logLayout } from '../../../src/table/log-layout';

test('a header cell Sheets reads as a number or a boolean matches the name it shows', () => {
  const layout = logLayout([true, 'Note', 2024], ['2024', 'true']);
  expect(layout.added).toEqual([]);
  expect(layout.place(['a', 'b'])).toEqual(['b', '', 'a']);
});

test('a row shorter than the header leaves the cells it lacks blank', () => {
  const layout = logLayout(['Started', 'Outcome', 'Read'], ['Started', 'Outcome', 'Read']);
  expect(layout.place(['t'])).toEqual(['t', '', '']);
});
