/**
 * Memory of a service that stopped answering. UrlFetchApp has no per-request timeout, so a hung
 * service keeps a fetch waiting until Apps Script kills the execution (30 s for a custom
 * function), and a killed execution cannot record anything. So every fetch is bracketed in the
 * shared cache: "a fetch started" before it, "an answer came" after it. A later execution that
 * finds a fetch started more than HUNG_AFTER_MS ago with no answer since knows the service hangs,
 * and for HUNG_MEMORY_MS after that start it does not fetch at all: formulas show their last good
 * values (marked stale) or a short message at once, instead of each waiting to be killed.
 * After that, the next fetch tries the service again.
 */
import type { Memo } from './memo';

/** A fetch with no answer after this long is taken as hung (custom functions are killed at 30 s). */
export const HUNG_AFTER_MS = 20_000;
/** How long, from the hung fetch's start, no execution asks the service again. */
export const HUNG_MEMORY_MS = 120_000;

export interface Health {
  /** The message to give instead of fetching, when the service is known to hang; else undefined. */
  hung(): string | undefined;
  /** Brackets one batch of requests. */
  around<T>(send: () => T): T;
}

export function cacheHealth(memo: Memo, now: () => number): Health {
  const started = memo.key('health', 'started');
  const answered = memo.key('health', 'answered');
  // This execution's own last answer: a fetch started HUNG_AFTER_MS ago or more began before it, so
  // it has been answered since, and the memory need not be read (a long read asks in many batches).
  let ownAnswer = Number.NEGATIVE_INFINITY;
  return {
    hung: () => {
      if (now() - ownAnswer < HUNG_AFTER_MS) return undefined;
      const m = memo.getMany([started, answered]);
      const s = m.get(started)?.fetchedAt;
      if (s === undefined) return undefined;
      const a = m.get(answered)?.fetchedAt ?? Number.NEGATIVE_INFINITY;
      const since = now() - s;
      if (a >= s || since < HUNG_AFTER_MS || since >= HUNG_MEMORY_MS) return undefined;
      return `The data service has not answered for ${Math.round(since / 1000)} s, so nothing is asked of it for ${Math.ceil((HUNG_MEMORY_MS - since) / 1000)} s more; last good values are shown where there are some.`;
    },
    around: (send) => {
      memo.putMany([[started, 1]]);
      const result = send();
      // Taken before the memory is stamped, so no fetch that started after the stamp counts as answered by it.
      ownAnswer = now();
      memo.putMany([[answered, 1]]);
      return result;
    },
  };
}
