/**
 * A short list (two pages, the second one short) whose page 1 must wait (Retry-After past the
 * step): the pages read ahead of it are kept in staging by the shape they show. The second page
 * is the last one, shorter than a full page, so it says nothing of the page size alone; when page
 * 1 comes in the next step the pages read ahead must still be taken back, each page of the list
 * answered once in the run (the pages past the end too), whatever size page 1 shows. Driven step
 * by step over the in-memory ports.
 */
import type { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { type FakeListOptions, fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/**
 * Imports a list of `total` partners whose pages `late` are refused once each (Retry-After 30 s,
 * past the 20 s steps); checks the run ends with the list in the table and returns the pages
 * answered more than once.
 */
function answeredTwice(total: number, late: (page: number) => boolean, pastEnd: FakeListOptions['pastEnd']): number[] {
  const refused = new Set<number>();
  const answered = new Map<number, number>();
  const list = fakeList(records(total), {
    pastEnd,
    fail: (page): ServiceError | undefined => {
      if (late(page) && !refused.has(page)) {
        refused.add(page);
        return limited(30);
      }
      answered.set(page, (answered.get(page) ?? 0) + 1);
      return undefined;
    },
  });
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 20_000);
  expect(steps.map((s) => s.status).pop()).toBe('done');
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(records(total).map((r) => r.id));
  return [...answered].filter(([, n]) => n > 1).map(([page]) => page);
}

test('page 1 late, the page read ahead of it short: each page is answered once and the table is the list', () => {
  // Lists of two pages and of one (100: the page after it is asked for to confirm the end); pages past the end empty or refused (404).
  for (const { total, pastEnd } of [150, 120, 101, 100, 80].flatMap((total) =>
    (['empty', '404'] as const).map((pastEnd) => ({ total, pastEnd })),
  )) {
    const repeated = answeredTwice(total, (page) => page === 1, pastEnd);
    expect({ total, pastEnd, repeated }).toEqual({ total, pastEnd, repeated: [] });
  }
});

test('page 1 late with every page after page 2: the lone page read ahead is taken back whatever size page 1 shows', () => {
  // Page 2 alone answers in the first step: as long as a full page or as the last one, it cannot tell the size.
  for (const total of [150, 120, 101]) {
    const repeated = answeredTwice(total, (page) => page !== 2, 'empty');
    expect({ total, repeated }).toEqual({ total, repeated: [] });
  }
});
