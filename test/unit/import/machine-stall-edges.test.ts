/**
 * The edges of the rule that fails a run which reads nothing (src/import/machine.ts): a step that
 * starts with just enough time to run but none to ask for a page neither resets nor adds to the
 * steps in a row without a page; a service that says when to come back is waited for up to
 * MAX_WAIT_WITHOUT_PAGE_MS without a page, that long included. Driven over the in-memory ports.
 */
import { DEADLINE_MARGIN_MS } from '../../../src/api/client';
import { ServiceError } from '../../../src/api/errors';
import {
  beginRun,
  continueRun,
  FIRST_PAGE_LIMIT,
  MAX_STALLS,
  MAX_WAIT_WITHOUT_PAGE_MS,
  WRITE_MARGIN,
  writeMargin,
} from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };
const outage = () => new ServiceError('SERVER', 'The data service failed (HTTP 503).');

test('a step with time to run but none to ask for a page keeps the count of steps without a page', () => {
  const w = world(fakeList(records(1000), { fail: outage }).fetch, [spec]);
  const steps = [beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 15_000)];
  for (let k = 1; k < MAX_STALLS; k++) steps.push(continueRun('imp1', w.nextExecution(), w.clock.t + 15_000));
  expect(steps.map((s) => s.status)).toEqual(Array(MAX_STALLS).fill('running'));
  const fetches = w.fetches;
  const idle = continueRun('imp1', w.nextExecution(), w.clock.t + DEADLINE_MARGIN_MS + WRITE_MARGIN.fixedMs);
  expect(idle.status).toBe('running');
  expect(w.fetches).toBe(fetches);
  expect(w.runs.get('imp1')?.stalls).toBe(MAX_STALLS);
  expect(continueRun('imp1', w.nextExecution(), w.clock.t + 15_000).status).toBe('failed');
});

describe('a service that keeps saying when to come back', () => {
  /**
   * Every request refused for 30 s, no request costing time, the steps 30 s apart: each step asks
   * for page 1, then sleeps to the end of the time it may ask in (its deadline less the client's
   * margin and the write of a page as long as the limit asks for).
   * The step that counts one more than MAX_STALLS starts 10 s before it ends, `waited` ms after the
   * run's start.
   */
  function stalledFor(waited: number): string {
    const w = world(fakeList(records(5000), { fail: () => limited(30) }).fetch, [spec], { msPerFetch: 0 });
    const start = w.clock.t;
    const kept = DEADLINE_MARGIN_MS + writeMargin(FIRST_PAGE_LIMIT, spec.fields.length);
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), start + 20_000).status).toBe('running');
    for (let k = 1; k < MAX_STALLS; k++) {
      w.clock.t += 30_000;
      expect(continueRun('imp1', w.nextExecution(), w.clock.t + 20_000).status).toBe('running');
    }
    w.clock.t = start + waited - 10_000;
    const last = continueRun('imp1', w.nextExecution(), start + waited + kept);
    expect(w.clock.t - start).toBe(waited);
    expect(w.runs.get('imp1')?.stalls).toBe(MAX_STALLS + 1);
    return last.status;
  }

  test('a run that waited exactly that long without a page goes on', () => {
    expect(stalledFor(MAX_WAIT_WITHOUT_PAGE_MS)).toBe('running');
  });

  test('a millisecond more and it fails', () => {
    expect(stalledFor(MAX_WAIT_WITHOUT_PAGE_MS + 1)).toBe('failed');
  });
});
