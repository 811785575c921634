/**
 * The time a step needs to start at all (src/import/machine.ts step): the client's margin and the
 * fixed part of a write. A step given exactly that much carries on the run (here: writes the table
 * of a read that ended too late in the step before); one given a millisecond less leaves the run
 * as it is, for a step with time. Driven over the in-memory ports with slow requests.
 */
import { DEADLINE_MARGIN_MS } from '../../../src/api/client';
import { beginRun, continueRun, WRITE_MARGIN, writeMargin } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** 250 partners in three pages of 4 s each, the read over 1 ms too late to write the table in its step. */
function readOver() {
  const w = world(fakeList(records(250)).fetch, [spec], { msPerFetch: 4000 });
  const first = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 12_000 + writeMargin(250, 2) - 1);
  expect(first).toMatchObject({ status: 'running', rows: 250 });
  expect(w.tables.has('Partners')).toBe(false);
  return w;
}

const least = DEADLINE_MARGIN_MS + WRITE_MARGIN.fixedMs;

test('a step given just the time a step needs to start writes the table of a read already over', () => {
  const w = readOver();
  expect(continueRun('imp1', w.nextExecution(), w.clock.t + least).status).toBe('done');
  expect(w.tables.get('Partners')).toHaveLength(251);
});

test('a step given a millisecond less leaves the run as it is', () => {
  const w = readOver();
  const before = w.runs.get('imp1');
  expect(continueRun('imp1', w.nextExecution(), w.clock.t + least - 1).status).toBe('running');
  expect(w.tables.has('Partners')).toBe(false);
  expect(w.runs.get('imp1')).toEqual(before);
});
