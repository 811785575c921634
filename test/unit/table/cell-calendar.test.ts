/**
 * Which text and numbers cell typing takes as a day or a number (src/table/cells.ts): every month
 * of the calendar is a date, December included; a day that is not on the calendar stays text even
 * with spaces around it (the calendar check reads the trimmed text, as the parse does); a number
 * is only ever a finite one, so a JSON number too large for a double is no number.
 */
import { asDate, asNumber, isDate, toCell } from '../../../src/table/cells';

describe('days of the calendar', () => {
  test.each([
    ['2024-12-31', Date.UTC(2024, 11, 31)],
    ['2024-12-01T10:00:00Z', Date.UTC(2024, 11, 1, 10)],
    ['2024-01-31', Date.UTC(2024, 0, 31)],
  ])('%j is a date', (text, ms) => {
    const cell = toCell(text, 'datetime', 'formula');
    expect(isDate(cell)).toBe(true);
    expect((cell as Date).getTime()).toBe(ms);
  });

  test.each([' 2024-02-30', ' 2024-02-30 ', '\t2024-04-31'])(
    '%j, a day off the calendar with spaces around it, stays text',
    (text) => {
      expect(asDate(text)).toBeUndefined();
      expect(toCell(text, 'datetime', 'formula')).toBe(text);
    },
  );
});

describe('numbers', () => {
  test('a JSON number too large for a double is no number, nor is NaN', () => {
    expect(asNumber(JSON.parse('1e999'))).toBeUndefined();
    expect(asNumber(JSON.parse('-1e999'))).toBeUndefined();
    expect(asNumber(Number.NaN)).toBeUndefined();
    expect(asNumber(1e308)).toBe(1e308);
  });
});
