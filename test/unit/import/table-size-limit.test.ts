/**
 * The size check at page 1 (src/import/machine.ts): a list whose table, header row included, would
 * hold more cells than a spreadsheet allows fails the run before more is read; one that fills the
 * spreadsheet exactly is read. Two columns, so the limit falls between two totals one partner apart.
 */
import type { PageFetcher } from '../../../src/api/pages';
import { beginRun } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { MAX_SPREADSHEET_CELLS } from '../../../src/import/watch';
import { world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** Full pages of 100 partners, each page reporting `total` in all. */
const reporting =
  (total: number): PageFetcher =>
  (pages) =>
    pages.map((page) => ({
      ok: true,
      value: {
        items: Array.from({ length: 100 }, (_, i) => ({ id: `p${(page - 1) * 100 + i}`, fullName: 'x' })),
        pagination: { totalItems: total, totalPages: Math.ceil(total / 100), currentPage: page, pageSize: 100 },
      },
    }));

/** The first sidebar step of an import over a list of `total` partners. */
function firstStep(total: number) {
  const w = world(reporting(total), [spec]);
  return { step: beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 20_000), w };
}

test('a table that fills the spreadsheet exactly, header row included, is read', () => {
  const total = MAX_SPREADSHEET_CELLS / spec.fields.length - 1;
  const { step, w } = firstStep(total);
  expect(step.status).toBe('running');
  expect(step.message).not.toMatch(/would not fit/);
  expect(w.fetches).toBeGreaterThan(1);
});

test('one partner more, and the header row no longer fits: the run fails at page 1', () => {
  const total = MAX_SPREADSHEET_CELLS / spec.fields.length;
  const { step, w } = firstStep(total);
  expect(step.status).toBe('failed');
  expect(step.message).toMatch(/would not fit in a spreadsheet/);
  expect({ requests: w.fetches, written: w.tables.has('Partners') }).toEqual({ requests: 1, written: false });
});
