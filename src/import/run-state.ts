/**
 * The cursor of one import run, saved after every step so that a run can stop at any point
 * (time limit, closed sidebar, failure) and carry on in a later execution.
 */

export type RunStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface RunState {
  runId: string;
  importId: string;
  source: 'sidebar' | 'schedule';
  status: RunStatus;
  startedAt: number;
  updatedAt: number;
  /** Page size the server actually uses (read from the first page). */
  pageSize: number;
  totalItems: number;
  totalPages: number;
  /** Next page to fetch; past totalPages means all pages are in. */
  nextPage: number;
  /** Rows saved in the staging sheet so far (data rows, without the header). */
  staged: number;
  /** Rows read so far in this run (staged or held in memory), or written at the end. */
  read: number;
  /** Which full read of the list this is (1, then 2… when the list changed under the previous one). */
  pass: number;
  /** Whether the list's total changed during the current pass (its rows then cannot be trusted). */
  passChanged: boolean;
  /** Steps in a row that ended on a retryable failure without reading a page. */
  stalls: number;
  fetches: number;
  retries: number;
  executions: number;
  message: string;
}

export interface RunSummary {
  importId: string;
  status: RunStatus | 'idle';
  page: number;
  totalPages: number;
  rows: number;
  totalItems: number;
  message: string;
}

export const stagingName = (importId: string): string => `__staging_${importId}`;

export function summarize(importId: string, run: RunState | null): RunSummary {
  if (!run) return { importId, status: 'idle', page: 0, totalPages: 0, rows: 0, totalItems: 0, message: '' };
  return {
    importId, status: run.status, page: Math.min(run.nextPage - 1, run.totalPages), totalPages: run.totalPages,
    rows: run.read, totalItems: run.totalItems, message: run.message,
  };
}
