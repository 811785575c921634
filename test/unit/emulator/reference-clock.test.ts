/**
 * The reference clock (dev/emulator/cpu-speed.ts) charges CPU work at a reference speed: on a machine whose
 * cores run the same work slower (a busy neighbour on the same hardware), the same work is charged the same.
 * Here the process's CPU clock is a fake whose every stretch of work, and every reading, takes longer in
 * proportion to how slow the machine is at that moment, the calibration task's included: what the clock
 * charges must not depend on that slowness at all. (test/integration/emulator/load-steady-cpu.test.ts checks
 * the same beside real CPU burners, where the work and the task do not slow alike.)
 */
type CpuSpeed = typeof import('../../../dev/emulator/cpu-speed');

/** CPU time (µs at full speed) each reading of the fake clock takes: the calibration task measures this long. */
const READING_US = 100;

/** A fresh reference clock over a fake CPU clock running `slowdown()` times slower than full speed. */
function slowedMachine(slowdown: () => number) {
  let micros = 0;
  jest.spyOn(process, 'cpuUsage').mockImplementation(() => {
    micros += READING_US * slowdown();
    return { user: micros, system: 0 };
  });
  let clock: CpuSpeed | undefined;
  jest.isolateModules(() => {
    clock = require('../../../dev/emulator/cpu-speed');
  });
  const c = clock as CpuSpeed;
  c.referenceCpuMs();
  return {
    clock: c,
    /** `ms` of work at full speed, done now; returns the reference clock after it. */
    work(ms: number): number {
      micros += ms * 1000 * slowdown();
      return c.referenceCpuMs();
    },
    rawMs: () => micros / 1000,
  };
}

/** 300 ms of work at full speed in stretches of 5 ms, at the slowdown `at(ms of work done)`: what is charged, and the raw CPU time. */
function charged(at: (done: number) => number): { reference: number; raw: number } {
  let done = 0;
  const m = slowedMachine(() => at(done));
  const start = m.clock.referenceCpuMs();
  const rawStart = m.rawMs();
  let end = start;
  for (; done < 300; done += 5) end = m.work(5);
  return { reference: end - start, raw: m.rawMs() - rawStart };
}

afterEach(() => jest.restoreAllMocks());

describe('emulator: the reference clock charges work at a reference speed', () => {
  test('a machine 35 % slower throughout is charged the same work the same, where its raw CPU time grows by over 30 %', () => {
    const full = charged(() => 1);
    const slow = charged(() => 1.35);
    expect(slow.raw / full.raw).toBeGreaterThan(1.3);
    expect(slow.reference / full.reference).toBeCloseTo(1, 6);
  });

  test("the calibrations' own CPU time is never charged: the work alone is, at the reference speed", () => {
    // The task measures one reading: a CPU ms is worth REFERENCE_TASK_MS / (READING_US / 1000) reference ms.
    const { REFERENCE_TASK_MS } = jest.requireActual<CpuSpeed>('../../../dev/emulator/cpu-speed');
    const worth = REFERENCE_TASK_MS / (READING_US / 1000);
    const { reference, raw } = charged(() => 1);
    expect(raw).toBeGreaterThan(300 * 1.05);
    // The clock's own readings between calibrations (two a stretch, 0.1 ms each) are the work's: under 10 % more.
    expect(reference).toBeGreaterThanOrEqual(300 * worth);
    expect(reference).toBeLessThan(300 * worth * 1.1);
  });

  test('a machine that slows half-way is recalibrated: the work after it is charged at the reference speed too', () => {
    const full = charged(() => 1);
    const halfway = charged((done) => (done < 150 ? 1 : 1.35));
    expect(halfway.raw / full.raw).toBeGreaterThan(1.15);
    // Only the stretches around the change are charged at a speed measured before it.
    expect(Math.abs(halfway.reference / full.reference - 1)).toBeLessThan(0.02);
  });
});
