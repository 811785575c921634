/**
 * Pages read ahead of a page 1 that must wait, kept in staging at the place their own shape gives
 * them (src/import/machine.ts restore, take, save): when page 1 comes in a later step they are
 * taken back without being asked for again, and the staging is rewritten from row 0 with them;
 * when page 1 shows the list changed meanwhile (another total), they are not at their place and
 * are asked for again, in the same read. Driven step by step over the in-memory ports.
 */
import type { ImportSpec } from '../../../src/import/spec';
import { records } from '../../helpers/fake-list';
import { idsBelowHeader, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('pages read while page 1 waits are taken back with it, each asked for once, and the table is the list', () => {
  // Page 1 waits 30 s (past the first 20 s step); pages from 11 on wait 200 s, so the step that
  // gets page 1 reads it alone and ends with the next page still waiting.
  const list = refusingList(2000, (page, call) =>
    call === 0 && (page === 1 || page >= 11) ? limited(page === 1 ? 30 : 200) : undefined,
  );
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 20_000);
  expect(steps.map((s) => s.status).pop()).toBe('done');
  expect(steps.length).toBeGreaterThan(2);
  expect([...list.answered].filter(([, k]) => k !== 1)).toEqual([]);
  expect(w.runs.get('imp1')?.pass).toBe(1);
  expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(records(2000).map((r) => r.id));
});

test('page 1 with another total than the pages read ahead of it: those are asked for again, in the same read', () => {
  // Page 1 waits 30 s; while it waits the list grows by 50 partners (before the second step).
  const list = refusingList(2000, (page, call) => (page === 1 && call === 0 ? limited(30) : undefined));
  let grown = false;
  const w = world(list.fetch, [spec], { msPerFetch: 1000 });
  const next = w.nextExecution.bind(w);
  let executions = 0;
  w.nextExecution = () => {
    if (executions++ === 1 && !grown) {
      grown = true;
      list.items.push(...records(50, 'q'));
    }
    return next();
  };
  const { steps } = timedDrive(w, 20_000);
  expect(steps.map((s) => s.status).pop()).toBe('done');
  // The pages of the first step are asked for twice (before and after page 1), no page three times, in one read.
  const firstStep = list.asked
    .slice(0, 5)
    .map((a) => a.page)
    .filter((p) => p !== 1);
  expect(firstStep.length).toBeGreaterThan(0);
  for (const p of firstStep) expect([p, list.answered.get(p)]).toEqual([p, 2]);
  expect(Math.max(...list.answered.values())).toBe(2);
  expect(w.runs.get('imp1')?.pass).toBe(1);
  expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(list.items.map((r) => r.id));
});
