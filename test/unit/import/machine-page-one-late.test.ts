/**
 * Pages read ahead of a page 1 that must wait, kept in staging at the place their own shape gives
 * them (src/import/machine.ts restore, take, save): when page 1 comes in a later step they are
 * taken back without being asked for again, and the staging is rewritten from row 0 with them;
 * when page 1 shows the list changed meanwhile (another total), they are not at their place and
 * are asked for again, in the same read. Driven step by step over the in-memory ports.
 */
import type { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** Times each page is asked for and answered, by page. */
const answeredTimes = (asked: Array<{ page: number }>, refused: Set<number>) => {
  const n = new Map<number, number>();
  for (const { page } of asked) n.set(page, (n.get(page) ?? 0) + 1);
  for (const p of refused) n.set(p, (n.get(p) ?? 0) - 1);
  return n;
};

test('pages read while page 1 waits are taken back with it, each asked for once, and the table is the list', () => {
  // Page 1 waits 30 s (past the first 20 s step); pages from 11 on wait 200 s, so the step that
  // gets page 1 reads it alone and ends with the next page still waiting.
  const refused = new Set<number>();
  const list = fakeList(records(2000), {
    fail: (page): ServiceError | undefined => {
      if (refused.has(page) || (page !== 1 && page < 11)) return undefined;
      refused.add(page);
      return limited(page === 1 ? 30 : 200);
    },
  });
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 20_000);
  expect(steps.map((s) => s.status).pop()).toBe('done');
  expect(steps.length).toBeGreaterThan(2);
  const times = answeredTimes(list.asked, refused);
  expect([...times].filter(([, k]) => k !== 1)).toEqual([]);
  expect(w.runs.get('imp1')?.pass).toBe(1);
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(records(2000).map((r) => r.id));
});

test('page 1 with another total than the pages read ahead of it: those are asked for again, in the same read', () => {
  // Page 1 waits 30 s; while it waits the list grows by 50 partners (before the second step).
  const items = records(2000);
  const refused = new Set<number>();
  let grown = false;
  const list = fakeList(items, {
    fail: (page): ServiceError | undefined => {
      if (page !== 1 || refused.has(page)) return undefined;
      refused.add(page);
      return limited(30);
    },
  });
  const w = world(list.fetch, [spec], { msPerFetch: 1000 });
  const next = w.nextExecution.bind(w);
  let executions = 0;
  w.nextExecution = () => {
    if (executions++ === 1 && !grown) {
      grown = true;
      items.push(...records(50, 'q'));
    }
    return next();
  };
  const { steps } = timedDrive(w, 20_000);
  expect(steps.map((s) => s.status).pop()).toBe('done');
  // The pages of the first step are asked for twice (before and after page 1), no page three times, in one read.
  const times = answeredTimes(list.asked, refused);
  const firstStep = list.asked
    .slice(0, 5)
    .map((a) => a.page)
    .filter((p) => p !== 1);
  expect(firstStep.length).toBeGreaterThan(0);
  for (const p of firstStep) expect([p, times.get(p)]).toEqual([p, 2]);
  expect(Math.max(...times.values())).toBe(2);
  expect(w.runs.get('imp1')?.pass).toBe(1);
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(items.map((r) => r.id));
});
