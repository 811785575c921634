/**
 * What a step asks of the page port (src/import/machine.ts round), each call a batch of requests
 * to the service (src/gas/import-ports.ts: the client's fetch, which reads the shared cache before
 * sending anything): at most PAGES_PER_FETCH pages a call, a page whose wait is over included, and
 * no call once the step has no time left for one (the step ends instead). Driven over the in-memory
 * ports, every call to the page port recorded with the clock's time and the time it must end by.
 */
import { PAGES_PER_FETCH } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import { refusingList } from '../../helpers/refusing-list';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

type Call = { pages: number; at: number; until: number };

/** Records every call to the page port of each execution of `w` from now on. */
function recordCalls(w: World): Call[] {
  const calls: Call[] = [];
  const next = w.nextExecution.bind(w);
  w.nextExecution = () => {
    const ports = next();
    const fetch = ports.pages.fetch;
    ports.pages.fetch = (pages, limit, until) => {
      calls.push({ pages: pages.length, at: w.clock.t, until });
      return fetch(pages, limit, until);
    };
    return ports;
  };
  return calls;
}

/** 5,000 partners, page 1 refused for 1 s at its first request, read in steps of 20 s, a second a request. */
function imported(): Call[] {
  const list = refusingList(5000, (page, call) => (page === 1 && call === 0 ? limited(1) : undefined));
  const w = world(list.fetch, [spec], { msPerFetch: 1000 });
  const calls = recordCalls(w);
  const { steps } = timedDrive(w, 20_000);
  expect(steps.length).toBeGreaterThan(1);
  expect(steps[steps.length - 1].status).toBe('done');
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(records(5000).map((r) => r.id));
  return calls;
}

test(`page 1 asked for again with the next pages: still ${PAGES_PER_FETCH} pages a call at most`, () => {
  const calls = imported();
  expect(Math.max(...calls.map((c) => c.pages))).toBe(PAGES_PER_FETCH);
});

test('no call to the page port once a step has no time left for one', () => {
  expect(imported().filter((c) => c.until < c.at)).toEqual([]);
});
