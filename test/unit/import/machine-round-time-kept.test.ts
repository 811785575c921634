/**
 * The time a round of requests keeps for writing (src/import/machine.ts roundEnd), by what the
 * step will write: when page 1 is in and the pages read in the step, this round's included, are at
 * most MAX_RUN_WRITES, the rows of those pages and a write per page at their place; otherwise (and
 * always before page 1 is in) the rows in hand, those taken and those held, in one write. Requests
 * cost no time here, so each round goes out or not on its deadline alone: a round goes out when the
 * step's deadline leaves that time, and not a millisecond later.
 */
import { DEADLINE_MARGIN_MS } from '../../../src/api/client';
import type { ServiceError } from '../../../src/api/errors';
import {
  beginRun,
  FIRST_PAGE_LIMIT,
  MAX_RUN_WRITES,
  PAGES_PER_FETCH,
  WRITE_MARGIN,
  writeMargin,
} from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };
const width = spec.fields.length;
/** Pages of the fake list. */
const SIZE = 100;

/** The pages the first step asks for, with `ms` to its deadline, of a list of `total` partners (`fail`: refusals). */
function asked(total: number, ms: number, fail?: (page: number) => ServiceError | undefined): number[] {
  const list = fakeList(records(total), { fail });
  const w = world(list.fetch, [spec], { msPerFetch: 0 });
  beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + ms);
  return list.asked.map((a) => a.page);
}

test('the first request keeps the write of a page as long as the limit asks for, in one write', () => {
  const kept = DEADLINE_MARGIN_MS + writeMargin(FIRST_PAGE_LIMIT, width);
  expect(asked(5000, kept)).toEqual([1]);
  expect(asked(5000, kept - 1)).toEqual([]);
});

test(`page 1 in, a round of ${PAGES_PER_FETCH} pages: the rows in hand and those asked for, in one write`, () => {
  const kept = DEADLINE_MARGIN_MS + writeMargin(SIZE + PAGES_PER_FETCH * SIZE, width);
  expect(asked(5000, kept)).toContain(2);
  expect(asked(5000, kept - 1)).toEqual([1]);
});

test(`page 1 in, a round that makes ${MAX_RUN_WRITES} pages read in the step: a write for each`, () => {
  // 950 partners: pages 2 to 10 are the rest of the list.
  const kept =
    DEADLINE_MARGIN_MS +
    writeMargin(SIZE + (MAX_RUN_WRITES - 1) * SIZE, width) +
    MAX_RUN_WRITES * WRITE_MARGIN.perWriteMs;
  expect(asked(MAX_RUN_WRITES * SIZE - SIZE / 2, kept)).toContain(2);
  expect(asked(MAX_RUN_WRITES * SIZE - SIZE / 2, kept - 1)).toEqual([1]);
});

test('pages held behind a page that waits count among the rows in hand', () => {
  // Page 2 waits 1 s: the second round holds pages 3 to 21, the third asks for the 20 pages after them.
  const fail = (page: number) => (page === 2 ? limited(1) : undefined);
  const held = (PAGES_PER_FETCH - 1) * SIZE;
  const kept = DEADLINE_MARGIN_MS + writeMargin(SIZE + held + PAGES_PER_FETCH * SIZE, width);
  expect(asked(5000, kept, fail)).toContain(PAGES_PER_FETCH + 2);
  const before = asked(5000, kept - 1, fail);
  expect(before).toContain(PAGES_PER_FETCH + 1);
  expect(before).not.toContain(PAGES_PER_FETCH + 2);
});
