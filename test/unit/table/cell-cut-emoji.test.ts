/**
 * Text too long for a cell (src/table/cells.ts) is cut to the cell limit with a truncation mark,
 * and the cut never splits an emoji (a UTF-16 surrogate pair) in two: wherever a single emoji
 * falls around the cut, the cell holds it whole or not at all, for both targets, with or without
 * the quote prefix a sheet cell gets.
 */
import { MAX_CELL_CHARS, safeText, TRUNCATION_MARK, toCell } from '../../../src/table/cells';

const EMOJI = '😀';
/** A high half not followed by a low one, or a low half not preceded by a high one. */
const BROKEN = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Every position of the emoji from well before the cut to past it.
const POSITIONS = Array.from({ length: 24 }, (_, k) => MAX_CELL_CHARS - TRUNCATION_MARK.length - 12 + k);

describe.each([
  ['formula', 'z'],
  ['sheet', 'z'],
  ['sheet', '='],
] as const)('cut for the %s target, text starting with %s', (target, first) => {
  test('a single emoji around the cut is kept whole or left out, and the cell is as full as that allows', () => {
    for (const at of POSITIONS) {
      const text = first + 'z'.repeat(at - 1) + EMOJI + 'z'.repeat(40);
      const cell = safeText(text, target);
      expect(cell.endsWith(TRUNCATION_MARK)).toBe(true);
      expect(cell.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
      expect(cell.length).toBeGreaterThanOrEqual(MAX_CELL_CHARS - 1);
      expect(BROKEN.test(cell)).toBe(false);
      expect(toCell(text, 'string', target)).toBe(cell);
    }
  });
});
