/**
 * An import against a service that serves the active list on its second listed path only, its
 * first path answering 404 late: the time a step runs out of is never an answer. A call the step
 * could not make or finish (the second path included) is asked in the next step, on the path the
 * first one moved to, and the run ends done with every partner. Driven over the in-memory ports
 * with the real client on a scripted transport, the clock modelled (each answer advances it).
 */
import { Client } from '../../../src/api/client';
import { OPERATIONS } from '../../../src/api/operations';
import { beginRun, continueRun } from '../../../src/import/machine';
import type { RunSummary } from '../../../src/import/run-state';
import type { ImportSpec } from '../../../src/import/spec';
import { memoFor, TEST_BASE } from '../../helpers/client-setup';
import { records } from '../../helpers/fake-list';
import { idsBelowHeader, world } from '../../helpers/fake-ports';
import { FakeClock, FakeTransport, json, LimitedStore, pageAnswer } from '../../helpers/fakes';

const KEY = 'key-for-tests-1';
const [LISTED, SAMPLE] = OPERATIONS.getAllActiveLimitedPartners.paths;
const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** The list on the sample path only (100 a page, 50 ms an answer); the listed path answers 404 after `notFoundMs`. */
function service(clock: FakeClock, partners: number, notFoundMs: number) {
  const items = records(partners);
  const asked: string[] = [];
  const transport = new FakeTransport((url) => {
    asked.push(url.pathname);
    if (url.pathname === LISTED) {
      clock.t += notFoundMs;
      return json(404, { error: 'Not found' });
    }
    clock.t += 50;
    if (url.pathname !== SAMPLE) return json(404, { error: 'Not found' });
    return pageAnswer(items, url);
  });
  return { items, asked, transport };
}

/** Sidebar steps of `budget` ms, each a new execution with its own client (the memo shared, as the cache is). */
function drive(partners: number, notFoundMs: number, budget: number) {
  const clock = new FakeClock();
  const svc = service(clock, partners, notFoundMs);
  const w = world(() => [], [spec]);
  w.clock = clock;
  const store = new LimitedStore(clock);
  const steps: RunSummary[] = [];
  do {
    const start = clock.now();
    const ports = w.nextExecution();
    const memo = memoFor(store, clock, KEY);
    const client = new Client({
      baseUrl: TEST_BASE,
      apiKey: KEY,
      transport: svc.transport,
      clock,
      memo,
      random: () => 0.5,
      deadline: start + budget,
    });
    ports.pages = {
      fetch: (pages, limit, until) => client.activePartnerPages(pages, limit, { until }),
      counters: () => ({ fetches: client.stats.fetches, retries: client.stats.retries }),
    };
    const deadline = start + budget;
    steps.push(steps.length ? continueRun('imp1', ports, deadline) : beginRun('imp1', 'sidebar', ports, deadline));
  } while (steps[steps.length - 1].status === 'running' && steps.length < 50);
  return { steps, w, svc };
}

describe("the second listed path: a call this step could not make is the next step's, never a 404 verdict", () => {
  test.each([
    ['the first path answers 404 after 10 s, in a 20 s sidebar step', 10_000, 20_000],
    ['the first path answers 404 after 3 s, in a step too short to ask the second path', 3_000, 5_500],
  ])('%s: the import ends done with every partner', (_, notFoundMs, budget) => {
    const { steps, w, svc } = drive(1_250, notFoundMs, budget);
    const last = steps[steps.length - 1];
    expect(last.message).not.toContain('Not found');
    expect(last.status).toBe('done');
    expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(svc.items.map((r) => r.id));
    // The first path is asked once: the path the call moved to is the one every later step asks first.
    expect(svc.asked.filter((p) => p === LISTED)).toHaveLength(1);
  });
});
