/**
 * What a run counts and says, and what a step keeps for writing: the requests, retries and
 * executions of the run's own steps (not those the execution made before a step began), summed
 * over its steps in its log row; the page a running step reached; and the write margin, a fixed
 * part and a part per cell that grows with rows times width.
 */
import { WRITE_MARGIN, beginRun, continueRun, writeMargin } from '../../../src/import/machine';
import { RUN_LOG_HEADER } from '../../../src/import/run-log';
import type { ImportPorts } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** The next execution's ports; their counters start at what the execution did before (`before`), and count 2 retries per page. */
function counting(w: World, before: { fetches: number; retries: number }): ImportPorts {
  const p = w.nextExecution();
  const fetch = p.pages.fetch;
  const n = { fetches: before.fetches, retries: before.retries };
  p.pages = {
    fetch: (pages, limit, until) => {
      const out = fetch(pages, limit, until);
      const sent = out.filter((o) => o.ok).length;
      n.fetches += sent;
      n.retries += 2 * sent;
      return out;
    },
    counters: () => ({ ...n }),
  };
  return p;
}

const col = (name: string) => RUN_LOG_HEADER.indexOf(name);

describe('run counters', () => {
  test("a run's log row counts the requests and retries of its own steps, summed over its steps", () => {
    const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec], { msPerFetch: 1000 });
    const before = { fetches: 40, retries: 7 };
    let s = beginRun('imp1', 'sidebar', counting(w, before), w.clock.t + 25_000);
    let steps = 1;
    const running = [s];
    while (s.status === 'running' && steps < 50) {
      s = continueRun('imp1', counting(w, before), w.clock.t + 25_000);
      running.push(s);
      steps++;
    }
    expect(s.status).toBe('done');
    expect(steps).toBeGreaterThan(1);
    const row = w.runLog[0];
    expect(row[col('Fetches')]).toBe(w.fetches);
    expect(row[col('Retries')]).toBe(2 * w.fetches);
    expect(row[col('Executions')]).toBe(steps);
    // While it runs, each step says how far the read is.
    for (const r of running.slice(0, -1)) expect(r.message).toBe(`Page ${r.page} of ${r.totalPages}`);
  });
});

describe('write margin', () => {
  test('a fixed part for no cells', () => {
    expect(writeMargin(0, 12)).toBe(WRITE_MARGIN.fixedMs);
  });

  test('grows with the cells (rows times width), whatever their shape', () => {
    expect(writeMargin(2000, 5)).toBe(writeMargin(1000, 10));
    expect(writeMargin(1000, 10)).toBeGreaterThan(writeMargin(100, 10));
    expect(writeMargin(1000, 10)).toBeGreaterThan(WRITE_MARGIN.fixedMs);
  });
});
