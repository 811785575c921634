/**
 * The one give-up budget of an import run (src/import/machine.ts GIVE_UP): every refusal of a page
 * spends a request, and so does every page of a read done again; the run fails once it has spent
 * more than the budget allows for its list, or once too long passed without a page, and says what
 * it spent. A step that asks for nothing spends nothing; the time is counted from the last page
 * read, not from the start; the limits hold to the millisecond. Driven over the in-memory ports.
 */
import { DEADLINE_MARGIN_MS } from '../../../src/api/client';
import { ServiceError } from '../../../src/api/errors';
import {
  beginRun,
  continueRun,
  FIRST_PAGE_LIMIT,
  GIVE_UP,
  WRITE_MARGIN,
  writeMargin,
} from '../../../src/import/machine';
import type { RunSummary } from '../../../src/import/run-state';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };
const outage = () => new ServiceError('SERVER', 'The data service failed (HTTP 503).');

/** A long list read in steps of 15 s, failing every request while `refusing()` says so. */
function setup(refusing: () => ServiceError | undefined): { w: World; next: (budget?: number) => RunSummary } {
  const w = world(fakeList(records(10_000), { fail: () => refusing() }).fetch, [spec], { msPerFetch: 1000 });
  let started = false;
  const next = (budget = 15_000) => {
    const ports = w.nextExecution();
    const deadline = w.clock.t + budget;
    if (started) return continueRun('imp1', ports, deadline);
    started = true;
    return beginRun('imp1', 'sidebar', ports, deadline);
  };
  return { w, next };
}

test('each refused request is spent, pages read are not; a step with time to run but none to ask spends nothing', () => {
  let failing = true;
  const { w, next } = setup(() => (failing ? outage() : undefined));
  expect(next().status).toBe('running');
  expect(w.runs.get('imp1')?.spent).toEqual({ refused: 1, reread: 0 });
  failing = false;
  expect(next()).toMatchObject({ status: 'running', message: expect.stringMatching(/^Page \d+ of 100$/) });
  expect(w.runs.get('imp1')?.spent).toEqual({ refused: 1, reread: 0 });
  failing = true;
  const fetches = w.fetches;
  const idle = next(DEADLINE_MARGIN_MS + WRITE_MARGIN.fixedMs);
  expect(idle.status).toBe('running');
  expect(w.fetches).toBe(fetches);
  expect(w.runs.get('imp1')?.spent).toEqual({ refused: 1, reread: 0 });
});

test('a service that says when to come back is waited for from the last page read, not from the start', () => {
  let refusing = false;
  const { w, next } = setup(() => (refusing ? limited(1) : undefined));
  expect(next().status).toBe('running');
  // The analyst comes back much later; the run goes on, then the service refuses every request.
  w.clock.t += 20 * 60_000;
  expect(next().status).toBe('running');
  refusing = true;
  const stalled = Array.from({ length: 5 }, () => next());
  expect(stalled.map((s) => s.status)).toEqual(Array(5).fill('running'));
});

test('refusals beyond what the budget allows for the list fail the run, which says what it spent', () => {
  const { w, next } = setup(outage);
  const steps = [next()];
  while (steps[steps.length - 1].status === 'running' && steps.length < 500) steps.push(next());
  // Page 1 never came: the list has no pages yet, and the run may spend the budget's requests alone.
  expect(steps).toHaveLength(GIVE_UP.requests + 1);
  expect(steps[steps.length - 1].message).toMatch(
    new RegExp(
      `^The data service failed \\(HTTP 503\\)\\. The import gave up after ${GIVE_UP.requests + 1} requests refused and 0 pages read again \\(it may spend ${GIVE_UP.requests} before the list's first page\\), \\d+ (s|minutes?) since the run began\\.`,
    ),
  );
  expect(w.tables.get('Partners')).toBeUndefined();
});

test('the time since the run began reads in seconds under a minute, in minutes from a minute on', () => {
  /** Every request refused, none costing time, the steps `gap` ms apart: the run gives up at its 101st refusal, 100 gaps after it began. */
  const since = (gap: number) => {
    const w = world(fakeList(records(5000), { fail: outage }).fetch, [spec], { msPerFetch: 0 });
    let last = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 15_000);
    while (last.status === 'running') {
      w.clock.t += gap;
      last = continueRun('imp1', w.nextExecution(), w.clock.t + 15_000);
    }
    return last.message.replace(/^.*\), (.*) since the run began\..*$/, '$1');
  };
  expect(since(510)).toBe('51 s');
  expect(since(600)).toBe('1 minute');
});

describe('a service that keeps saying when to come back', () => {
  /**
   * Every request refused for 30 s, no request costing time, the steps 30 s apart: each step asks
   * for page 1, then sleeps to the end of the time it may ask in (its deadline less the client's
   * margin and the write of a page as long as the limit asks for). The fourth step starts 10 s
   * before it ends, `waited` ms after the run's start.
   */
  function stalledFor(waited: number): string {
    const w = world(fakeList(records(5000), { fail: () => limited(30) }).fetch, [spec], { msPerFetch: 0 });
    const start = w.clock.t;
    const kept = DEADLINE_MARGIN_MS + writeMargin(FIRST_PAGE_LIMIT, spec.fields.length);
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), start + 20_000).status).toBe('running');
    for (let k = 1; k < 3; k++) {
      w.clock.t += 30_000;
      expect(continueRun('imp1', w.nextExecution(), w.clock.t + 20_000).status).toBe('running');
    }
    w.clock.t = start + waited - 10_000;
    const last = continueRun('imp1', w.nextExecution(), start + waited + kept);
    expect(w.clock.t - start).toBe(waited);
    return last.status;
  }

  test('a run that waited exactly that long without a page goes on', () => {
    expect(stalledFor(GIVE_UP.withoutPageMs)).toBe('running');
  });

  test('a millisecond more and it fails', () => {
    expect(stalledFor(GIVE_UP.withoutPageMs + 1)).toBe('failed');
  });
});

describe('a step does not wait past the time without a page', () => {
  const STEP = 300_000;
  /** Page 1 in; page 2 refused for 30 s at each of its first `refusals` requests (every request when none is given). */
  function refusingPage2(refusals = Number.POSITIVE_INFINITY): World {
    let refused = 0;
    const fail = (page: number) => (page === 2 && refused++ < refusals ? limited(30) : undefined);
    return world(fakeList(records(250), { fail }).fetch, [spec], { msPerFetch: 0 });
  }

  /** Steps of 5 minutes back to back until the run ends (six at most): its last summary. */
  function stepsOf5Minutes(w: World): RunSummary {
    let last = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + STEP);
    for (let k = 0; last.status === 'running' && k < 5; k++)
      last = continueRun('imp1', w.nextExecution(), w.clock.t + STEP);
    return last;
  }

  test('steps of 5 minutes back to back: the run fails in the step the limit falls in, as the limit passes', () => {
    const w = refusingPage2();
    const start = w.clock.t;
    const last = stepsOf5Minutes(w);
    expect(last).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(
        /^Rate limited by the data service, retry in 30 s\. The import gave up after \d+ requests refused .*, 10 minutes since the last page\./,
      ),
    });
    expect(w.clock.t - start).toBe(GIVE_UP.withoutPageMs + 1);
  });

  test('page 1 never comes, steps of 5 minutes: the run fails as the limit passes, counted from its start', () => {
    const w = world(fakeList(records(250), { fail: () => limited(30) }).fetch, [spec], { msPerFetch: 0 });
    const start = w.clock.t;
    const last = stepsOf5Minutes(w);
    expect(last).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/10 minutes since the run began\./),
    });
    expect(w.clock.t - start).toBe(GIVE_UP.withoutPageMs + 1);
  });

  test('a step that begins as the limit passes (a gap between steps) asks first: an answer then carries the run on', () => {
    // Refused twice in the first step, once more in the next, then answered.
    const w = refusingPage2(3);
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 40_000).status).toBe('running');
    const lastPage = w.runs.get('imp1')?.progressAt as number;
    w.clock.t = lastPage + GIVE_UP.withoutPageMs + 1;
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + STEP)).toMatchObject({ status: 'done', rows: 250 });
  });

  test('so does one that begins an hour after the last page', () => {
    const w = refusingPage2(3);
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 40_000).status).toBe('running');
    w.clock.t += 3_600_000;
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + STEP)).toMatchObject({ status: 'done', rows: 250 });
  });
});
