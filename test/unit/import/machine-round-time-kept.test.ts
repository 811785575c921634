/**
 * The time a round of requests keeps for writing (src/import/machine.ts roundEnd), by what the
 * step will write in its one write: the pages from the first read in the step to the last the round
 * asks for, at their place (before page 1, a page as long as the limit asks for); a round asks for as
 * many pages as that leaves time for, one at least. Requests
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

/** The pages each call of the first step asks for, with `ms` to its deadline, of a list of `total` partners (`fail`: refusals). */
function calls(total: number, ms: number, fail?: (page: number) => ServiceError | undefined): number[][] {
  const list = fakeList(records(total), { fail });
  const out: number[][] = [];
  const w = world(
    (pages, limit) => {
      out.push([...pages]);
      return list.fetch(pages, limit);
    },
    [spec],
    { msPerFetch: 0 },
  );
  beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + ms);
  return out;
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

test('the first request keeps the write of a page as long as the limit asks for', () => {
  const kept = DEADLINE_MARGIN_MS + writeMargin(FIRST_PAGE_LIMIT, width);
  expect(calls(5000, kept)[0]).toEqual([1]);
  expect(calls(5000, kept - 1)).toEqual([]);
});

test(`page 1 in, a round asks for as many pages as the time left writes, ${PAGES_PER_FETCH} at most`, () => {
  const kept = DEADLINE_MARGIN_MS + writeMargin(SIZE + PAGES_PER_FETCH * SIZE, width);
  expect(calls(5000, kept)[1]).toEqual(range(2, PAGES_PER_FETCH + 1));
  expect(calls(5000, kept - 1)[1]).toEqual(range(2, PAGES_PER_FETCH));
});

test('pages held behind a page that waits count among the rows the write covers', () => {
  // Page 2 waits 1 s: the second round holds pages 3 to 21, the third asks for the 20 pages after them:
  // the write then covers pages 1 to 41 (page 2's place, blank, among them).
  const fail = (page: number) => (page === 2 ? limited(1) : undefined);
  const kept = DEADLINE_MARGIN_MS + writeMargin((PAGES_PER_FETCH * 2 + 1) * SIZE, width);
  expect(calls(5000, kept, fail)[2]).toEqual(range(PAGES_PER_FETCH + 2, 2 * PAGES_PER_FETCH + 1));
  expect(calls(5000, kept - 1, fail)[2]).toEqual(range(PAGES_PER_FETCH + 2, 2 * PAGES_PER_FETCH));
});
