/**
 * Pages read while page 1 waits for its Retry-After (src/import/machine.ts): the step keeps time
 * to write every page it holds; pages read ahead are no progress, so a page 1 that never comes
 * fails the run once the longest wait without a page has passed since the run began; and when
 * page 1 shows the list changed, only the pages restored from an earlier step are asked for
 * again, not those read in its own step. Driven step by step over the in-memory ports.
 */
import { DEADLINE_MARGIN_MS } from '../../../src/api/client';
import { LP_FIELDS } from '../../../src/api/records';
import { beginRun, MAX_WAIT_WITHOUT_PAGE_MS, writeMargin } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('a step reading ahead of a waiting page 1 ends with the time to write all it holds', () => {
  // Twenty columns, so the write of the rows held takes seconds; page 1 waits 10 minutes.
  const wide: ImportSpec = { ...spec, fields: LP_FIELDS.slice(0, 20) };
  const list = refusingList(20_000, (page) => (page === 1 ? limited(600) : undefined));
  const w = world(list.fetch, [wide]);
  const ports = w.nextExecution();
  let written = 0;
  const write = ports.staging.write;
  ports.staging.write = (id, header, at, rows) => {
    written += rows.length;
    write(id, header, at, rows);
  };
  const deadline = w.clock.t + 20_000;
  expect(beginRun('imp1', 'sidebar', ports, deadline).status).toBe('running');
  expect(written).toBeGreaterThan(5000);
  expect(deadline - w.clock.t).toBeGreaterThanOrEqual(DEADLINE_MARGIN_MS + writeMargin(written, wide.fields.length));
});

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
