/**
 * Time in Apps Script: Date.now for the clock, Utilities.sleep for waits, and the time limits of
 * an execution (30 s for a custom function, 6 min for everything else).
 */
import type { Clock } from '../api/transport';

export const CUSTOM_FUNCTION_LIMIT_MS = 30000;
export const EXECUTION_LIMIT_MS = 6 * 60 * 1000;

export const gasClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => Utilities.sleep(Math.max(0, Math.round(ms))),
};
