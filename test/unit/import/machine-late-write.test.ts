/**
 * A read that ends too close to its step's end to write the table (src/import/machine.ts): it
 * leaves the writing to the next step; one that ends with just the time the write needs writes in
 * the same step. Driven over the in-memory ports with slow requests, so the time each page comes in
 * is known.
 */
import { beginRun, continueRun, writeMargin } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** 250 partners in three pages of 4 s each: page 1, then pages 2 and 3 together; all in 12 s after the start. */
function firstStep(spare: number) {
  const w = world(fakeList(records(250)).fetch, [spec], { msPerFetch: 4000 });
  const start = w.clock.t;
  const first = beginRun('imp1', 'sidebar', w.nextExecution(), start + 12_000 + spare);
  expect(w.clock.t - start).toBe(12_000);
  return { w, first };
}

test('the last page in with less time left than the write of every row needs: the next step writes', () => {
  const { w, first } = firstStep(writeMargin(250, 2) - 1);
  expect(first).toMatchObject({ status: 'running', rows: 250 });
  expect(w.tables.get('Partners')).toBeUndefined();
  const fetches = w.fetches;
  expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000).status).toBe('done');
  expect(w.fetches).toBe(fetches);
  expect(w.tables.get('Partners')).toHaveLength(251);
});

test('the last page in with just the time the write needs: the same step writes', () => {
  const { w, first } = firstStep(writeMargin(250, 2));
  expect(first.status).toBe('done');
  expect(w.tables.get('Partners')).toHaveLength(251);
});
