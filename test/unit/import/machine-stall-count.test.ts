/**
 * Counting the steps in a row that read nothing (src/import/machine.ts): a step that reads pages
 * resets the count even when it ends on its budget, one that reads nothing without a failure (its
 * budget already spent) neither resets nor adds to it, and a service that says when to come back is
 * waited for from the last page read, not from the start of the run. Driven over the in-memory ports.
 */
import { ServiceError } from '../../../src/api/errors';
import { beginRun, continueRun, MAX_STALLS } from '../../../src/import/machine';
import type { RunSummary } from '../../../src/import/run-state';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };
const outage = () => new ServiceError('SERVER', 'The data service failed (HTTP 503).');
const inARow = (n: number) =>
  `(${n} ${n === 1 ? 'step' : 'steps'} in a row without a page; the run fails after ${MAX_STALLS + 1} steps)`;

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

test('a step that reads pages and ends on its budget resets the count', () => {
  let failing = true;
  const { next } = setup(() => (failing ? outage() : undefined));
  expect(next().message).not.toContain('in a row');
  failing = false;
  expect(next()).toMatchObject({ status: 'running', message: expect.stringMatching(/^Page \d+ of 100$/) });
  failing = true;
  const after = next();
  expect(after.status).toBe('running');
  expect(after.message).not.toContain('in a row');
});

test('a step that reads nothing without a failure (its budget spent) leaves the count as it was', () => {
  const { w, next } = setup(outage);
  expect(next().message).not.toContain('in a row');
  expect(next(0).status).toBe('running');
  expect(w.runs.get('imp1')?.stalls).toBe(1);
  expect(next().message).toContain(inARow(2));
});

test('a service that says when to come back is waited for from the last page read, not from the start', () => {
  let refusing = false;
  const { w, next } = setup(() => (refusing ? limited(1) : undefined));
  expect(next().status).toBe('running');
  // The analyst comes back much later; the run goes on, then the service refuses every request.
  w.clock.t += 20 * 60_000;
  expect(next().status).toBe('running');
  refusing = true;
  const stalled = Array.from({ length: MAX_STALLS + 2 }, () => next());
  expect(stalled.map((s) => s.status)).toEqual(Array(MAX_STALLS + 2).fill('running'));
});
