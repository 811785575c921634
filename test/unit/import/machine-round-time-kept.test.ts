/**
 * The time a round of requests keeps for writing (src/import/machine.ts roundEnd), by what the
 * step will write in its one write: the rows taken in and those the round asks for, or, when more,
 * the pages from the first read in the step to the last the round asks for, at their place. Requests
 * cost no time here, so each round goes out or not on its deadline alone: a round goes out when the
 * step's deadline leaves that time, and not a millisecond later.
 */
import { DEADLINE_MARGIN_MS } from '../../../src/api/client';
import type { ServiceError } from '../../../src/api/errors';
import { beginRun, FIRST_PAGE_LIMIT, PAGES_PER_FETCH, writeMargin } from '../../../src/import/machine';
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

test('pages held behind a page that waits count among the rows in hand', () => {
  // Page 2 waits 1 s: the second round holds pages 3 to 21, the third asks for the 20 pages after them:
  // the write then covers pages 1 to 41 (page 2's place, blank, among them).
  const fail = (page: number) => (page === 2 ? limited(1) : undefined);
  const held = (PAGES_PER_FETCH - 1) * SIZE;
  const kept = DEADLINE_MARGIN_MS + writeMargin(2 * SIZE + held + PAGES_PER_FETCH * SIZE, width);
  expect(asked(5000, kept, fail)).toContain(PAGES_PER_FETCH + 2);
  const before = asked(5000, kept - 1, fail);
  expect(before).toContain(PAGES_PER_FETCH + 1);
  expect(before).not.toContain(PAGES_PER_FETCH + 2);
});
