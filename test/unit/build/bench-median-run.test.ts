/** bench/typical.ts: a case a benchmark repeats reports its median run, every figure from that run. */
import { median, medianRun, medianRunAsync } from '../../../bench/typical';

interface Run {
  run: number;
  ms: number;
  fetches: number;
}

/** Five runs whose times are out of order, each with a figure of its own. */
const TIMES = [140, 113, 168, 152, 157];
const one = (run: number): Run => ({ run, ms: TIMES[run], fetches: 100 + run });

describe('bench: the median run of a repeated case', () => {
  test('runs the case the number of times asked, in order, and reports the run at the median time with its own figures', () => {
    const seen: number[] = [];
    const got = medianRun(
      5,
      (run) => {
        seen.push(run);
        return one(run);
      },
      (r) => r.ms,
    );
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(got).toEqual({ run: 3, ms: 152, fetches: 103 });
  });

  test('a wave of concurrent executions is measured the same way', async () => {
    const got = await medianRunAsync(
      5,
      async (run) => one(run),
      (r) => r.ms,
    );
    expect(got).toEqual({ run: 3, ms: 152, fetches: 103 });
  });

  test('of an even number of runs the lower middle one; of one run that run; of none an error', () => {
    expect(median([one(0), one(1), one(2), one(3)], (r) => r.ms).ms).toBe(140);
    expect(medianRun(1, one, (r) => r.ms)).toEqual(one(0));
    expect(() => median([], (r: Run) => r.ms)).toThrow('median of no runs');
  });
});
