/** bench/typical.ts: a case a benchmark repeats reports its median run, every figure from that run. */
import {
  IMPORT_RUNS,
  median,
  medianRun,
  medianRunAsync,
  PROCESSES,
  processMedian,
  RUNS,
  runsHere,
  SHORT_RUNS,
  shareRuns,
  WAVE_RUNS,
} from '../../../bench/typical';

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

describe('bench: a repeated case spread over several processes', () => {
  afterEach(() => shareRuns(1));

  test('each process runs its share of every repeated case, an odd number so that its median is a run', () => {
    expect(runsHere(RUNS)).toBe(RUNS);
    shareRuns(PROCESSES);
    const shares = [RUNS, SHORT_RUNS, WAVE_RUNS, IMPORT_RUNS].map(runsHere);
    expect(shares.map((n) => n * PROCESSES)).toEqual([RUNS, SHORT_RUNS, WAVE_RUNS, IMPORT_RUNS]);
    for (const n of shares) expect(n % 2).toBe(1);
    expect(() => runsHere(5)).toThrow('5 runs do not share into an odd number a process over 3 processes.');
    shareRuns(2);
    expect(runsHere(6)).toBe(3);
    expect(() => runsHere(4)).toThrow('4 runs do not share into an odd number a process over 2 processes.');
    expect(() => shareRuns(0)).toThrow('Cannot share runs over 0 processes.');
    expect(() => shareRuns(1.5)).toThrow('Cannot share runs over 1.5 processes.');
  });

  test('case by case, the figures of the process whose charged time is the median, all of them from that process', () => {
    const floors = (ms: number[], process: number) =>
      ms.map((t, i) => ({ name: `case ${i}`, ms: t, floorMs: 100 + i, fetches: process }));
    const got = processMedian('floors', [floors([300, 20], 0), floors([100, 30], 1), floors([200, 10], 2)]);
    expect(got).toEqual([
      { name: 'case 0', ms: 200, floorMs: 100, fetches: 2 },
      { name: 'case 1', ms: 20, floorMs: 101, fetches: 0 },
    ]);
    // A figure with both is ranked by `ms`.
    const both = (ms: number, emulatedMs: number) => [{ name: 'both', ms, emulatedMs }];
    expect(processMedian('floors', [both(1, 30), both(3, 10), both(2, 20)])).toEqual(both(2, 20));
    const other = (ms: number, process: number) => [{ name: 'warm', emulatedMs: ms, wallMs: 1000 - ms, process }];
    expect(processMedian('formulas', [other(52, 0), other(49, 1), other(60, 2)])).toEqual(other(52, 0));
    expect(processMedian('formulas', [other(52, 0)])).toEqual(other(52, 0));
  });

  test('processes that report different cases, a case with no charged time, or no process at all are errors', () => {
    const one = (name: string) => [{ name, emulatedMs: 1 }];
    expect(() => processMedian('match', [one('a'), one('b')])).toThrow(
      "The match group's processes reported different cases.",
    );
    expect(() => processMedian('match', [one('a'), [...one('a'), ...one('b')]])).toThrow('reported different cases');
    expect(() => processMedian('match', [[{ name: 'a', wallMs: 3 }], [{ name: 'a', wallMs: 4 }]])).toThrow(
      'Case 1 of the match group has no charged time to rank by.',
    );
    expect(() => processMedian('match', [])).toThrow('The match group ran in no process.');
  });
});
