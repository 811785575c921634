/**
 * The time a step keeps when it asks for pages (src/import/machine.ts roundEnd): a request goes
 * out only while the step's end, less the client's margin and the write of the rows in hand and of
 * those the round asks for, is not past. Driven over
 * the in-memory ports with slow requests (4 s each), so the time each request goes out is known.
 */
import { DEADLINE_MARGIN_MS } from '../../../src/api/client';
import { beginRun, writeMargin } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/**
 * 250 partners in pages of 100: page 1 alone (in at 4 s), then pages 2 and 3 together, page 3's
 * request going out at 8 s; the rows read in the first step for a deadline `ms` after the start.
 */
function rowsRead(ms: number): number {
  const w = world(fakeList(records(250)).fetch, [spec], { msPerFetch: 4000 });
  return beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + ms).rows;
}

/** What the second round keeps: page 1's 100 rows in hand and the 200 it asks for. */
const kept = DEADLINE_MARGIN_MS + writeMargin(100 + 2 * 100, 2);

test('the last request goes out when the time it keeps is just there, and not a millisecond later', () => {
  expect(rowsRead(8000 + kept)).toBe(250);
  expect(rowsRead(8000 + kept - 1)).toBe(200);
});

test('a round whose time to start is exactly now still goes out', () => {
  expect(rowsRead(4000 + kept)).toBe(200);
});
