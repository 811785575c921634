/**
 * An import from the sidebar against the reference service rate-limiting 30 % of requests with
 * `Retry-After` (15 s, and 60 s: longer than the client ever waits in one go): every sidebar step
 * ends within its budget, the run completes with exactly the service's active partners, and
 * the service's fault randomness is swept over seeds. Emulated time (Utilities.sleep and the
 * modelled costs) is what the budget is about, so the test takes seconds of real time.
 */
import { STEP_BUDGET_MS } from '../../../src/import/machine';
import { addin } from '../../helpers/addin';
import { runImport, saveImport, sheet } from '../../helpers/imports';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
let activeIds: string[];
beforeAll(async () => {
  svc = await startService(['--partners', '6000', '--max-page-size', '100']);
  activeIds = [];
  for (let page = 1; ; page++) {
    const body = await (
      await fetch(
        `${svc.url}/api/active-partners-data/getAllActivePartnersData?apiKey=${DEMO_KEY}&page=${page}&limit=100`,
      )
    ).json();
    activeIds.push(...body.data.map((p: { id: string }) => p.id));
    if (page >= body.pagination.totalPages) break;
  }
});
afterAll(() => svc.stop());

describe('a rate-limited import from the sidebar', () => {
  for (const retryAfter of [15, 60]) {
    test(`30 % of requests answered 429 + Retry-After: ${retryAfter}, seeds 1-5: no step over ${STEP_BUDGET_MS / 1000} s, every active partner once`, async () => {
      for (let seed = 1; seed <= 5; seed++) {
        await svc.config({ faults: { rateLimit: 0.3, retryAfterSeconds: retryAfter }, seed });
        await svc.resetStats();
        const a = addin(svc.url);
        const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'fullName', 'firm'] });
        const before = a.emu.history.length;
        const seen = runImport(a.emu, id, 500);
        const steps = a.emu.history.slice(before).filter((l) => l.kind === 'sidebar');
        expect(seen[seen.length - 1]).toMatchObject({ status: 'done', rows: activeIds.length });
        expect(steps.every((l) => !l.timedOut)).toBe(true);
        expect(Math.max(...steps.map((l) => l.endedAt - l.startedAt))).toBeLessThanOrEqual(STEP_BUDGET_MS);
        expect(
          sheet(a.emu, 'Partners')
            .slice(1)
            .map((r) => r[0]),
        ).toEqual(activeIds);
        expect(a.emu.workbook.sheets.some((s) => s.name.startsWith('__staging_'))).toBe(false);
        expect((await svc.stats()).byStatus['429']).toBeGreaterThan(10);
      }
    }, 240_000);
  }
});
