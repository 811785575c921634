/**
 * A page the service refuses (src/import/machine.ts): the page after the last refused as no such
 * page (404 or 400) ends the list, one within the list refused so means the list shrank (the read
 * ends and is done again, each read spending from the run's budget), one refused for now waits its turn and is asked again in the same step,
 * a final refusal stops the read at once, and the run's message names the failure of the page the
 * read waits for. Driven over the in-memory ports.
 */
import { ServiceError } from '../../../src/api/errors';
import { GIVE_UP } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('the page after the last answered 400 (no such page) ends the list', () => {
  const list = fakeList(records(300), {
    fail: (page) => (page > 3 ? new ServiceError('BAD_INPUT', 'Bad request (HTTP 400).') : undefined),
  });
  const w = world(list.fetch, [spec]);
  expect(timedDrive(w, 60_000).steps.map((s) => s.status)).toEqual(['done']);
  expect(w.tables.get('Partners')).toHaveLength(301);
});

test('the page after the last refused for now is asked again in the same step: one step ends the run', () => {
  // 300 partners fill three pages: the end is known only from page 4.
  const list = refusingList(300, (page, call) => (page === 4 && call === 0 ? limited(1) : undefined));
  const w = world(list.fetch, [spec]);
  expect(timedDrive(w, 60_000).steps.map((s) => s.status)).toEqual(['done']);
  expect(list.asked.filter((a) => a.page === 4)).toHaveLength(2);
});

test('a page asked ahead of a page 1 that waits, refused for now, waits too: one step ends the run', () => {
  const list = refusingList(250, (page, call) => (page <= 2 && call === 0 ? limited(1) : undefined));
  const w = world(list.fetch, [spec]);
  expect(timedDrive(w, 60_000).steps.map((s) => s.status)).toEqual(['done']);
});

test('a final refusal stops the read at once: nothing is asked after the round it came in', () => {
  const list = refusingList(2500, (page) =>
    page === 2 ? new ServiceError('AUTH', 'The API key was refused (HTTP 403).') : undefined,
  );
  const w = world(list.fetch, [spec]);
  const steps = timedDrive(w, 60_000).steps;
  expect(steps.map((s) => s.status)).toEqual(['failed']);
  expect(steps[0].message).toContain('The API key was refused (HTTP 403).');
  expect(list.asked.map((a) => a.page)).toEqual(Array.from({ length: 21 }, (_, k) => k + 1));
});

test('the last page refused as no such page ends the read at once, though a page before it waits; refused at every read, it spends the budget and fails the run', () => {
  const list = refusingList(300, (page) =>
    page === 2 ? limited(100) : page === 3 ? new ServiceError('NOT_FOUND', 'Not found (HTTP 404).') : undefined,
  );
  const w = world(list.fetch, [spec]);
  const steps = timedDrive(w, 15_000).steps;
  expect(steps.map((s) => s.status).pop()).toBe('failed');
  const reads = list.asked.filter((a) => a.page === 1).length;
  // Each read: page 1 in (read again) and page 3 refused, two requests of the budget; and page 2's wait, once.
  expect(reads).toBe(Math.floor((GIVE_UP.requests + 3 * GIVE_UP.perPage) / 2) + 1);
  expect(steps[steps.length - 1].message).toMatch(
    new RegExp(
      `^Incomplete after ${reads} reads of the list: it kept changing during the import \\(last read: page 3 of 3 was gone by the time it was asked for \\(the list shrank while it was read\\)\\)\\. The import gave up after ${reads + 1} requests refused and ${reads} pages read again`,
    ),
  );
});

test('a list that shrank under the import, its last page gone (404), is read again and imported as it is now', () => {
  const list = fakeList(records(300), {
    pastEnd: '404',
    // A hundred partners leave after page 1 is read: page 3 no longer exists.
    before: (_page, call) => {
      if (call === 1) list.items.splice(0, 100);
    },
  });
  const w = world(list.fetch, [spec]);
  const steps = timedDrive(w, 15_000).steps;
  expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: 200 });
  expect((w.tables.get('Partners') ?? []).slice(1).map((r) => r[0])).toEqual(
    records(300)
      .slice(100)
      .map((r) => r.id),
  );
});

describe("the step's message names the failure of the page the read waits for", () => {
  const outage = (what: string) => new ServiceError('SERVER', `The data service failed (${what}).`);

  test('not that of a later page that failed in the same round', () => {
    const list = refusingList(2500, (page) =>
      page === 2 ? outage('page 2') : page === 5 ? outage('page 5') : undefined,
    );
    const steps = timedDrive(w(list), 60_000, 1).steps;
    expect(steps[0].message).toBe('The data service failed (page 2). Continuing at page 2 in the next step.');
  });

  test('its latest one, when it failed again after a later page did', () => {
    const list = refusingList(2500, (page, call) =>
      page === 5 && call === 0 ? limited(1) : page === 5 ? outage('page 5 again') : undefined,
    );
    const steps = timedDrive(w(list), 60_000, 1).steps;
    expect(steps[0].message).toBe('The data service failed (page 5 again). Continuing at page 5 in the next step.');
  });

  const w = (list: ReturnType<typeof fakeList>) => world(list.fetch, [spec]);
});

test('a page within the list the service refuses as no such page at every read: the run fails once the budget is spent, naming the page', () => {
  // A service that refuses pages past 2 (a cap on the page number) for a list of 5 pages.
  const list = refusingList(500, (page) =>
    page > 2 ? new ServiceError('BAD_INPUT', 'Bad request: page must be at most 2 (HTTP 400).') : undefined,
  );
  const w = world(list.fetch, [spec]);
  const steps = timedDrive(w, 15_000).steps;
  expect(steps.map((s) => s.status).pop()).toBe('failed');
  expect(steps[steps.length - 1].message).toContain(
    '(last read: page 3 of 5 was gone by the time it was asked for (the list shrank while it was read)). The import gave up after',
  );
  expect(w.tables.get('Partners')).toBeUndefined();
});

test('a page refused in two reads in a row, in a round whose earlier page already showed the list shrank again, is a list still moving: it is read once more', () => {
  // 1,000 partners; the first read sees 800 after page 1 (pages 9 and 10 refused), the second sees 1,000 at page 1,
  // then 300 (pages 4 to 11 refused, page 9 among them); the third read finds the list still.
  let reads = 0;
  let moved = 0;
  const list = fakeList(records(1000), {
    pastEnd: '404',
    before: (page) => {
      if (page === 1) reads++;
      if (page === 1 && reads === 2) list.items = records(1000);
      if (page !== 1 && moved < reads && reads <= 2) {
        moved = reads;
        list.items = records(reads === 1 ? 800 : 300);
      }
    },
  });
  const w = world(list.fetch, [spec]);
  const steps = timedDrive(w, 15_000).steps;
  expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: 300 });
  expect(reads).toBe(3);
});

test('page 1 refused as no such page (a list the service does not serve) fails the run at once, asked once', () => {
  const list = refusingList(300, (page) =>
    page === 1 ? new ServiceError('NOT_FOUND', 'Not found (HTTP 404).') : undefined,
  );
  const w = world(list.fetch, [spec]);
  const steps = timedDrive(w, 15_000).steps;
  expect(steps.map((s) => s.status)).toEqual(['failed']);
  expect(steps[0].message).toContain('Not found (HTTP 404).');
  expect(list.asked.map((a) => a.page)).toEqual([1]);
});
