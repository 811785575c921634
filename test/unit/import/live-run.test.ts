/**
 * A running step says what it is at, and stops when asked: before each round after its first it
 * shows its progress in the live record (what importStatus answers while the step runs, newer than
 * the run as saved), and a Cancel reaches it there (the step holds the lock): it stops at its next
 * round, keeps what it read, and the cancel then ends the run. Each record names its run, so an
 * earlier run's never speaks for a new one.
 */
import {
  beginRun,
  cancelRun,
  continueRun,
  PAGES_PER_FETCH,
  runStatus,
  STOP_LOOK_MS,
} from '../../../src/import/machine';
import type { RunSummary } from '../../../src/import/run-state';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };
const LONG = 300_000;

/** A list of 2,500 partners in pages of 100: page 1 alone, then the other 24 in one round. */
function listWorld(): World {
  return world(fakeList(records(2500)).fetch, [{ ...spec }]);
}

/** A live record of a running step at `page` of the 25, shown at `at`. */
const showing = (page: number, at: number) => ({
  summary: {
    importId: 'imp1',
    status: 'running' as const,
    page,
    totalPages: 25,
    rows: page * 100,
    totalItems: 2500,
    message: '',
  },
  at,
});

/** Every summary the step shows, in order. */
function watchShown(w: World): RunSummary[] {
  const shown: RunSummary[] = [];
  const show = w.ports.live?.show.bind(w.ports.live);
  if (!w.ports.live || !show) throw new Error('the fake ports have no live record');
  w.ports.live.show = (runId, summary, at) => {
    shown.push(summary);
    show(runId, summary, at);
  };
  return shown;
}

describe('a running step shows its progress', () => {
  test('before each round after the first: the pages and rows read so far, of the total', () => {
    // Page 1 alone, a round of PAGES_PER_FETCH pages, then one of the last 5.
    const pages = PAGES_PER_FETCH + 6;
    const w = world(fakeList(records(pages * 100)).fetch, [{ ...spec }]);
    const shown = watchShown(w);
    const end = beginRun('imp1', 'sidebar', w.ports, w.clock.t + LONG);
    expect(end).toMatchObject({ status: 'done', rows: pages * 100 });
    const at = PAGES_PER_FETCH + 1;
    expect(shown.map((s) => [s.status, s.page, s.totalPages, s.rows, s.totalItems])).toEqual([
      ['running', 1, pages, 100, pages * 100],
      ['running', at, pages, at * 100, pages * 100],
    ]);
    expect(shown[1].message).toBe(`Page ${at} of ${pages}`);
  });

  test('importStatus answers what the step showed while it is newer than the run as saved', () => {
    const w = listWorld();
    let during: RunSummary | undefined;
    const show = w.ports.live?.show.bind(w.ports.live);
    (w.ports.live as NonNullable<typeof w.ports.live>).show = (runId, summary, at) => {
      show?.(runId, summary, at);
      // Another execution asks while the step runs: the run as saved is still the one the step began with.
      during ??= runStatus('imp1', { store: w.ports.store, live: w.ports.live });
      w.clock.t += 1;
    };
    beginRun('imp1', 'sidebar', w.ports, w.clock.t + LONG);
    expect(during).toMatchObject({ status: 'running', page: 1, totalPages: 25, rows: 100 });
    // Once the run is saved after what was shown, the saved run is the answer.
    expect(runStatus('imp1', w.ports)).toMatchObject({ status: 'done', page: 25, rows: 2500 });
  });

  test('what a step showed is not taken once the run saved something newer, nor for another run', () => {
    const w = listWorld();
    // Older than the state run1 saves, and newer but of another run.
    w.live.shown.set('run1', showing(2, w.clock.t - 1));
    w.live.shown.set('run9', showing(3, w.clock.t + 10));
    // run1 is asked to stop before its first round: it is saved as running, with nothing read.
    w.live.stops.add('run1');
    beginRun('imp1', 'sidebar', w.ports, w.clock.t + LONG);
    expect(runStatus('imp1', w.ports)).toMatchObject({ status: 'running', page: 0, rows: 0 });
  });
});

describe('Cancel reaches a running step', () => {
  test('the step stops at its next round, keeps what it read, and the cancel ends the run', () => {
    const w = listWorld();
    const show = w.ports.live?.show.bind(w.ports.live);
    (w.ports.live as NonNullable<typeof w.ports.live>).show = (runId, summary, at) => {
      show?.(runId, summary, at);
      // Cancel pressed while page 1 is in: it cannot take the lock the step holds, but asks the step to stop.
      w.lockHeld = true;
      expect(cancelRun('imp1', w.nextExecution())).toMatchObject({ status: 'running', busy: true });
      w.lockHeld = false;
    };
    const stopped = beginRun('imp1', 'sidebar', w.ports, w.clock.t + LONG);
    expect(stopped).toMatchObject({ status: 'running', page: 1, rows: 100 });
    expect(w.fetches).toBe(1);
    expect(w.staging.get('imp1')?.length).toBe(101);
    expect(w.tables.has('Partners')).toBe(false);
    expect(cancelRun('imp1', w.nextExecution())).toMatchObject({ status: 'cancelled' });
    expect(w.runLog.at(-1)).toContain('cancelled');
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + LONG).status).toBe('cancelled');
    expect(w.fetches).toBe(1);
  });

  test('a request to stop an earlier run does not stop a new one', () => {
    const w = listWorld();
    w.live.stops.add('run1');
    expect(beginRun('imp1', 'sidebar', w.ports, w.clock.t + LONG)).toMatchObject({ status: 'running' });
    expect(cancelRun('imp1', w.nextExecution()).status).toBe('cancelled');
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + LONG)).toMatchObject({
      status: 'done',
      rows: 2500,
    });
  });
});

describe('Cancel of the run the sidebar started, by the id it gave the run', () => {
  test('before the run is saved: its step stops before its first request, and the cancel then ends it', () => {
    const w = listWorld();
    // The Cancel's execution runs before the start's has saved the run: there is no run yet, only its name.
    expect(cancelRun('imp1', w.nextExecution(), 'sidebar-run-1')).toMatchObject({ status: 'idle' });
    const started = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + LONG, { runId: 'sidebar-run-1' });
    expect(started).toMatchObject({ status: 'running', page: 0, rows: 0 });
    expect(w.runs.get('imp1')?.runId).toBe('sidebar-run-1');
    expect(w.fetches).toBe(0);
    expect(cancelRun('imp1', w.nextExecution(), 'sidebar-run-1')).toMatchObject({ status: 'cancelled' });
    expect(w.tables.has('Partners')).toBe(false);
    expect(w.staging.has('imp1')).toBe(false);
  });

  test('a Cancel that names a run never started still stops the run that is running', () => {
    const w = listWorld();
    const show = w.ports.live?.show.bind(w.ports.live);
    (w.ports.live as NonNullable<typeof w.ports.live>).show = (runId, summary, at) => {
      show?.(runId, summary, at);
      w.lockHeld = true;
      cancelRun('imp1', w.nextExecution(), 'sidebar-run-2');
      w.lockHeld = false;
    };
    expect(beginRun('imp1', 'schedule', w.ports, w.clock.t + LONG)).toMatchObject({ status: 'running', page: 1 });
    expect(w.live.stops).toEqual(new Set(['sidebar-run-2', 'run1']));
  });
});

describe('Cancel reaches a step that waits', () => {
  test(`a step waiting out a long Retry-After stops within ${STOP_LOOK_MS / 1000} s of the Cancel, keeping what it read`, () => {
    // Page 2 is refused for 4 minutes; the Cancel comes 12 s into the wait.
    const list = fakeList(records(2500), { fail: (page) => (page === 2 ? limited(240) : undefined) });
    const w = world(list.fetch, [{ ...spec }]);
    const sleep = w.ports.sleep;
    let slept = 0;
    w.ports.sleep = (ms) => {
      sleep(ms);
      slept += ms;
      if (slept >= 12_000) w.live.stops.add('run1');
    };
    const stopped = beginRun('imp1', 'sidebar', w.ports, w.clock.t + LONG);
    expect(stopped.status).toBe('running');
    // Every page but page 2 is kept in staging for the run's next step.
    expect(w.staging.get('imp1')?.filter((row) => row[0] !== '').length).toBe(1 + 2400);
    expect(slept).toBeGreaterThanOrEqual(12_000);
    expect(slept).toBeLessThan(12_000 + STOP_LOOK_MS);
    expect(list.asked.filter((a) => a.page === 2)).toHaveLength(1);
    expect(cancelRun('imp1', w.nextExecution())).toMatchObject({ status: 'cancelled' });
    expect(w.tables.has('Partners')).toBe(false);
  });
});

describe('the status of a run that is not running', () => {
  test('an import never run is idle', () => {
    const w = listWorld();
    expect(runStatus('imp1', w.ports)).toMatchObject({ status: 'idle', page: 0, rows: 0 });
  });

  test('a run that ended is reported as it ended, whatever its live record says; a cancel then changes nothing', () => {
    const w = listWorld();
    beginRun('imp1', 'sidebar', w.ports, w.clock.t + LONG);
    const done = w.runs.get('imp1');
    w.live.shown.set(done?.runId ?? '', showing(3, (done?.updatedAt ?? 0) + 60_000));
    expect(runStatus('imp1', w.ports)).toMatchObject({ status: 'done', page: 25, rows: 2500 });
    const logged = w.runLog.length;
    expect(cancelRun('imp1', w.nextExecution())).toMatchObject({ status: 'done', rows: 2500 });
    expect(w.runLog).toHaveLength(logged);
    expect(w.live.stops.size).toBe(0);
  });

  test('a live record exactly as old as the saved state is not newer: the saved state is the answer', () => {
    const w = listWorld();
    w.live.stops.add('run1');
    beginRun('imp1', 'sidebar', w.ports, w.clock.t + LONG);
    const saved = w.runs.get('imp1');
    w.live.shown.set('run1', showing(3, saved?.updatedAt ?? 0));
    expect(runStatus('imp1', w.ports)).toMatchObject({ status: 'running', page: 0 });
  });
});

test('without a live record (ports that keep none) a run still completes, its status is as saved, and Cancel ends it after its step', () => {
  const w = listWorld();
  const bare = () => {
    const ports = w.nextExecution();
    delete ports.live;
    return ports;
  };
  expect(beginRun('imp1', 'sidebar', bare(), w.clock.t + LONG)).toMatchObject({ status: 'done', rows: 2500 });
  expect(runStatus('imp1', bare())).toMatchObject({ status: 'done' });
  const again = listWorld();
  again.live.stops.add('run1');
  beginRun('imp1', 'sidebar', again.ports, again.clock.t + LONG);
  const ports = again.nextExecution();
  delete ports.live;
  expect(runStatus('imp1', ports)).toMatchObject({ status: 'running' });
  expect(cancelRun('imp1', ports, 'run1')).toMatchObject({ status: 'cancelled' });
});
