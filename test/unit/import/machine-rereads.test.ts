/**
 * Reading the list again (src/import/machine.ts finish): a long live list read again as often as it moves, what the saved run says while it starts a new read, and the count of
 * partners read that the run log keeps when records were skipped. Driven over the in-memory ports.
 */
import { beginRun } from '../../../src/import/machine';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { Killed, world } from '../../helpers/fake-ports';
import { timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('a live list of 50 pages that moves under nine reads is read a tenth time, to the end', () => {
  const list = fakeList(records(100 * 50));
  let moved = 0;
  const w = world(
    (pages, limit) => {
      if (pages.includes(2) && moved < 9) {
        moved++;
        list.items = list.items.slice(1);
      }
      return list.fetch(pages, limit);
    },
    [spec],
  );
  expect(timedDrive(w, 600_000).steps.pop()?.status).toBe('done');
  expect(w.runs.get('imp1')?.pass).toBe(10);
});

/** A run of 300 partners whose execution is killed as its second read asks for page 1; `change` makes the first read not add up. */
function killedAtSecondRead(change: (items: ReturnType<typeof records>) => void, options = {}) {
  const list = fakeList(records(300), options);
  let calls = 0;
  let firstPages = 0;
  const w = world(
    (pages, limit) => {
      calls++;
      if (calls === 2) change(list.items);
      if (pages.includes(1) && ++firstPages === 2) w.kill();
      return list.fetch(pages, limit);
    },
    [spec],
  );
  expect(() => beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000)).toThrow(Killed);
  return w.runs.get('imp1');
}

test('killed as a new read of a list that moved starts, the saved run says the list changed', () => {
  const run = killedAtSecondRead((items) => {
    items.pop();
  });
  expect(run).toMatchObject({ pass: 2, message: 'The list changed during the import; reading it again.' });
});

test('killed as a new read of a list that did not add up starts, the saved run gives the reason', () => {
  const run = killedAtSecondRead(() => undefined, { repeatPage: 3 });
  expect(run).toMatchObject({ pass: 2, message: 'The list did not add up (page 3 repeats page 2); reading it again.' });
});

test('the run log counts every partner read, the skipped ones too', () => {
  const items = records(10);
  items[3] = { fullName: 'No id at all' };
  const w = world(fakeList(items).fetch, [spec]);
  expect(timedDrive(w, 60_000).steps.pop()?.status).toBe('done');
  expect(w.runLog[0][RUN_LOG_HEADER.indexOf('Read')]).toBe(10);
  expect(w.runLog[0][RUN_LOG_HEADER.indexOf('Kept')]).toBe(9);
});
