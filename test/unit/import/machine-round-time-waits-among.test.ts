/**
 * The time a round keeps for the step's write (src/import/machine.ts roundEnd) covers the pages from
 * the first read in the step to the last the round asks for: the first PAGES_PER_FETCH pages that
 * are due, which reach as many pages further as there are waits among the missing ones. Pages 2 to 16
 * wait 600 s: the second round asks for pages 22 to 41, and the step's write of pages 1 to 41 must
 * still end by the deadline. Swept over budgets 20 ms apart, each write charged writeMargin of its rows.
 */
import { LP_FIELDS } from '../../../src/api/records';
import { beginRun, writeMargin } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: [...LP_FIELDS], mode: 'replace' };

/** The latest end (clock ms past the deadline) of a staging write costing writeMargin, in the first step of `budget` ms. */
function lateness(budget: number): number {
  const refused = new Set<number>();
  const list = fakeList(records(10_000), {
    fail: (p) => (p >= 2 && p <= 16 && !refused.has(p) && refused.add(p) ? limited(600) : undefined),
  });
  const w = world(list.fetch, [spec], { msPerFetch: 1 });
  const ports = w.nextExecution();
  const deadline = w.clock.t + budget;
  let late = Number.NEGATIVE_INFINITY;
  const write = ports.staging.write;
  ports.staging.write = (id, header, at, rows) => {
    late = Math.max(late, w.clock.t + writeMargin(rows.length, LP_FIELDS.length) - deadline);
    write(id, header, at, rows);
  };
  beginRun('imp1', 'sidebar', ports, deadline);
  return late;
}

test('a step whose pages wait among the missing ones still ends its write by its deadline', () => {
  const over: Array<[number, number]> = [];
  for (let budget = 5400; budget <= 5800; budget += 20) {
    const late = lateness(budget);
    if (late > 0) over.push([budget, late]);
  }
  expect(over).toEqual([]);
});
