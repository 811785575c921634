import { Client } from '../../../src/api/client';
import { ServiceError } from '../../../src/api/errors';
import { type HttpRequest, type HttpResponse, perRequest, type Transport } from '../../../src/api/transport';
import { beginRun, cancelRun, continueRun, LOCKED_MESSAGE, GIVE_UP } from '../../../src/import/machine';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import type { RunSummary } from '../../../src/import/run-state';
import type { ImportSpec } from '../../../src/import/spec';
import type { OutCell } from '../../../src/import/ports';
import { fakeList, records } from '../../helpers/fake-list';
import { json } from '../../helpers/fakes';
import { Killed, type World, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec = (mode: 'replace' | 'merge' = 'replace'): ImportSpec => ({
  id: 'imp1',
  sheetName: 'Partners',
  fields: ['id', 'fullName'],
  mode,
});
const table = (w: World) => w.tables.get('Partners');
const tableIds = (w: World) => (table(w) ?? []).slice(1).map((r) => r[0]);
const expected = (n: number) => records(n).map((r) => r.id);

/** Starts the run, then continues it (each step a new execution with `budget` ms) until it is not running. */
function drive(w: World, budget = 60_000, maxSteps = 50): RunSummary[] {
  const seen = [beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + budget)];
  while (seen[seen.length - 1].status === 'running' && seen.length < maxSteps) {
    seen.push(continueRun('imp1', w.nextExecution(), w.clock.t + budget));
  }
  return seen;
}

describe('import state machine: the happy paths', () => {
  test('a run that fits one step: read, one write of the table, a log row, no staging left', () => {
    const w = world(fakeList(records(250)).fetch, [spec()]);
    const steps = drive(w);
    expect(steps.map((s) => s.status)).toEqual(['done']);
    expect(steps[0]).toMatchObject({
      rows: 250,
      totalItems: 250,
      page: 3,
      totalPages: 3,
      message: 'Imported 250 active limited partners into "Partners".',
    });
    expect(table(w)?.[0]).toEqual(['id', 'fullName']);
    expect(tableIds(w)).toEqual(expected(250));
    expect(w.staging.size).toBe(0);
    expect(w.runLog).toHaveLength(1);
    expect(w.runLog[0].slice(2, 10)).toEqual(['Partners', 'replace', 'sidebar', 'done', 250, 250, 3, 3]);
    expect(w.specs[0].last).toMatchObject({ status: 'done', rows: 250 });
  });

  test('a run longer than one step stages its rows and carries on; the result is the same', () => {
    const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec()], { msPerFetch: 1000 });
    const steps = drive(w, 25_000);
    expect(steps.length).toBeGreaterThan(2);
    expect(steps.slice(0, -1).every((s) => s.status === 'running')).toBe(true);
    expect(steps[1].rows).toBeGreaterThan(steps[0].rows);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(tableIds(w)).toEqual(expected(1050));
    expect(w.staging.size).toBe(0);
  });

  test('a second start of a running import carries on the same run', () => {
    const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec()], { msPerFetch: 1000 });
    beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 25_000);
    const runId = w.runs.get('imp1')?.runId;
    beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 25_000);
    expect(w.runs.get('imp1')?.runId).toBe(runId);
  });

  test('merge updates each partner in its own row, adds new ones below, and logs the changes', () => {
    const w = world(fakeList(records(3)).fetch, [spec('merge')]);
    w.own('Partners', [
      ['id', 'fullName', 'Notes'],
      ['p2', 'Old name', 'call back'],
      ['gone', 'X', 'keep me'],
    ]);
    expect(drive(w)[0]).toMatchObject({
      status: 'done',
      message: 'Imported 3 active limited partners into "Partners". 2 new, 1 no longer active, 1 field change.',
    });
    expect(table(w)).toEqual([
      ['id', 'fullName', 'Notes'],
      ['p2', 'Name 2', 'call back'],
      ['gone', 'X', 'keep me'],
      ['p0', 'Name 0', ''],
      ['p1', 'Name 1', ''],
    ]);
    expect(w.changeLog.map((c) => `${c[2]}:${c[3]}`)).toEqual([
      'p0:new partner',
      'p1:new partner',
      'p2:changed',
      'gone:no longer active',
    ]);
  });
});

describe('import state machine: failures', () => {
  const before = [
    ['id', 'fullName'],
    ['old', 'Old'],
  ];

  test('stall: a step that reads nothing because the service fails for now keeps the run; once the refusals spend the budget of the run it fails, saying so, target untouched', () => {
    const w = world(
      fakeList(records(250), {
        fail: () => new ServiceError('RATE_LIMITED', 'Rate limited by the data service, retry in 30 s.'),
      }).fetch,
      [spec()],
    );
    w.own('Partners', before);
    const steps = drive(w, 60_000, 500);
    expect(steps.map((s) => s.status)).toEqual([...Array(GIVE_UP.requests).fill('running'), 'failed']);
    expect(steps[1].message).toBe(
      'Rate limited by the data service, retry in 30 s. Continuing at page 1 in the next step.',
    );
    expect(steps[GIVE_UP.requests].message).toMatch(
      new RegExp(
        `^Rate limited by the data service, retry in 30 s\\. The import gave up after ${GIVE_UP.requests + 1} requests refused and 0 pages read again \\(it may spend ${GIVE_UP.requests} before the list's first page\\), \\d+ (s|minutes?) since the run began\\. The sheet "Partners" keeps its previous data\\.$`,
      ),
    );
    expect(table(w)).toEqual(before);
    expect(w.staging.size).toBe(0);
  });

  test('a step that reads some pages before a transient failure keeps the pages, and the refusal is spent from the budget', () => {
    let failing = true;
    const list = fakeList(records(2500), {
      fail: (page) =>
        failing && page === 22 ? new ServiceError('SERVER', 'The data service failed (HTTP 503).') : undefined,
    });
    const w = world(list.fetch, [spec()]);
    const first = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
    expect(first).toMatchObject({
      status: 'running',
      page: 21,
      rows: 2100,
      message: 'The data service failed (HTTP 503). Continuing at page 22 in the next step.',
    });
    expect(w.runs.get('imp1')?.spent).toEqual({ refused: 1, reread: 0 });
    failing = false;
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000).status).toBe('done');
    expect(tableIds(w)).toEqual(expected(2500));
  });

  test('a final error (key refused) fails the run at once', () => {
    const w = world(
      fakeList(records(250), { fail: () => new ServiceError('AUTH', 'The API key was refused (HTTP 403).') }).fetch,
      [spec()],
    );
    w.own('Partners', before);
    const steps = drive(w);
    expect(steps.map((s) => s.status)).toEqual(['failed']);
    expect(steps[0].message).toBe('The API key was refused (HTTP 403). The sheet "Partners" keeps its previous data.');
    expect(table(w)).toEqual(before);
  });

  test('recheck: a list that changes under a read is read again, and the second read is written', () => {
    const list = fakeList(records(300));
    let calls = 0;
    const w = world(
      (pages, limit) => {
        if (++calls === 2) list.items = list.items.slice(0, 299);
        return list.fetch(pages, limit);
      },
      [spec()],
    );
    const steps = drive(w);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(w.runs.get('imp1')?.pass).toBe(2);
    expect(tableIds(w)).toEqual(expected(299));
  });

  test('a live list is read again while it keeps moving; one that never stops fails once the pages read again spend the budget', () => {
    const moving = (n: number, moves: number) => {
      const list = fakeList(records(n));
      let moved = 0;
      return world(
        (pages, limit) => {
          if (pages.includes(2) && moved < moves) {
            moved++;
            list.items = list.items.slice(1);
          }
          return list.fetch(pages, limit);
        },
        [spec()],
      );
    };
    const short = moving(300, 9);
    expect(drive(short).pop()?.status).toBe('done');
    expect(short.runs.get('imp1')?.pass).toBe(10);
    expect(tableIds(short)).toEqual(expected(300).slice(9));
    // A list whose total moves at every request for page 2: each read ends there, its page 1 read again.
    const list = fakeList(records(300));
    let flip = false;
    const never = world(
      (pages, limit) => {
        if (pages.includes(2)) {
          flip = !flip;
          list.items = records(flip ? 299 : 300);
        }
        return list.fetch(pages, limit);
      },
      [spec()],
    );
    const allowed = GIVE_UP.requests + GIVE_UP.perPage * 3;
    expect(drive(never, 60_000, 500).pop()).toMatchObject({
      status: 'failed',
      message: `Incomplete after ${allowed + 1} reads of the list: it kept changing during the import (last read: the list changed while it was read). The import gave up after 0 requests refused and ${allowed + 1} pages read again (it may spend ${allowed} on a list of 3 pages), 0 s since the last page. The sheet "Partners" keeps its previous data.`,
    });
  });

  test('a list that never adds up is read again until the budget is spent, then fails with the reason; the target is untouched', () => {
    const list = fakeList(records(350), { repeatPage: 3 });
    const w = world(list.fetch, [spec()]);
    w.own('Partners', before);
    const steps = drive(w, 60_000, 500);
    const allowed = GIVE_UP.requests + GIVE_UP.perPage * 4;
    // Each read takes in pages 1 and 2 (page 3 repeats page 2; page 4, read with it, is in too): 3 pages read again.
    const reads = Math.floor(allowed / 3) + 1;
    expect(steps[steps.length - 1]).toMatchObject({
      status: 'failed',
      message: `Incomplete after ${reads} reads of the list: page 3 repeats page 2. The import gave up after 0 requests refused and ${reads * 3} pages read again (it may spend ${allowed} on a list of 4 pages), 0 s since the last page. The sheet "Partners" keeps its previous data.`,
    });
    expect(w.runs.get('imp1')?.pass).toBe(reads);
    expect(table(w)).toEqual(before);
    expect(w.staging.size).toBe(0);
  });

  test('a list page without pagination (malformed, transient) never ends "done": the run fails once its budget is spent', () => {
    const w = world(fakeList(records(350), { dropPagination: true }).fetch, [spec()]);
    w.own('Partners', before);
    const steps = drive(w, 60_000, 500);
    expect(steps.map((s) => s.status)).toEqual([...Array(GIVE_UP.requests).fill('running'), 'failed']);
    expect(table(w)).toEqual(before);
  });

  test('an under-reported total never ends "done" with a short table', () => {
    const w = world(fakeList(records(350), { reportTotal: () => 100 }).fetch, [spec()]);
    w.own('Partners', before);
    const last = drive(w).pop();
    expect(last).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('page 2, past the end, holds 100 more'),
    });
    expect(table(w)).toEqual(before);
  });
});

describe('import state machine: interruptions', () => {
  test('cancel ends a running run, removes its staging area and leaves the target as it was', () => {
    const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec()], { msPerFetch: 1000 });
    w.own('Partners', [
      ['id', 'fullName'],
      ['old', 'Old'],
    ]);
    beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 25_000);
    expect(w.staging.size).toBe(1);
    expect(cancelRun('imp1', w.nextExecution())).toMatchObject({
      status: 'cancelled',
      message: 'The sheet "Partners" keeps its previous data.',
    });
    expect(w.staging.size).toBe(0);
    expect(table(w)).toEqual([
      ['id', 'fullName'],
      ['old', 'Old'],
    ]);
    expect(w.runLog.map((r) => r[5])).toEqual(['cancelled']);
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + 25_000).status).toBe('cancelled');
  });

  test('resume after a kill: an execution killed after staging more rows than its saved cursor says is redone exactly', () => {
    const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec()], { msPerFetch: 1000 });
    beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 25_000);
    const saved = w.runs.get('imp1');
    // The next execution stages a batch and is then killed before it saves its cursor.
    const ports = w.nextExecution();
    const write = ports.staging.write;
    ports.staging.write = (...args) => {
      write(...args);
      w.kill();
    };
    expect(() => continueRun('imp1', ports, w.clock.t + 25_000)).toThrow(Killed);
    expect(w.runs.get('imp1')).toEqual(saved);
    expect((w.staging.get('imp1') ?? []).length - 1).toBeGreaterThan(saved?.staged ?? 0);
    const rest: RunSummary[] = [];
    do rest.push(continueRun('imp1', w.nextExecution(), w.clock.t + 25_000));
    while (rest[rest.length - 1].status === 'running' && rest.length < 50);
    expect(rest[rest.length - 1].status).toBe('done');
    expect(tableIds(w)).toEqual(expected(1050));
  });

  test('a lock held by another execution: the step says so and changes nothing', () => {
    const w = world(fakeList(records(250)).fetch, [spec()]);
    w.lockHeld = true;
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000)).toMatchObject({
      status: 'idle',
      message: LOCKED_MESSAGE,
    });
    expect(w.runs.size).toBe(0);
    expect(w.fetches).toBe(0);
    w.lockHeld = false;
    expect(drive(w).pop()?.status).toBe('done');
  });

  test('a budget already spent reads nothing but keeps the run', () => {
    const w = world(fakeList(records(250)).fetch, [spec()]);
    const s = beginRun('imp1', 'schedule', w.nextExecution(), w.clock.t - 1);
    expect(s).toMatchObject({ status: 'running', rows: 0 });
    expect(w.fetches).toBe(0);
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000).status).toBe('done');
    expect(w.runLog[0][4]).toBe('schedule');
  });
});

describe('import state machine: rate limits do not stall the read', () => {
  test('one page rate-limited with Retry-After 15: the pages after it are held and staged at their place, not asked for again; the next step waits for it alone', () => {
    const list = fakeList(records(2500), { fail: (page, call) => (page === 3 && call < 10 ? limited(15) : undefined) });
    const w = world(list.fetch, [spec()]);
    // A 15 s budget: the wait for page 3 cannot end within the first step.
    const { steps, lengths, notes } = timedDrive(w, 15_000);
    expect(steps[0]).toMatchObject({
      status: 'running',
      page: 2,
      message: 'Rate limited by the data service, retry in 15 s. Continuing at page 3 in the next step.',
    });
    // Pages 4 to 25 are in, the page after the last absent (empty); page 3 waits.
    expect(notes[0]).toMatchObject({ next: 3, slots: `w${'i'.repeat(22)}x` });
    expect(steps[steps.length - 1].status).toBe('done');
    expect(tableIds(w)).toEqual(expected(2500));
    // Every page once, page 3 twice, and page 3 again no sooner than 15 s after it was refused.
    const asked = list.asked.map((a) => a.page);
    expect(asked.filter((p) => p === 3)).toHaveLength(2);
    expect(new Set(asked).size).toBe(asked.length - 1);
    expect(w.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    for (const ms of lengths) expect(ms).toBeLessThanOrEqual(15_000);
  });

  test('each refused page waits for its own Retry-After across steps, not for the longest wait of the step', () => {
    const asked: Array<{ page: number; t: number }> = [];
    let w: World | undefined;
    // Page 3 is refused once with 15 s, page 24 once with 60 s; every other page comes at once.
    const list = fakeList(records(2500), {
      before: (page) => asked.push({ page, t: (w as World).clock.t }),
      fail: (page, call) => (page === 3 && call < 5 ? limited(15) : page === 24 && call < 25 ? limited(60) : undefined),
    });
    w = world(list.fetch, [spec()]);
    // 12 s steps: page 3's wait ends in the second step, page 24's in the sixth.
    const { steps } = timedDrive(w, 12_000);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(tableIds(w)).toEqual(expected(2500));
    const times = (page: number) => asked.filter((a) => a.page === page).map((a) => a.t);
    const [refused, again] = times(3);
    expect(times(3)).toHaveLength(2);
    // Asked again once its own 15 s are over (one fetch of 100 ms after the refusal, and the next step's start), long before page 24's 60 s.
    expect(again - refused).toBeGreaterThanOrEqual(15_000);
    expect(again - refused).toBeLessThan(17_000);
    const [late, lateAgain] = times(24);
    expect(lateAgain - late).toBeGreaterThanOrEqual(60_000);
  });

  test('page 1 refused before the list is known waits its Retry-After across steps too (not asked again as the next step starts)', () => {
    const asked: number[] = [];
    let w: World | undefined;
    let refusals = 0;
    const list = fakeList(records(500), {
      before: (page) => page === 1 && asked.push((w as World).clock.t),
      fail: (page) => (page === 1 && refusals++ < 2 ? limited(15) : undefined),
    });
    w = world(list.fetch, [spec()]);
    const { steps } = timedDrive(w, 12_000);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(tableIds(w)).toEqual(expected(500));
    // Page 1 asked three times, each again no sooner than 15 s after its refusal (one fetch of 100 ms).
    expect(asked).toHaveLength(3);
    expect(asked[1] - asked[0]).toBeGreaterThanOrEqual(15_000);
    expect(asked[2] - asked[1]).toBeGreaterThanOrEqual(15_000);
  });

  test('while page 1 waits for its Retry-After no other page is asked for: page 1 tells the size, then each page is asked once', () => {
    const firstAsked = new Map<number, number>();
    let w: World | undefined;
    let refusals = 0;
    const list = fakeList(records(5000), {
      before: (page) => firstAsked.has(page) || firstAsked.set(page, (w as World).clock.t),
      fail: (page) => (page === 1 && refusals++ < 1 ? limited(15) : undefined),
    });
    w = world(list.fetch, [spec()], { msPerFetch: 20 });
    const start = w.clock.t;
    const { steps, lengths } = timedDrive(w, 20_000);
    expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: 5000 });
    expect(tableIds(w)).toEqual(expected(5000));
    // No page of the list was asked for before page 1 came (15 s after its refusal).
    for (let p = 2; p <= 50; p++) expect((firstAsked.get(p) as number) - start).toBeGreaterThanOrEqual(15_000);
    const asked = list.asked.map((a) => a.page);
    expect(asked.filter((p) => p === 1)).toHaveLength(2);
    expect(new Set(asked).size).toBe(asked.length - 1);
    expect(steps).toHaveLength(1);
    for (const ms of lengths) expect(ms).toBeLessThanOrEqual(20_000);
  });

  test('a short list whose page 1 is refused once ends right, whatever the service answers past the end (empty, 404, clamped)', () => {
    for (const pastEnd of ['empty', '404', 'clamp'] as const) {
      for (const n of [0, 50, 100, 150, 300, 2500]) {
        let refusals = 0;
        const list = fakeList(records(n), {
          pastEnd,
          fail: (page) => (page === 1 && refusals++ < 1 ? limited(15) : undefined),
        });
        const w = world(list.fetch, [spec()]);
        const { steps } = timedDrive(w, 20_000);
        expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: n });
        expect(tableIds(w)).toEqual(expected(n));
      }
    }
  });

  test('a page 1 that waits past the step: no other page is asked for meanwhile, and none twice', () => {
    let refusals = 0;
    const list = fakeList(records(5000), { fail: (page) => (page === 1 && refusals++ < 2 ? limited(15) : undefined) });
    const w = world(list.fetch, [spec()], { msPerFetch: 20 });
    // 12 s steps: page 1's two waits of 15 s end two steps later.
    const { steps } = timedDrive(w, 12_000);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: 5000 });
    expect(tableIds(w)).toEqual(expected(5000));
    const asked = list.asked.map((a) => a.page);
    expect(asked.filter((p) => p === 1)).toHaveLength(3);
    expect(new Set(asked).size).toBe(asked.length - 2);
  });

  test('a read that ends too late to write the table leaves the writing to the next step', () => {
    // Slow requests (2 s each): the last page is in 0.5 s before the end, less than the 1.015 s the write needs.
    const w = world(fakeList(records(300)).fetch, [spec()], { msPerFetch: 2000 });
    const deadline = w.clock.t + 8520;
    const first = beginRun('imp1', 'sidebar', w.nextExecution(), deadline);
    expect(first).toMatchObject({ status: 'running', page: 3, rows: 300 });
    expect(w.clock.t).toBeLessThanOrEqual(deadline);
    expect(w.tables.get('Partners')).toBeUndefined();
    const second = continueRun('imp1', w.nextExecution(), w.clock.t + 20_000);
    expect(second.status).toBe('done');
    expect(tableIds(w)).toEqual(expected(300));
  });
});

describe('import state machine: a service that says when to come back', () => {
  const limited = new ServiceError('RATE_LIMITED', 'Rate limited by the data service, retry in 15 s.', {
    retryAfterMs: 15_000,
  });

  test('the last page refused 8 times in a row (one attempt a step) is waited for, not given up', () => {
    let refusals = 0;
    const list = fakeList(records(250), { fail: (page) => (page === 3 && refusals++ < 8 ? limited : undefined) });
    const w = world(list.fetch, [spec()]);
    const steps = drive(w, 14_000);
    expect(steps.length).toBeGreaterThan(4);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(tableIds(w)).toEqual(expected(250));
  });

  test(`a service that never stops refusing fails the run once ${GIVE_UP.withoutPageMs / 60_000} minutes pass without a page, target untouched`, () => {
    const w = world(fakeList(records(250), { fail: (page) => (page === 2 ? limited : undefined) }).fetch, [spec()]);
    w.own('Partners', [
      ['id', 'fullName'],
      ['old', 'Old'],
    ]);
    const steps = drive(w, 20_000, 200);
    const last = steps[steps.length - 1];
    expect(last).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(
        /^Rate limited by the data service, retry in 15 s\. The import gave up after \d+ requests refused and 0 pages read again \(it may spend 109 on a list of 3 pages\), 10 minutes since the last page\. The sheet "Partners" keeps its previous data\.$/,
      ),
    });
    expect(w.clock.t - 1_000_000).toBeGreaterThan(GIVE_UP.withoutPageMs);
    expect(w.clock.t - 1_000_000).toBeLessThan(GIVE_UP.withoutPageMs + 60_000);
    expect(table(w)).toEqual([
      ['id', 'fullName'],
      ['old', 'Old'],
    ]);
  });
});

/** The next execution's ports, reading pages through the real client over `transport` on the world's clock. */
function overClient(w: World, transport: Transport) {
  const client = new Client({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'k_machine_1234',
    transport,
    clock: {
      now: () => w.clock.t,
      sleep: (ms) => {
        w.clock.t += ms;
      },
    },
    parallelism: 100,
  });
  const p = w.nextExecution();
  p.pages = {
    fetch: (pages, limit, until) => client.activePartnerPages(pages, limit, { until }),
    counters: () => ({ fetches: client.stats.fetches, retries: client.stats.retries }),
  };
  return p;
}

/** A scheduled run over the real client, step after step (5 minutes each) until it stops running or 30 steps. */
function scheduledOverClient(w: World, transport: Transport): RunSummary[] {
  const seen = [beginRun('imp1', 'schedule', overClient(w, transport), w.clock.t + 300_000)];
  while (seen[seen.length - 1].status === 'running' && seen.length < 30)
    seen.push(continueRun('imp1', overClient(w, transport), w.clock.t + 300_000));
  return seen;
}

/**
 * A service whose page 1 (of 50) answers, then whose every batch throws `message` after `ms` of the
 * clock (UrlFetchApp.fetchAll, under the add-in's own transport); counts the requests.
 */
function failingAfterPage1(w: World, ms: number, message: string) {
  const counted = { sends: 0 };
  const send = (reqs: readonly HttpRequest[]): HttpResponse[] => {
    const first = counted.sends === 0;
    counted.sends += reqs.length;
    w.clock.t += first ? 200 : ms;
    if (!first) throw new Error(message);
    const data = Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, fullName: 'x' }));
    return reqs.map(() =>
      json(200, { data, pagination: { totalItems: 5000, totalPages: 50, currentPage: 1, pageSize: 100 } }),
    );
  };
  return { transport: perRequest(send, () => w.clock.t), counted };
}

describe('import state machine: over the real client', () => {
  test('a service whose batches time out (UrlFetchApp throws after 60 s) fails the run after a few steps, with the real error', () => {
    const w = world(() => [], [spec()]);
    const { transport, counted } = failingAfterPage1(w, 60_000, 'Exception: Timeout: http://127.0.0.1/x');
    const seen = scheduledOverClient(w, transport);
    const last = seen[seen.length - 1];
    expect(last.status).toBe('failed');
    expect(seen.length).toBeLessThanOrEqual(6);
    expect(last.message).toMatch(/did not answer in time/);
    expect(counted.sends).toBeLessThan(400);
  });

  test('a service that cannot be reached after page 1: the run fails after a few steps without asking each page many times', () => {
    const w = world(() => [], [spec()]);
    const { transport, counted } = failingAfterPage1(w, 1000, 'Exception: Address unavailable: http://127.0.0.1/x');
    const seen = scheduledOverClient(w, transport);
    expect(seen[seen.length - 1].status).toBe('failed');
    expect(seen.length).toBeLessThanOrEqual(6);
    // 49 pages, each sent in its batch, then alone, then retried: a few hundred requests, not thousands.
    expect(counted.sends).toBeLessThan(500);
  });

  test('one batch that cannot be sent (fetchAll throws once) does not end the sidebar step: the list is read in one step', () => {
    const w = world(() => [], [spec()]);
    let batches = 0;
    const send = (reqs: readonly HttpRequest[]): HttpResponse[] => {
      batches++;
      w.clock.t += 600;
      if (batches === 2) throw new Error('Exception: Address unavailable: http://127.0.0.1/x');
      return reqs.map((r) => {
        const page = Number(/page=(\d+)/.exec(r.url)?.[1]);
        const data = page > 40 ? [] : Array.from({ length: 100 }, (_, i) => ({ id: `p${page}_${i}`, fullName: 'x' }));
        return json(200, { data, pagination: { totalItems: 4000, totalPages: 40, currentPage: page, pageSize: 100 } });
      });
    };
    const transport = perRequest(send, () => w.clock.t);
    const first = beginRun('imp1', 'sidebar', overClient(w, transport), w.clock.t + 20_000);
    expect(first.status).toBe('done');
  });
});

describe('import state machine: replace owns what it wrote, by record', () => {
  test('killed at every write point of a replace, the sheet holds the old table or the new one, and the next run accepts it', () => {
    const first = () => {
      const w = world(fakeList(records(250)).fetch, [spec()]);
      expect(drive(w).pop()?.status).toBe('done');
      return w;
    };
    const old = table(first());
    const list = fakeList(records(300));
    // Counting the write points: port calls from the table's tag being marked pending to the run's last save.
    const counted = first();
    const ports = counted.nextExecution();
    ports.pages = { ...ports.pages, fetch: (pages, limit) => list.fetch(pages, limit) };
    counted.writes.length = 0;
    expect(beginRun('imp1', 'sidebar', ports, counted.clock.t + 60_000).status).toBe('done');
    const fresh = table(counted);
    expect(counted.writes).toEqual(['tag', 'table', 'tag']);
    for (let point = 0; point <= counted.writes.length; point++) {
      const w = first();
      const p = w.nextExecution();
      p.pages = { ...p.pages, fetch: (pages, limit) => list.fetch(pages, limit) };
      let writes = 0;
      for (const name of ['record', 'write', 'commit'] as const) {
        const real = p.target[name] as (...a: unknown[]) => void;
        (p.target[name] as (...a: unknown[]) => void) = (...a: unknown[]) => {
          if (writes++ === point) w.kill();
          real(...a);
        };
      }
      const killed = () => beginRun('imp1', 'sidebar', p, w.clock.t + 60_000);
      if (point < counted.writes.length) expect(killed).toThrow(Killed);
      else expect(killed().status).toBe('done');
      expect([old, fresh]).toContainEqual(table(w));
      const next = w.nextExecution();
      next.pages = { ...next.pages, fetch: (pages, limit) => list.fetch(pages, limit) };
      const after =
        w.runs.get('imp1')?.status === 'running'
          ? continueRun('imp1', next, w.clock.t + 60_000)
          : beginRun('imp1', 'sidebar', next, w.clock.t + 60_000);
      expect(after.status).toBe('done');
      expect(table(w)).toEqual(fresh);
    }
  });

  test("a sorted table stays the import's; an edited value is kept and named until the edit is undone; Replace anyway overwrites it", () => {
    const w = world(fakeList(records(5)).fetch, [spec()]);
    expect(drive(w).pop()?.status).toBe('done');
    const t = table(w) as OutCell[][];
    w.tables.set('Partners', [t[0], ...t.slice(1).reverse()]);
    expect(drive(w).pop()?.status).toBe('done');
    const edited = (table(w) as OutCell[][]).map((r) => [...r]);
    edited[3][1] = 'Corrected';
    w.tables.set('Partners', edited);
    const refused = drive(w).pop();
    expect(refused?.message).toContain('"Partners" is not as the import left it (B4 (edited)).');
    expect(table(w)).toEqual(edited);
    const scheduled = beginRun('imp1', 'schedule', w.nextExecution(), w.clock.t + 60_000);
    expect(scheduled.status).toBe('failed');
    expect(w.runLog[w.runLog.length - 1][RUN_LOG_HEADER.indexOf('Message')]).toContain('(B4 (edited))');
    expect(table(w)).toEqual(edited);
    edited[3][1] = 'Name 2';
    expect(drive(w).pop()?.status).toBe('done');
    edited[3][1] = 'Corrected';
    w.tables.set('Partners', edited);
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000, { force: true }).status).toBe('done');
    expect((table(w) as OutCell[][])[3][1]).toBe('Name 2');
  });

  test('killed between writing the table and saving its state, the next execution finishes instead of refusing its own output', () => {
    const w = world(fakeList(records(250)).fetch, [spec()]);
    expect(drive(w).pop()?.status).toBe('done');
    // More columns and more rows than the last completed run wrote.
    w.specs[0] = { ...w.specs[0], fields: ['id', 'fullName', 'firm'] };
    const list = fakeList(records(300));
    const ports = w.nextExecution();
    ports.pages = { ...ports.pages, fetch: (pages, limit) => list.fetch(pages, limit) };
    const write = ports.target.write;
    ports.target.write = (...args) => {
      write(...args);
      w.kill();
    };
    expect(() => beginRun('imp1', 'sidebar', ports, w.clock.t + 60_000)).toThrow(Killed);
    expect(table(w)?.[0]).toEqual(['id', 'fullName', 'firm']);
    const next = w.nextExecution();
    next.pages = { ...next.pages, fetch: (pages, limit) => list.fetch(pages, limit) };
    expect(continueRun('imp1', next, w.clock.t + 60_000).status).toBe('done');
    expect(tableIds(w)).toEqual(expected(300));
  });

  test("pointed at another sheet, an import does not take that sheet's rows without ids for its own", () => {
    const w = world(fakeList(records(250)).fetch, [spec()]);
    expect(drive(w).pop()?.status).toBe('done');
    const plan = [
      ['id', 'fullName'],
      ['', 'Prospect 1'],
      ['', 'Prospect 2'],
    ];
    w.tables.set('Plan', plan);
    w.specs[0] = { ...w.specs[0], sheetName: 'Plan' };
    const last = drive(w).pop();
    expect(last?.status).toBe('failed');
    expect(last?.message).toContain(
      'Replace stopped: "Plan" holds cells the import did not write (A1, B1, B2 and 1 more).',
    );
    expect(w.tables.get('Plan')).toEqual(plan);
  });

  test('a table write that fails leaves no claim on the rows it would have written: rows the analyst adds later stay theirs', () => {
    const w = world(fakeList(records(3)).fetch, [spec()]);
    expect(drive(w).pop()?.status).toBe('done');
    const big = fakeList(records(10));
    const ports = w.nextExecution();
    ports.pages = { ...ports.pages, fetch: (pages, limit) => big.fetch(pages, limit) };
    ports.target.write = () => {
      throw new Error(
        'Exception: This action would increase the number of cells in the workbook above the limit of 10000000 cells.',
      );
    };
    expect(beginRun('imp1', 'sidebar', ports, w.clock.t + 60_000).status).toBe('failed');
    const mine = [...(table(w) ?? []), ['manual-1', 'My prospect A'], ['manual-2', 'My prospect B']];
    w.tables.set('Partners', mine);
    const last = drive(w).pop();
    expect(last?.status).toBe('failed');
    expect(last?.message).toContain(
      'Replace stopped: "Partners" is not as the import left it (A5 (edited), B5 (edited), A6 (edited) and 1 more).',
    );
    expect(table(w)).toEqual(mine);
  });
});

describe('import state machine: listed records without a usable id', () => {
  /** 250 partners, five of them without a usable id: empty, missing, blank, and 1 beside "1". */
  const hostile = () => {
    const items = records(250);
    items[10] = { ...items[10], id: '' };
    items[20] = { fullName: 'No id at all' };
    items[30] = { ...items[30], id: 1 };
    items[31] = { ...items[31], id: '1' };
    items[40] = { ...items[40], id: '   ' };
    return fakeList(items);
  };
  const usable = expected(250)
    .map((id) => (id === 'p31' ? '1' : id))
    .filter((id) => !['p10', 'p20', 'p30', 'p40'].includes(id as string));

  test('are skipped and counted in the run log with the reason, in one read of the list; the table holds only usable ids', () => {
    const list = hostile();
    const w = world(list.fetch, [spec()]);
    const steps = drive(w);
    expect(steps.map((s) => s.status)).toEqual(['done']);
    expect(list.asked).toHaveLength(3);
    const message =
      'Imported 246 active limited partners into "Partners". Skipped 4 listed records: 3 without an id, 1 whose id is not text.';
    expect(steps[0].message).toBe(message);
    expect(tableIds(w)).toEqual(usable);
    expect(w.runLog[0]).toContain(message);
  });

  test('a later replace run takes its own table back (no row it would refuse was written), and a merge writes none either', () => {
    const w = world(hostile().fetch, [spec()]);
    expect(drive(w).pop()?.status).toBe('done');
    expect(drive(w).pop()?.status).toBe('done');
    expect(tableIds(w)).toEqual(usable);
    const m = world(hostile().fetch, [spec('merge')]);
    m.own('Partners', [
      ['id', 'fullName', 'Notes'],
      ['p2', 'Old name', 'call back'],
    ]);
    expect(drive(m).pop()?.status).toBe('done');
    expect(tableIds(m).filter((id) => id === '' || typeof id !== 'string' || !id.trim())).toEqual([]);
  });
});
