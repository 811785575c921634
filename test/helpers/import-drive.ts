/**
 * Driving the import state machine step by step over the in-memory ports (./fake-ports.ts), as
 * the sidebar does: each step a new execution with its own budget, starting when the previous one
 * ended. Shared by the machine's unit tests and its seed sweeps (kept in a file of their own).
 */
import { ServiceError } from '../../src/api/errors';
import { beginRun, continueRun } from '../../src/import/machine';
import type { RunSummary } from '../../src/import/run-state';
import type { World } from './fake-ports';

/** A refusal for now that names its wait, as the service's 429 with Retry-After does. */
export const limited = (seconds: number): ServiceError =>
  new ServiceError('RATE_LIMITED', `Rate limited by the data service, retry in ${seconds} s.`, {
    retryAfterMs: seconds * 1000,
  });

/** Drives sidebar steps of `budget` ms of import `imp1`; returns each step's summary, length and record of the read. */
export function timedDrive(
  w: World,
  budget: number,
  maxSteps = 200,
): { steps: RunSummary[]; lengths: number[]; notes: unknown[] } {
  const steps: RunSummary[] = [];
  const lengths: number[] = [];
  const notes: unknown[] = [];
  do {
    const start = w.clock.t;
    const ports = w.nextExecution();
    steps.push(
      steps.length ? continueRun('imp1', ports, start + budget) : beginRun('imp1', 'sidebar', ports, start + budget),
    );
    lengths.push(w.clock.t - start);
    notes.push(w.runs.get('imp1')?.list);
  } while (steps[steps.length - 1].status === 'running' && steps.length < maxSteps);
  return { steps, lengths, notes };
}
