/**
 * Pages that came ahead of their turn: which of them are kept for the next step, the note the run saves about them and the pages it waits for, and
 * how the next step reads them back from the note and the staging rows.
 */
import { ServiceError } from '../../../src/api/errors';
import { type ListCursor, startCursor } from '../../../src/api/pages';
import {
  type Held,
  gonePages,
  heldSpan,
  keepable,
  noteHeld,
  noteWaits,
  restoreHeld,
  type Shape,
} from '../../../src/import/held';
import type { Cell } from '../../../src/table/cells';

/** A cursor with page 1 in: pages of 2 items, 9 items in all (pages 1 to 5, page 5 holding one). */
const started = (over: Partial<ListCursor> = {}): ListCursor => ({
  ...startCursor(2),
  started: true,
  size: 2,
  totalItems: 9,
  lastPage: 5,
  nextPage: 3,
  received: 4,
  ...over,
});
const shape: Shape = { size: 2, totalItems: 9, lastPage: 5 };

/** A held page with `n` items named after the page, the list's total `total`. */
const page = (p: number, n: number, total = 9): Held => {
  const ids = Array.from({ length: n }, (_, k) => `p${p}-${k}`);
  return {
    page: {
      items: ids.map((id) => ({ id })),
      pagination: { totalItems: total, totalPages: 5, currentPage: p, pageSize: 2 },
    },
    rows: ids.map((id) => [id, `v${id}`]),
  };
};
const refused: Held = { refused: new ServiceError('NOT_FOUND', 'No page 3') };
/** The rows of held pages in a row, as staging holds them (page 5 the last, holding one). */
const rowsOf = (...pages: number[]): Cell[][] =>
  pages.flatMap((p) => {
    const h = page(p, p === 5 ? 1 : 2);
    return 'rows' in h ? h.rows : [];
  });

describe('keepable: the held pages kept for the next step', () => {
  test('in page order, whatever order they came in', () => {
    const held = new Map<number, Held>([
      [5, page(5, 1)],
      [3, page(3, 2)],
      [4, page(4, 2)],
    ]);
    expect(keepable(started(), held)).toEqual([3, 4, 5]);
    const held2 = new Map<number, Held>([
      [4, page(4, 2)],
      [5, page(5, 1)],
      [3, page(3, 2)],
    ]);
    expect(keepable(started(), held2)).toEqual([3, 4, 5]);
  });

  test('not a page before the next one the cursor takes', () => {
    const held = new Map<number, Held>([
      [2, page(2, 2)],
      [4, page(4, 2)],
    ]);
    expect(keepable(started(), held)).toEqual([4]);
  });

  test('the page after the last only when the end is to be confirmed by asking for it', () => {
    const held = new Map<number, Held>([
      [4, page(4, 2)],
      [6, page(6, 0)],
    ]);
    expect(keepable(started(), held)).toEqual([4]);
    expect(keepable(started({ probe: true }), held)).toEqual([4, 6]);
  });

  test('not a refusal, nor a page of another length or another total', () => {
    const held = new Map<number, Held>([
      [3, refused],
      [4, page(4, 1)],
      [5, page(5, 1, 10)],
    ]);
    expect(keepable(started(), held)).toEqual([]);
  });
});

describe('noteHeld: the note saved for the next step', () => {
  test('nothing held and nothing waiting: no note', () => {
    expect(noteHeld(started(), [], new Map())).toBeUndefined();
  });

  test('a wait for a page already taken in: no note', () => {
    expect(noteHeld(started(), [], new Map([[2, 100]]))).toBeUndefined();
  });

  test('a wait for the next page alone is noted', () => {
    expect(noteHeld(started(), [], new Map([[3, 100]]))).toEqual({
      from: 3,
      marks: 'w',
      at: [100],
    });
  });

  test('each wait keeps its own time', () => {
    const note = noteHeld(
      started(),
      [5],
      new Map([
        [2, 500],
        [3, 300],
        [4, 200],
      ]),
    );
    expect(note).toEqual({ from: 3, marks: 'wwh', at: [300, 200] });
  });

  test('before page 1 is in, only waits are noted', () => {
    expect(noteHeld(startCursor(2), [], new Map([[1, 50]]))).toEqual({ from: 1, marks: 'w', at: [50] });
    expect(noteHeld(started(), [4], new Map())).toEqual({ from: 3, marks: '.h', at: [] });
  });
});

describe('pages the service does not have are noted as such, and come back as refusals', () => {
  test('a page refused with 404 or 400 is noted, one refused otherwise is not', () => {
    const held = new Map<number, Held>([
      [2, { refused: new ServiceError('BAD_INPUT', 'No page 2') }],
      [3, refused],
      [4, { refused: new ServiceError('AUTH', 'Key refused') }],
    ]);
    expect(gonePages(held)).toEqual([2, 3]);
    expect(noteHeld(started({ nextPage: 2 }), [], new Map([[6, 50]]), gonePages(held))).toEqual({
      from: 2,
      marks: 'xx..w',
      at: [50],
    });
    expect(noteHeld(started(), [4], new Map(), [6, 2])).toEqual({ from: 3, marks: '.h.x', at: [] });
  });

  test('read back, a page noted as gone is a refusal of that page, with no rows of its own', () => {
    const note = { from: 3, marks: 'hx', at: [] };
    const held = restoreHeld({ ...shape, lastPage: 3, totalItems: 6 }, note, rowsOf(3), 0);
    expect(noteWaits(note).size).toBe(0);
    const gone = held.get(4);
    expect(gone && 'refused' in gone && [gone.refused.code, gone.refused.transient]).toEqual(['NOT_FOUND', false]);
    expect(gonePages(held)).toEqual([4]);
  });
});

describe('heldSpan and restoreHeld: the next step reads the held pages back', () => {
  test('the span ends with the last held page, not with a wait or a gap after it', () => {
    expect(heldSpan(shape, { from: 3, marks: 'h.w', at: [9] })).toBe(2);
    expect(heldSpan(shape, { from: 3, marks: '.h.', at: [] })).toBe(4);
  });

  test('held pages come back from their rows, waits with their own times', () => {
    const note = { from: 3, marks: 'whw', at: [70, 40] };
    const held = restoreHeld(shape, note, rowsOf(3, 4), 0);
    expect([...noteWaits(note)]).toEqual([
      [3, 70],
      [5, 40],
    ]);
    expect([...held.keys()]).toEqual([4]);
    expect(held.get(4)).toEqual({
      rows: [
        ['p4-0', 'vp4-0'],
        ['p4-1', 'vp4-1'],
      ],
      page: {
        items: [{ id: 'p4-0' }, { id: 'p4-1' }],
        pagination: { totalItems: 9, totalPages: 5, currentPage: 4, pageSize: 2 },
      },
    });
  });

  test('a held page whose rows are not all there is not restored', () => {
    const held = restoreHeld(shape, { from: 3, marks: 'h', at: [] }, [['p3-0', 'x']], 0);
    expect(held.size).toBe(0);
  });
});
