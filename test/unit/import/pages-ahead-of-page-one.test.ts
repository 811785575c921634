/**
 * Pages read while page 1 waits for its Retry-After (src/import/machine.ts): they are no
 * progress, so a page 1 that never comes fails the run once the longest wait without a page has
 * passed since the run began; and when page 1 shows the list changed, only the pages restored
 * from an earlier step are asked for again, not those read in its own step. Driven step by step
 * over the in-memory ports.
 */
import { MAX_WAIT_WITHOUT_PAGE_MS } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('pages read ahead of a page 1 that never comes are no progress: the run fails once the wait without a page is spent', () => {
  // Page 1 always waits 30 s; the 29 pages after it come at once, in the first step.
  const list = refusingList(3000, (page) => (page === 1 ? limited(30) : undefined));
  const w = world(list.fetch, [spec]);
  const start = w.clock.t;
  const ends: number[] = [];
  const next = w.nextExecution.bind(w);
  w.nextExecution = () => {
    ends.push(w.clock.t);
    return next();
  };
  const { steps } = timedDrive(w, 20_000);
  ends.push(w.clock.t);
  ends.shift();
  expect(list.answered.get(30)).toBe(1);
  expect(steps.map((s) => s.status).pop()).toBe('failed');
  const due = ends.findIndex((t) => t - start > MAX_WAIT_WITHOUT_PAGE_MS);
  expect(steps.length - 1).toBe(due);
});

test('page 1 with another total: the pages read in its own step stay, only those restored from staging are asked again', () => {
  // Page 1 waits 30 s; the list grows by 50 partners before the second step, which reads pages
  // ahead while page 1 still waits, then page 1.
  const list = refusingList(2000, (page, call) => (page === 1 && call === 0 ? limited(30) : undefined));
  const w = world(list.fetch, [spec], { msPerFetch: 1000 });
  const asked: number[] = [];
  const next = w.nextExecution.bind(w);
  w.nextExecution = () => {
    asked.push(list.asked.length);
    if (asked.length === 2) list.items.push(...records(50, 'q'));
    return next();
  };
  const { steps } = timedDrive(w, 20_000);
  expect(steps.map((s) => s.status).pop()).toBe('done');
  const firstStep = new Set(list.asked.slice(0, asked[1]).map((a) => a.page));
  const secondStep = list.asked.slice(asked[1], asked[2]).map((a) => a.page);
  // The second step read pages ahead of page 1 before page 1 came.
  const ahead = secondStep.slice(0, secondStep.indexOf(1)).filter((p) => !firstStep.has(p));
  expect(ahead.length).toBeGreaterThan(0);
  for (const p of ahead) expect([p, list.answered.get(p)]).toEqual([p, 1]);
  for (const p of firstStep) if (p !== 1) expect([p, list.answered.get(p)]).toEqual([p, 2]);
  expect(w.runs.get('imp1')?.pass).toBe(1);
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(list.items.map((r) => r.id));
});
