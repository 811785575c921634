/**
 * The live record of a running import step (src/import/ports.ts LivePort) in the document cache:
 * its progress, for the sidebar's polls, and Cancel's request to stop, each keyed by its run's id
 * (never by anything of a key). Display and requests only: should the cache lose one, the sidebar
 * shows the step's progress when the step ends, and a cancel ends the run once the step has.
 */
import type { LivePort } from '../import/ports';
import type { RunSummary } from '../import/run-state';
import { cache } from './cache';

const PROGRESS = 'import-progress:';
const STOP = 'import-stop:';
/** Longer than a step runs (src/import/machine.ts STEP_BUDGET_MS). */
const TTL_SECONDS = 600;

export const liveCache: LivePort = {
  show: (runId, summary, at) => cache().put(PROGRESS + runId, JSON.stringify({ summary, at }), TTL_SECONDS),
  shown: (runId) => {
    const text = cache().get(PROGRESS + runId);
    return text ? (JSON.parse(text) as { summary: RunSummary; at: number }) : null;
  },
  askStop: (runId) => cache().put(STOP + runId, '1', TTL_SECONDS),
  stopAsked: (runId) => cache().get(STOP + runId) !== null,
};
