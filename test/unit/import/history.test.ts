/**
 * History (src/import/watch.ts) through the state machine over in-memory ports: a history port
 * modelled as a sheet whose writes are whole calls (as one setValues is), that can be killed
 * before any one of them. Exactly `keep` runs stay; the cell limit refuses with how many runs
 * fit; failed runs add nothing; a kill at each write leaves whole runs only, and the run
 * finished again in the next execution completes the history without a duplicate.
 */
import { beginRun, continueRun } from '../../../src/import/machine';
import type { HistoryPort, Known } from '../../../src/import/ports';
import type { RunSummary } from '../../../src/import/run-state';
import type { ImportSpec } from '../../../src/import/spec';
import { MAX_SPREADSHEET_CELLS } from '../../../src/import/watch';
import type { Cell } from '../../../src/table/cells';
import { fakeList, records } from '../../helpers/fake-list';
import { Killed, type World, world } from '../../helpers/fake-ports';
import { ServiceError } from '../../../src/api/errors';

interface FakeHistory {
  port: HistoryPort;
  rows: Cell[][];
  header: string[];
  others: number;
  /** Writes (prune, append) done so far; a kill before write number `killAt` (1-based) throws instead (after the last, when it is one more). */
  writes: number;
  killAt: number;
}

function fakeHistory(w: World): FakeHistory {
  const h: FakeHistory = {
    rows: [],
    header: [],
    others: 0,
    writes: 0,
    killAt: 0,
    port: undefined as unknown as HistoryPort,
  };
  const write = () => {
    if (h.killAt && h.writes + 1 === h.killAt) {
      w.kill();
      throw new Killed('Exceeded maximum execution time');
    }
    h.writes++;
  };
  h.port = {
    runs: () => {
      const rows = new Map<number, number>();
      for (const r of h.rows) rows.set((r[0] as Date).getTime(), (rows.get((r[0] as Date).getTime()) ?? 0) + 1);
      return { header: h.header, runs: [...rows].map(([at, n]) => ({ at, rows: n })) };
    },
    grid: () => ({ others: h.others, rows: h.header.length ? 1 + h.rows.length : 0, cols: 26 }),
    prune: (_name, ats) => {
      write();
      h.rows = h.rows.filter((r) => !ats.includes((r[0] as Date).getTime()));
    },
    append: (_name, _id, header, rows) => {
      write();
      if (!h.header.length) h.header = [...header];
      h.rows.push(...rows.map((r) => [...r]));
      if (h.killAt === h.writes + 1) {
        w.kill();
        throw new Killed('Exceeded maximum execution time');
      }
    },
  };
  return h;
}

const spec = (keep: number): ImportSpec => ({
  id: 'imp1',
  sheetName: 'Partners',
  fields: ['id', 'fullName'],
  mode: 'replace',
  history: { keep, sheet: 'Partners history' },
});

function setup(keep: number, partners = 30) {
  const list = fakeList(records(partners));
  const w = world(list.fetch, [spec(keep)]);
  const h = fakeHistory(w);
  const withHistory = () => ({ ...w.nextExecution(), history: h.port });
  return { w, h, withHistory };
}

function drive(w: World, next: () => ReturnType<World['nextExecution']>): RunSummary {
  let s = beginRun('imp1', 'schedule', next(), w.clock.t + 60_000);
  while (s.status === 'running') s = continueRun('imp1', next(), w.clock.t + 60_000);
  return s;
}

const runTimes = (h: FakeHistory) => [...new Set(h.rows.map((r) => (r[0] as Date).getTime()))];

test('history keeps exactly `keep` runs, oldest pruned first, each whole and marked with its run time', () => {
  const { w, h, withHistory } = setup(3);
  const starts: number[] = [];
  for (let i = 0; i < 5; i++) {
    w.clock.t += 3_600_000;
    starts.push(w.clock.t);
    const s = drive(w, withHistory);
    expect(s.status).toBe('done');
    expect(s.message).toContain(`History: ${Math.min(i + 1, 3)} run${i ? 's' : ''} kept in "Partners history".`);
    expect(runTimes(h)).toHaveLength(Math.min(i + 1, 3));
  }
  expect(h.header).toEqual(['Run at', 'id', 'fullName']);
  expect(runTimes(h)).toEqual(starts.slice(-3));
  expect(h.rows).toHaveLength(90);
  expect(w.runLog[w.runLog.length - 1].slice(-2)).toEqual([30, '']);
});

test('a failed run adds nothing to the history', () => {
  const { w, h, withHistory } = setup(3);
  drive(w, withHistory);
  const before = h.rows.length;
  expect(before).toBe(30);
  const broken = world(
    (pages) => pages.map(() => ({ ok: false as const, error: new ServiceError('AUTH', 'Key refused.') })),
    w.specs,
  );
  const s = drive(broken, () => ({ ...broken.nextExecution(), history: h.port }));
  expect(s.status).toBe('failed');
  expect(h.rows).toHaveLength(before);
});

test('the cell limit refuses the history, with how many runs fit; the table still lands', () => {
  const { w, h, withHistory } = setup(100, 40);
  // Other sheets leave room for 9 runs of 40 rows at 26 columns (the history sheet's grid).
  h.others = MAX_SPREADSHEET_CELLS - 26 - 9 * 40 * 26 - 5;
  const s = drive(w, withHistory);
  expect(s.status).toBe('done');
  expect(s.message).toContain(
    'History not kept: 100 runs of 40 rows would take the spreadsheet past its 10,000,000 cells; 9 runs of this size fit beside its other sheets. Keep at most 9 runs.',
  );
  expect(h.rows).toHaveLength(0);
  expect(w.tables.get('Partners')).toHaveLength(41);
  expect(w.runLog[w.runLog.length - 1].slice(-2)).toEqual([0, '']);
  w.specs[0].history = { keep: 9, sheet: 'Partners history' };
  expect(drive(w, withHistory).message).toContain('History: 1 run kept');
});

test('a kill before each write of the history leaves whole runs only; the next execution completes it without a duplicate', () => {
  // Two runs in, keep 2: the third run prunes one run (write 1) and appends itself (write 2); 3 kills it after both.
  for (const killAt of [1, 2, 3]) {
    const { w, h, withHistory } = setup(2);
    drive(w, withHistory);
    w.clock.t += 3_600_000;
    drive(w, withHistory);
    w.clock.t += 3_600_000;
    h.writes = 0;
    h.killAt = killAt;
    expect(() => drive(w, withHistory)).toThrow(Killed);
    // Whole runs only: every run time holds all 30 partners.
    for (const t of runTimes(h)) expect(h.rows.filter((r) => (r[0] as Date).getTime() === t)).toHaveLength(30);
    h.killAt = 0;
    const s = continueRun('imp1', withHistory(), w.clock.t + 60_000);
    expect(s.status).toBe('done');
    expect(runTimes(h)).toHaveLength(2);
    expect(h.rows).toHaveLength(60);
    expect(runTimes(h)[1]).toBe(w.runs.get('imp1')?.startedAt);
  }
});

describe('an alert killed at each of its writes', () => {
  /** Ports with mail and the listed-ids record; a kill before or after the `killAt`-th of their writes. */
  function alerting(partners: number) {
    const list = fakeList(records(partners));
    const w = world(list.fetch, [
      {
        id: 'imp1',
        sheetName: 'Partners',
        fields: ['id', 'fullName'],
        mode: 'merge',
        alert: { on: ['added', 'removed'], owner: 'me@example.com' },
      },
    ]);
    const state = { sent: [] as string[], listed: null as Known[] | null, ops: 0, killAt: 0, after: false };
    const op = (effect: () => void) => {
      state.ops++;
      const now = state.killAt === state.ops;
      if (now && !state.after) w.kill();
      if (now && !state.after) throw new Killed('Exceeded maximum execution time');
      effect();
      if (now) {
        w.kill();
        throw new Killed('Exceeded maximum execution time');
      }
    };
    const next = () => ({
      ...w.nextExecution(),
      mail: {
        off: () => '',
        remaining: () => 100,
        send: (_to: string, subject: string) => op(() => state.sent.push(subject)),
        secrets: () => [],
        links: () => ({ spreadsheet: 's', changeLog: 'c' }),
      },
      listed: {
        read: () => state.listed,
        write: (_id: string, known: readonly Known[]) => op(() => (state.listed = [...known])),
        remove: () => undefined,
      },
    });
    return { w, list, state, next };
  }

  // Its writes: the ids listed (1), then the email (2).
  test.each([
    [1, false],
    [1, true],
    [2, false],
    [2, true],
  ])(
    'kill at write %i (after it: %s): one email at most, none twice, and the next run compares with this one',
    (killAt, after) => {
      const { w, list, state, next } = alerting(20);
      drive(w, next); // baseline
      expect(state.listed).toHaveLength(20);
      list.items.splice(3, 1); // a partner leaves
      state.ops = 0;
      state.killAt = killAt;
      state.after = after;
      try {
        drive(w, next);
      } catch (e) {
        if (!(e instanceof Killed)) throw e;
      }
      state.killAt = 0;
      for (let s = continueRun('imp1', next(), w.clock.t + 60_000); s.status === 'running'; )
        s = continueRun('imp1', next(), w.clock.t + 60_000);
      // Killed after the email went, it went once; killed before, at most once (never twice).
      expect(state.sent.length).toBeLessThanOrEqual(1);
      if (after && killAt === 2)
        expect(state.sent).toEqual(['1 change to partners in "Partners" (0 added, 1 removed, 0 changed)']);
      expect(state.listed).toHaveLength(19);
      const sent = state.sent.length;
      drive(w, next); // nothing changed since
      expect(state.sent).toHaveLength(sent);
    },
  );
});
