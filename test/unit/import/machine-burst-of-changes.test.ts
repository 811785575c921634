/**
 * A list that changes a few times in a short burst (a colleague deactivating or adding a handful of
 * partners a few seconds apart) and then holds still. A read the list changed under ends where it
 * saw the change and the list is read again; such reads count by the share of the list they read
 * (src/import/machine.ts finish), so a burst at the start of a long list does not use up its 3 reads
 * and the run ends done with the list as it ended. Driven over the in-memory ports, the changes
 * placed on the clock.
 */
import { beginRun, continueRun } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { idsBelowHeader, world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test.each([
  // [partners, ms a request, moves (s after the start), budget of a step]
  [10_000, 100, [1, 3, 5, 7], 300_000],
  [10_000, 100, [1, 3, 5, 7], 20_000],
  [20_000, 50, [0.5, 1.5, 2.5, 3.5], 300_000],
])(
  '%d partners, %d ms a request, moves at %p s, steps of %d ms: the run ends done with the list as it ended',
  (n, ms, moves, budget) => {
    let added = 0;
    const pending = moves.map((s) => s * 1000);
    const list = fakeList(records(n), {
      before: () => {
        while (pending.length && w.clock.t - start >= pending[0]) {
          pending.shift();
          list.items.splice(1234 + 97 * added, 0, { id: `new${added++}`, fullName: 'New' });
        }
      },
    });
    const w = world(list.fetch, [spec], { msPerFetch: ms });
    const start = w.clock.t;
    let last = beginRun('imp1', 'schedule', w.nextExecution(), w.clock.t + budget);
    for (let k = 0; k < 200 && last.status === 'running'; k++)
      last = continueRun('imp1', w.nextExecution(), w.clock.t + budget);
    expect(last.message).not.toMatch(/kept changing/);
    expect(last.status).toBe('done');
    expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(list.items.map((r) => r.id));
  },
);
