/** bench/compare.ts: two benchmark runs compared figure by figure, leaving out what no run can repeat. */
import { compareResults } from '../../../bench/compare';

const run = (ms: number, wallMs: number, extra: Record<string, unknown> = {}) => ({
  date: 'any',
  latencyMs: 100,
  bundleCompileMs: 4,
  bundleChargedMs: 2,
  floors: [{ name: 'warm', ms, wallMs, ratio: ms / 100, target: '< 0.5 s' }],
  service: [{ partners: 2500, startupMs: wallMs, requestsPerSecond: 900 }],
  scaling: [{ activePartners: 1000, emulatedMs: 500, peakRssMb: wallMs }],
  ...extra,
});

describe('bench compare: figures by group and case', () => {
  test('each charged figure is paired by group and case with its difference in per cent', () => {
    const { differences, missing } = compareResults(run(200, 10), run(210, 99));
    expect(missing).toEqual([]);
    const warm = differences.filter((d) => d.group === 'floors');
    expect(warm.map((d) => [d.figure, d.before, d.after, Math.round(d.percent * 10) / 10])).toEqual([
      ['ms', 200, 210, 5],
      ['ratio', 2, 2.1, 5],
    ]);
    expect(differences.find((d) => d.group === 'bundle')).toMatchObject({ figure: 'bundleChargedMs', percent: 0 });
  });

  test('wall time, memory, the service group and the run settings are left out', () => {
    const { differences } = compareResults(run(200, 10), run(200, 99));
    const figures = differences.map((d) => `${d.group}.${d.figure}`);
    expect(figures).not.toContainEqual(expect.stringMatching(/wallMs|peakRssMb|service\.|latencyMs|date/));
    expect(figures).toContain('scaling.emulatedMs');
  });

  test("what the machine measures beside the charge (the bundle's own compile and run, an import's process CPU) is left out", () => {
    const machine = (x: number) => ({
      bundleEvaluateMs: x,
      bundleEvaluateChargedMs: 0.5,
      filtered: [{ name: 'sorted', cpuMs: 700 * x, addedCpuPercent: 30 * x, emulatedMs: 4000 }],
    });
    const { differences } = compareResults(run(200, 10, machine(1)), run(200, 10, machine(2)));
    const figures = differences.map((d) => `${d.group}.${d.figure}`);
    expect(figures).toEqual(expect.arrayContaining(['bundle.bundleEvaluateChargedMs', 'filtered.emulatedMs']));
    expect(figures).not.toContainEqual(expect.stringMatching(/bundleCompileMs|bundleEvaluateMs|cpuMs|CpuPercent/));
    expect(differences.every((d) => d.percent === 0)).toBe(true);
  });

  test('a percentage over a baseline is compared as the ratio it stands for', () => {
    const filtered = (p: number) => ({ filtered: [{ name: 'sorted', addedPercent: p }] });
    const { differences } = compareResults(run(1, 1, filtered(2)), run(1, 1, filtered(4)));
    const added = differences.find((d) => d.figure === 'addedPercent');
    expect(added?.percent).toBeCloseTo((1.04 / 1.02 - 1) * 100, 6);
  });

  test('a case in one run only is reported, and --only keeps to the groups named', () => {
    const after = run(200, 10, { floors: [{ name: 'cold', ms: 3000 }] });
    expect(compareResults(run(200, 10), after).missing).toEqual([
      'floors: warm (before only)',
      'floors: cold (after only)',
    ]);
    const only = compareResults(run(200, 10), run(300, 10), new Set(['scaling']));
    expect(new Set(only.differences.map((d) => d.group))).toEqual(new Set(['scaling']));
  });
});
