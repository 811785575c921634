/**
 * A run saved by an earlier release just after a read of the list ended and the next began: that
 * release kept the ended read's note (from that read's next page, the page past its end marked as
 * refused, 'x'). Carried on now, the new read asks for that page like any other instead of taking
 * the old refusal for a list that shrank (which would read the whole list again, or fail a run at
 * its last read). Driven over the in-memory ports.
 */
import { continueRun } from '../../../src/import/machine';
import { startCursor } from '../../../src/api/pages';
import type { RunState } from '../../../src/import/run-state';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { idsBelowHeader, world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

function savedByPreviousRelease(pass: number, oldTotal: number, from: number): RunState {
  // The page past the end of the previous read (oldTotal a multiple of 100: it was that read's probe), refused as
  // no such page before its turn, and the read over before it got there.
  const probe = oldTotal / 100 + 1;
  return {
    runId: 'run1',
    importId: 'imp1',
    source: 'sidebar',
    by: 'user-1',
    status: 'running',
    startedAt: 1_000_000,
    updatedAt: 1_000_000,
    list: startCursor(1000),
    staged: 0,
    read: 0,
    pass,
    digest: 12345,
    stalls: 0,
    fetches: 0,
    retries: 0,
    executions: 1,
    message: 'The list did not add up (page 3 repeats page 2); reading it again.',
    held: { from, marks: `${'.'.repeat(probe - from)}x`, until: 0, at: [] },
  } as RunState;
}

test.each([
  // [pass, list read before, list now]
  [2, 500, 550],
  [2, 500, 600],
  [3, 6000, 6050],
])(
  'pass %d: the previous read`s refused page past its end (%d partners then, %d now) is asked for in the new read',
  (pass, before, now) => {
    const list = fakeList(records(now));
    const w = world(list.fetch, [spec], { msPerFetch: 10 });
    w.runs.set('imp1', savedByPreviousRelease(pass, before, 3));
    let last = continueRun('imp1', w.nextExecution(), w.clock.t + 300_000);
    for (let k = 0; k < 20 && last.status === 'running'; k++)
      last = continueRun('imp1', w.nextExecution(), w.clock.t + 300_000);
    expect(last.status).toBe('done');
    expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(records(now).map((r) => r.id));
    // One read of the list: no page asked twice.
    const pages = list.asked.map((a) => a.page);
    expect(pages.length).toBe(new Set(pages).size);
    expect(w.runs.get('imp1')?.pass).toBe(pass);
  },
);
