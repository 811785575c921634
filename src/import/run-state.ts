/** One import run, saved after every step so that it carries on in a later execution: plain JSON, one document property. */
import type { ListRecord } from '../api/pages';

export type RunStatus = 'running' | 'done' | 'failed' | 'cancelled';
export type RunSource = 'sidebar' | 'schedule';

/** The shape of RunState this code reads and writes: a running run of another version starts over, any other shows as none. */
export const RUN_VERSION = 3;

export interface RunState {
  /** RUN_VERSION when it was saved. */
  version: number;
  runId: string;
  importId: string;
  source: RunSource;
  /** Who began it (Person.id); only their trigger carries it on, with their key, and only while their own record lists the run (src/gas/mine.ts). */
  by: string;
  status: RunStatus;
  startedAt: number;
  updatedAt: number;
  /** The read of the list: its shape and one slot per page (src/api/pages.ts). */
  list: ListRecord;
  /** Rows the staging area holds, from its first (data rows, without the header; blank where a page is not in). */
  staged: number;
  /** Rows read so far in this run (staged or held in memory), or written at the end. */
  read: number;
  /** Which full read of the list this is (1, then 2… when the previous read could not be trusted). */
  pass: number;
  /** The idsDigest of the previous read's ids (src/api/pages.ts judge): the same ids twice in a row are the list. */
  digest?: number;
  /**
   * The snapshot this read is writing: its generation, each written part's bucket count, the records
   * in them, when the read began, and whether every page's records went in (not when a step had no snapshot).
   */
  snap?: { gen: string; parts: number[]; records: number; at: number; whole: boolean };
  /** Replace anyway: this run rewrites its sheet even where it is not as the import left it (the analyst chose so). */
  force?: boolean;
  /** When the last page came in (clock ms). */
  progressAt?: number;
  /** What the run spent of its give-up budget (src/import/machine.ts GIVE_UP): requests refused, pages of reads done again. */
  spent: { refused: number; reread: number };
  /** The last refusal for now the run met (its message): what it says should it give up waiting for a page. */
  refusal?: string;
  fetches: number;
  retries: number;
  executions: number;
  message: string;
  /** Rows a completed run added to its history sheet (./watch.ts). */
  historyRows?: number;
  /** What became of its alert: "sent to …", "baseline", "no changes", "quota spent", "not sent" (./watch.ts). */
  alert?: string;
}

export interface RunSummary {
  importId: string;
  status: RunStatus | 'idle';
  page: number;
  totalPages: number;
  rows: number;
  totalItems: number;
  message: string;
  /** Set when another execution held the spreadsheet's lock: nothing was started or carried on. */
  busy?: true;
}

export const stagingName = (importId: string): string => `__staging_${importId}`;
/** The hidden sheet holding the ids an import with an alert listed at its last completed run. */
export const listedName = (importId: string): string => `__listed_${importId}`;

/** Pages of the list read so far in this pass (the probe past the end is not counted). */
export function pagesRead(run: RunState): number {
  return Math.max(0, Math.min(run.list.next - 1, run.list.last));
}

export function summarize(importId: string, run: RunState | null): RunSummary {
  if (run?.version !== RUN_VERSION)
    return { importId, status: 'idle', page: 0, totalPages: 0, rows: 0, totalItems: 0, message: '' };
  return {
    importId,
    status: run.status,
    page: pagesRead(run),
    totalPages: run.list.last,
    rows: run.read,
    totalItems: run.list.total,
    message: run.message,
  };
}
