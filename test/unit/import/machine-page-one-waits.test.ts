/**
 * Steps that end before page 1 is in, driven over the in-memory ports: what such a step leaves
 * in staging when no page came, and how a page the service said it does not have, carried to a
 * later step, is judged once page 1 shows that page inside the list.
 */
import { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('a step in which page 1 fails for now and no page comes writes nothing to staging', () => {
  // Page 1 fails without saying when to ask again: the step ends with nothing read.
  const list = refusingList(500, (page, call) =>
    page === 1 && call === 0 ? new ServiceError('SERVER', 'The data service failed (HTTP 503).') : undefined,
  );
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 20_000, 1);
  expect(steps[0].status).toBe('running');
  expect(w.staging.has('imp1')).toBe(false);
  // Page 1 alone was asked for (its retries spent, the step asks for nothing else).
  expect(new Set(list.asked.map((a) => a.page))).toEqual(new Set([1]));
});

test('a page refused as no such page while page 1 waited, inside the list page 1 reports: the run fails naming it', () => {
  // Page 1 waits 30 s, past the first 20 s step; page 3 of 5 is refused as no such page, in that step.
  const list = refusingList(500, (page, call) => {
    if (page === 1 && call === 0) return limited(30);
    if (page === 3) return new ServiceError('NOT_FOUND', 'Not found (HTTP 404).');
    return undefined;
  });
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 20_000);
  expect(steps.length).toBeGreaterThan(1);
  const last = steps[steps.length - 1];
  expect(last.status).toBe('failed');
  expect(last.message).toContain('page 3');
});
