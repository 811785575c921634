import { type Group, groupInChild } from '../../bench/groups';
import { runBench } from '../../bench/run';

/** The benchmark harness runs end to end at small sizes; figures are checked for shape and sense, never for speed. */
test('npm run bench --quick: every benchmark and baseline runs and reports its figures', async () => {
  const r = (await runBench({ quick: true, latencyMs: 5, scale: [300] })) as {
    bundleKb: number;
    partsKb: number;
    formulas: Array<{ name: string; fetches: number; error?: string }>;
    sheetScale: Array<{ name: string; fetches: number; error?: string }>;
    imports: Array<{ name: string; rows: number; fetches: number; setValuesCalls: number; error?: string }>;
    filtered: Array<{ status: string; activePartners: number; kept: number; emulatedMs: number }>;
    scaling: Array<{ status: string; activePartners: number; executions: number }>;
    refresh: Array<{ name: string; formulas: number; lost: number; timedOut: boolean; setFormulaCalls: number }>;
    rateLimited: Array<{ status: string; rows: number; activePartners: number; steps: number; rateLimited: number }>;
    floors: Array<{
      name: string;
      ms: number;
      floorMs: number;
      ratio: number;
      fetches: number;
      executions: number;
      error?: string;
    }>;
    bigImport: Array<{ name: string; ms: number; floorMs: number; fetches: number; error?: string }>;
  };
  expect(r.bundleKb).toBeGreaterThan(10);
  expect(r.partsKb).toBeGreaterThan(10);
  // 40 ids over a 300-partner service: reading the list (3 pages) beats 40 requests.
  const [cold, warm, singles, serial] = r.formulas.map((f) => f.fetches);
  expect(cold).toBeGreaterThan(0);
  expect(cold).toBeLessThan(serial);
  expect([warm, singles, serial]).toEqual([0, 0, 40]);
  expect(r.formulas.every((f) => f.error === undefined)).toBe(true);
  const scale = Object.fromEntries(r.sheetScale.map((f) => [f.name.replace(/\d+/g, 'N'), f]));
  expect(r.sheetScale.every((f) => f.error === undefined)).toBe(true);
  expect(scale['fill-down: N single-id formulas, cold, one at a time'].fetches).toBeLessThan(
    scale['fill-down baseline: N naive formulas, one request each (cold = warm)'].fetches,
  );
  expect(scale['fill-down: N single-id formulas, warm, N at once'].fetches).toBe(0);
  expect(scale['LP_GET N distinct ids, warm'].fetches).toBe(0);
  // The floor reads each of the list's pages once (its cells share the read) and nothing else.
  const floor = r.sheetScale.find((f) => f.name.startsWith('floor:'));
  expect(floor?.fetches).toBeGreaterThan(0);
  expect(floor?.fetches).toBeLessThanOrEqual(scale['fill-down: N single-id formulas, cold, N at once'].fetches);
  const [ours, naive, cells] = r.imports;
  expect(ours.error).toBeUndefined();
  expect(naive.rows).toBe(ours.rows);
  expect(naive.fetches).toBeGreaterThan(ours.fetches);
  expect(cells.setValuesCalls).toBe(ours.rows * 5);
  expect(ours.setValuesCalls).toBeLessThanOrEqual(3);
  const [plain, filtered, keepAll] = r.filtered;
  expect(r.filtered.map((f) => f.status)).toEqual(['done', 'done', 'done']);
  expect(plain.kept).toBe(plain.activePartners);
  expect(filtered.kept).toBeGreaterThan(0);
  expect(filtered.kept).toBeLessThan(filtered.activePartners);
  expect(keepAll.kept).toBe(keepAll.activePartners);
  expect(r.scaling[0]).toMatchObject({ status: 'done', executions: 1 });
  const [refresh, oneByOne, perSheet] = r.refresh;
  expect(refresh).toMatchObject({ formulas: 200, lost: 0, timedOut: false, setFormulaCalls: 2 });
  expect(oneByOne).toMatchObject({ formulas: 200, lost: 0, setFormulaCalls: 400 });
  expect(perSheet).toMatchObject({ formulas: 200, lost: 0, setFormulaCalls: 2 });
  const [clean, limited] = r.rateLimited;
  expect(clean).toMatchObject({ status: 'done', rows: clean.activePartners, rateLimited: 0 });
  expect(limited).toMatchObject({ status: 'done', rows: clean.activePartners });
  expect(limited.rateLimited).toBeGreaterThan(0);
  expect(limited.steps).toBeGreaterThanOrEqual(clean.steps);
  // Each case beside its floor: the floor sends the same requests (none when warm) and costs less.
  expect(r.floors.every((f) => f.error === undefined)).toBe(true);
  for (const f of r.floors) {
    if (f.fetches === 0) expect(f.floorMs).toBe(0);
    else expect(f.floorMs).toBeGreaterThan(0);
    expect(f.ms).toBeGreaterThanOrEqual(f.floorMs);
  }
  expect(r.floors.filter((f) => /warm/.test(f.name)).map((f) => f.fetches)).toEqual([0, 0]);
  expect(r.bigImport).toHaveLength(1);
  expect(r.bigImport[0].error).toBeUndefined();
  expect(r.bigImport[0].floorMs).toBeGreaterThan(0);
  // The whole harness at small sizes, every execution compiling the bundle: minutes on a loaded machine.
}, 600_000);

test('a group runs in a process of its own: one that fails fails the run and says why', () => {
  const options = { quick: true, latencyMs: 5, scale: [300] };
  expect(() => groupInChild('nonsense' as Group, options)).toThrow(
    /The nonsense group failed \(exit 1\): .*Unknown group "nonsense" \(groups: formulas, /s,
  );
  // The same process runs a real group and hands back its figures.
  expect(groupInChild('refresh', options)).toEqual([
    expect.objectContaining({ formulas: 200, lost: 0 }),
    expect.objectContaining({ formulas: 200 }),
    expect.objectContaining({ formulas: 200 }),
  ]);
}, 120_000);
