/**
 * The import's entry points as the sidebar and triggers call them: beginRun, continueRun and
 * cancelRun find their saved import by id, run under the lock and always release it, leave a
 * finished run alone, refuse a replace over a sheet the import did not leave as it was before any
 * request, and say what an import that has no run yet is doing.
 */
import { beginRun, cancelRun, continueRun, newRun, notStarted } from '../../../src/import/machine';
import type { ImportPorts } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';

const spec = (id: string, sheetName: string): ImportSpec => ({
  id,
  sheetName,
  fields: ['id', 'fullName'],
  mode: 'replace',
});

/** Ports whose lock counts what is taken and given back. */
function counted(ports: ImportPorts): { held: () => number } {
  let held = 0;
  ports.lock = {
    tryLock: () => {
      held++;
      return true;
    },
    release: () => {
      held--;
    },
  };
  return { held: () => held };
}

describe('import entry points', () => {
  test('a new run says it is starting', () => {
    const w = world(fakeList(records(1)).fetch, [spec('imp1', 'Partners')]);
    expect(newRun(w.specs[0], 'sidebar', w.ports).message).toBe('Starting…');
  });

  test('each import runs by its own saved spec', () => {
    const w = world(fakeList(records(5)).fetch, [spec('imp1', 'First'), spec('imp2', 'Second')]);
    expect(beginRun('imp2', 'sidebar', w.nextExecution(), w.clock.t + 60_000).status).toBe('done');
    expect(w.tables.has('First')).toBe(false);
    expect(w.tables.get('Second')?.length).toBe(6);
  });

  test('an unknown import is an error the caller reads, and the lock is given back', () => {
    const w = world(fakeList(records(5)).fetch, [spec('imp1', 'Partners')]);
    const ports = w.nextExecution();
    const lock = counted(ports);
    expect(() => beginRun('nope', 'sidebar', ports, w.clock.t + 60_000)).toThrow('No saved import nope.');
    expect(lock.held()).toBe(0);
    expect(w.fetches).toBe(0);
  });

  test('the lock is given back after a run', () => {
    const w = world(fakeList(records(5)).fetch, [spec('imp1', 'Partners')]);
    const ports = w.nextExecution();
    const lock = counted(ports);
    beginRun('imp1', 'sidebar', ports, w.clock.t + 60_000);
    expect(lock.held()).toBe(0);
  });

  test('a replace over a sheet the import did not leave as it was fails before any request', () => {
    const w = world(fakeList(records(5)).fetch, [spec('imp1', 'Partners')]);
    w.tables.set('Partners', [['Analyst notes'], ['keep me']]);
    const s = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
    expect(s.status).toBe('failed');
    expect(w.fetches).toBe(0);
    expect(w.tables.get('Partners')).toEqual([['Analyst notes'], ['keep me']]);
  });

  test("Replace anyway is a replace's: a merge whose saved import says so is refused all the same", () => {
    const w = world(fakeList(records(5)).fetch, [{ ...spec('imp1', 'Partners'), mode: 'merge', replaceAnyway: true }]);
    w.tables.set('Partners', [['Analyst notes'], ['keep me']]);
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000, { force: true }).status).toBe('failed');
    expect(w.runs.get('imp1')?.force).toBeUndefined();
    expect(w.fetches).toBe(0);
    expect(w.tables.get('Partners')).toEqual([['Analyst notes'], ['keep me']]);
  });

  test('a run that could not begin is a failed run saying why: logged, the sheet untouched, no request', () => {
    const w = world(fakeList(records(5)).fetch, [spec('imp1', 'Partners')]);
    w.tables.set('Partners', [['Analyst notes'], ['keep me']]);
    const s = notStarted('imp1', 'sidebar', w.nextExecution(), 'No API key is saved for this address.');
    expect(s).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('No API key is saved for this address.'),
    });
    expect(w.runs.get('imp1')?.status).toBe('failed');
    expect(w.runLog).toHaveLength(1);
    expect(w.fetches).toBe(0);
    expect(w.tables.get('Partners')).toEqual([['Analyst notes'], ['keep me']]);
  });

  test('continuing or cancelling an import without a run says it is idle', () => {
    const w = world(fakeList(records(5)).fetch, [spec('imp1', 'Partners')]);
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000).status).toBe('idle');
    expect(cancelRun('imp1', w.nextExecution()).status).toBe('idle');
    expect(w.fetches).toBe(0);
  });

  test('continuing or cancelling a finished run leaves it as it ended', () => {
    const w = world(fakeList(records(5)).fetch, [spec('imp1', 'Partners')]);
    const done = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
    expect(done.status).toBe('done');
    const fetches = w.fetches;
    const writes = w.writes.length;
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000)).toEqual(done);
    expect(cancelRun('imp1', w.nextExecution())).toEqual(done);
    expect(w.runs.get('imp1')?.status).toBe('done');
    expect(w.fetches).toBe(fetches);
    expect(w.writes).toHaveLength(writes);
    expect(w.runLog).toHaveLength(1);
  });

  test('a running run saved in another shape (its version differs) starts over: read afresh, every partner once', () => {
    const list = fakeList(records(2500));
    const w = world(list.fetch, [spec('imp1', 'Partners')]);
    const first = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 3_000);
    expect(first.status).toBe('running');
    const saved = w.runs.get('imp1');
    if (!saved?.staged) throw new Error('the first step staged nothing');
    w.runs.set('imp1', { ...saved, version: saved.version + 1 });
    const again = continueRun('imp1', w.nextExecution(), w.clock.t + 60_000);
    expect(again.status).toBe('done');
    expect(w.runs.get('imp1')?.runId).not.toBe(saved.runId);
    expect(
      w.tables
        .get('Partners')
        ?.slice(1)
        .map((r) => r[0]),
    ).toEqual(records(2500).map((r) => r.id));
  });

  test('a finished run saved in another shape shows as no run', () => {
    const w = world(fakeList(records(5)).fetch, [spec('imp1', 'Partners')]);
    beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
    const saved = w.runs.get('imp1');
    if (!saved) throw new Error('no run saved');
    w.runs.set('imp1', { ...saved, version: 0 });
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000).status).toBe('idle');
    expect(cancelRun('imp1', w.nextExecution()).status).toBe('idle');
  });

  test('cancelling a running run saved in another shape leaves it to start over: no run is ended, nothing logged', () => {
    const w = world(fakeList(records(2500)).fetch, [spec('imp1', 'Partners')]);
    w.live.stops.add('run1');
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000).status).toBe('running');
    const saved = w.runs.get('imp1');
    if (!saved) throw new Error('no run saved');
    w.runs.set('imp1', { ...saved, version: saved.version + 1 });
    expect(cancelRun('imp1', w.nextExecution()).status).toBe('idle');
    expect(w.runs.get('imp1')?.status).toBe('running');
    expect(w.runLog).toHaveLength(0);
  });
});
