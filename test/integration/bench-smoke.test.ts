import { runBench } from '../../bench/run';

/** The benchmark harness runs end to end at small sizes; figures are checked for shape and sense, never for speed. */
test('npm run bench --quick: every benchmark and baseline runs and reports its figures', async () => {
  const r = (await runBench({ quick: true, latencyMs: 5, scale: [300] })) as {
    bundleKb: number;
    formulas: Array<{ name: string; fetches: number; error?: string }>;
    imports: Array<{ name: string; rows: number; fetches: number; setValuesCalls: number; error?: string }>;
    scaling: Array<{ status: string; activePartners: number; executions: number }>;
    rateLimited: Array<{ status: string; rows: number; activePartners: number; steps: number; rateLimited: number }>;
  };
  expect(r.bundleKb).toBeGreaterThan(10);
  expect(r.formulas.map((f) => f.fetches)).toEqual([40, 0, 0, 40]);
  expect(r.formulas.every((f) => f.error === undefined)).toBe(true);
  const [ours, naive, cells] = r.imports;
  expect(ours.error).toBeUndefined();
  expect(naive.rows).toBe(ours.rows);
  expect(naive.fetches).toBeGreaterThan(ours.fetches);
  expect(cells.setValuesCalls).toBe(ours.rows * 5);
  expect(ours.setValuesCalls).toBeLessThanOrEqual(3);
  expect(r.scaling[0]).toMatchObject({ status: 'done', executions: 1 });
  const [clean, limited] = r.rateLimited;
  expect(clean).toMatchObject({ status: 'done', rows: clean.activePartners, rateLimited: 0 });
  expect(limited).toMatchObject({ status: 'done', rows: clean.activePartners });
  expect(limited.rateLimited).toBeGreaterThan(0);
  expect(limited.steps).toBeGreaterThanOrEqual(clean.steps);
}, 120_000);
