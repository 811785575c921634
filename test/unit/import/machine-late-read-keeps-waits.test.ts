/**
 * The pages the service asked to wait for keep their time in the next read of the list
 * (src/import/machine.ts), also when the read that ended (the list moved under it) had no time
 * left in its step to write, so the next step starts with the read over and begins the next read.
 * Deadlines that leave time to write are controls. Driven over the in-memory ports, the time of
 * every request recorded.
 */
import { beginRun, continueRun } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

// 12,100 to 12,800: the read ends with no time left to write; 14,000 and 16,000: with time to write.
test.each([12_100, 12_300, 12_500, 12_800, 14_000, 16_000])(
  'a page refused for 60 s in a read that ended late (the list moved) is not asked for again before its time (deadline +%d ms)',
  (budget) => {
    // 450 partners, pages of 100, 4 s a request. Page 1; then pages 2 and 3 (page 4 has no time): one partner
    // is added just before page 2 is served (its total moved: the read ends), page 3 is refused for 60 s.
    const times: number[] = [];
    let refusedAt = 0;
    let added = false;
    const list = fakeList(records(450), {
      before: (page) => {
        if (page === 3) times.push(w.clock.t);
        if (page === 2 && !added) {
          added = true;
          list.items = records(451);
        }
      },
      fail: (page) => {
        if (page !== 3 || times.length !== 1) return undefined;
        refusedAt = w.clock.t;
        return limited(60);
      },
    });
    const w = world(list.fetch, [spec], { msPerFetch: 4000 });
    const start = w.clock.t;
    const first = beginRun('imp1', 'sidebar', w.nextExecution(), start + budget);
    expect(first.status).toBe('running');
    expect(times).toHaveLength(1);
    // The next steps, each with a long budget, until the run ends.
    let last = first;
    for (let k = 0; k < 20 && last.status === 'running'; k++)
      last = continueRun('imp1', w.nextExecution(), w.clock.t + 300_000);
    expect(last.status).toBe('done');
    expect(
      w.tables
        .get('Partners')
        ?.slice(1)
        .map((r) => r[0]),
    ).toEqual(records(451).map((r) => r.id));
    expect(times.length).toBeGreaterThan(1);
    expect(times[1] - refusedAt).toBeGreaterThanOrEqual(60_000);
  },
);
