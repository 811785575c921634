/**
 * The rounds of requests within a step (src/import/machine.ts): at most PAGES_PER_FETCH pages a
 * call, a sleep only until the first waiting page is due and none when nothing is left to ask
 * for, a page asked ahead of page 1 and refused for good failing the run once page 1 is in, and a
 * run read in one step written to its sheet without staging, and a round that could send nothing
 * ending the step. Driven over the in-memory ports.
 */
import { ServiceError, unsent } from '../../../src/api/errors';
import type { PageFetcher } from '../../../src/api/pages';
import { beginRun, PAGES_PER_FETCH } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { type FakeList, fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** The list's fetcher, noting the pages of each call. */
function calls(list: FakeList): { fetch: PageFetcher; seen: number[][] } {
  const seen: number[][] = [];
  return {
    seen,
    fetch: (pages, limit) => {
      seen.push([...pages]);
      return list.fetch(pages, limit);
    },
  };
}

test(`a call asks for at most ${PAGES_PER_FETCH} pages`, () => {
  const c = calls(fakeList(records(2500)));
  const w = world(c.fetch, [spec]);
  expect(timedDrive(w, 600_000).steps.pop()?.status).toBe('done');
  expect(Math.max(...c.seen.map((p) => p.length))).toBe(PAGES_PER_FETCH);
});

test('pages waiting for different Retry-Afters are each asked again when due, the earliest first', () => {
  const c = calls(
    refusingList(250, (page, call) =>
      call > 0 ? undefined : page === 2 ? limited(1) : page === 3 ? limited(5) : undefined,
    ),
  );
  const w = world(c.fetch, [spec]);
  expect(timedDrive(w, 60_000).steps.map((s) => s.status)).toEqual(['done']);
  expect(c.seen).toEqual([[1], [2, 3], [2], [3]]);
});

test('a step with nothing left to ask for (a page failed without a time to come back) ends without sleeping', () => {
  const list = refusingList(250, (page, call) =>
    page === 3 && call === 0 ? new ServiceError('SERVER', 'The data service failed (HTTP 503).') : undefined,
  );
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 60_000);
  expect(steps.map((s) => s.status)).toEqual(['running', 'done']);
  expect(w.sleeps).toEqual([]);
});

test('a page asked ahead of a waiting page 1 and refused for good fails the run once page 1 is in', () => {
  const list = refusingList(2500, (page, call) =>
    call > 0
      ? undefined
      : page === 1
        ? limited(1)
        : page === 2
          ? new ServiceError('AUTH', 'The API key was refused (HTTP 403).')
          : undefined,
  );
  const w = world(list.fetch, [spec]);
  const { steps } = timedDrive(w, 60_000);
  expect(steps.map((s) => s.status)).toEqual(['failed']);
  expect(steps[0].message).toContain('The API key was refused (HTTP 403).');
});

test('a list read in one step goes to its sheet without staging', () => {
  const w = world(fakeList(records(250)).fetch, [spec]);
  let staged = 0;
  const next = w.nextExecution.bind(w);
  w.nextExecution = () => {
    const ports = next();
    const write = ports.staging.write;
    ports.staging.write = (...args) => {
      staged++;
      write(...args);
    };
    return ports;
  };
  expect(timedDrive(w, 60_000).steps.map((s) => s.status)).toEqual(['done']);
  expect(staged).toBe(0);
});

test('a round whose pages all come back unsent (the client had no time to send them) ends the step, which keeps the run', () => {
  let calls = 0;
  const fetch: PageFetcher = (pages) => {
    // A step that kept asking with the clock standing still would never end: give up after a few calls.
    if (++calls > 5) throw new Error('asked again and again');
    return pages.map(() => ({ ok: false, error: unsent() }));
  };
  const w = world(fetch, [spec]);
  const step = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 20_000);
  expect({ status: step.status, calls }).toEqual({ status: 'running', calls: 1 });
});
