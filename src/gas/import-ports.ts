/**
 * The import's ports (src/import/ports.ts) in Apps Script: pages through the service client,
 * a hidden staging sheet, the target sheet, document properties for saved imports and runs, the
 * document cache for what a running step shows and is asked (live.ts),
 * the run and change log sheets, the document lock (script lock where there is no document),
 * Date.now and a random run id. This is the one place that wires the pure import to Google.
 */
import type { Client } from '../api/client';
import { timeId } from '../api/hash';
import { type Snapshot, snapshotIn } from '../api/snapshot';
import { memoFor } from './context';
import { readSettings } from './settings';
import type { ImportPorts, LockPort, PagePort, SnapshotPort } from '../import/ports';
import { CHANGE_LOG, CHANGE_LOG_HEADER, RUN_LOG, RUN_LOG_HEADER } from '../import/end';
import { listedName, stagingName } from '../import/run-state';
import type { Cell } from '../table/cells';
import { gasClock } from './clock';
import { documentLock } from './lock';
import {
  appendLog,
  ensureSheet,
  ensureSideSheet,
  findSheet,
  readTable,
  recordPending,
  commitRecord,
  removeSheet,
  replaceTable,
  writeBlock,
  writeOwned,
} from './sheets';
import { historyPort } from './history';
import { liveCache } from './live';
import { mailPort } from './mail';
import { loadImports, loadRun, saveImports, saveRun } from './store';
import { recordRun } from './mine';
import { me } from './user';

function lockPort(): LockPort {
  const lock = documentLock();
  return { tryLock: (ms) => lock.tryLock(ms), release: () => lock.releaseLock() };
}

function clientPages(client: Client | undefined): PagePort {
  return {
    fetch: (pages, limit, until) => {
      if (!client) throw new Error('This step needs the service client.');
      return client.activePartnerPages(pages, limit, { until });
    },
    counters: () => ({ fetches: client?.stats.fetches ?? 0, retries: client?.stats.retries ?? 0 }),
  };
}

/** The watched values of one partner as the alert's record cell holds them (JSON text); none when unreadable. */
function knownValues(cell: Cell): string[] {
  try {
    const v: unknown = JSON.parse(String(cell));
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** The ports for this execution; `client` is needed by steps that read pages (not by cancel). */
export function importPorts(client?: Client): ImportPorts {
  let snapshot: Snapshot | undefined;
  const snap = () => (snapshot ??= snapshotIn(memoFor(readSettings())));
  let user: string | undefined;
  let kept: boolean | undefined;
  const snapshotPort: SnapshotPort = {
    kept: () => (kept ??= snap().view() !== undefined),
    write: (gen, part, records, places) => snap().write(gen, part, records, places),
    publish: (gen, total, parts, readAt) => snap().publish(gen, total, parts, readAt),
    retire: () => snap().retire(),
  };
  return {
    pages: clientPages(client),
    fund: (id) => {
      if (!client) throw new Error('This step needs the service client.');
      const fund = client.funds([id])[0];
      if (!fund.ok) throw fund.error;
      return fund.value;
    },
    snapshot: snapshotPort,
    staging: {
      write: (importId, header, at, rows) => {
        if (at === 0) removeSheet(stagingName(importId));
        const sheet = ensureSideSheet(stagingName(importId), true);
        writeBlock(sheet, at === 0 ? 1 : at + 2, at === 0 ? [[...header], ...rows] : rows);
      },
      // The sheet may hold more rows than asked for, left by an execution killed before it saved its cursor.
      read: (importId, count, width, from = 0) => {
        const sheet = findSheet(stagingName(importId));
        if (!sheet || count === 0) return [];
        return sheet.getRange(2 + from, 1, count, width).getValues() as Cell[][];
      },
      remove: (importId) => removeSheet(stagingName(importId)),
    },
    target: {
      read: (name) => {
        const sheet = findSheet(name);
        return sheet ? readTable(sheet) : null;
      },
      record: (name, importId, rows) => recordPending(ensureSheet(name), importId, rows),
      commit: (name, importId, rows) => commitRecord(ensureSheet(name), importId, rows),
      write: (name, grid, columns, importId) => {
        const sheet = ensureSheet(name);
        writeOwned(sheet, grid, columns, importId);
        sheet.activate();
      },
    },
    history: historyPort(),
    mail: mailPort(),
    listed: {
      read: (importId) => {
        const sheet = findSheet(listedName(importId));
        if (!sheet) return null;
        const last = sheet.getLastRow();
        if (last < 1) return [];
        return (sheet.getRange(1, 1, last, 3).getValues() as Cell[][]).map(([id, values, name]) => ({
          id: String(id),
          name: String(name ?? ''),
          values: knownValues(values),
        }));
      },
      write: (importId, known) => {
        const sheet = ensureSideSheet(listedName(importId), true);
        replaceTable(
          sheet,
          known.map((k) => [k.id, JSON.stringify(k.values), k.name]),
        );
      },
      remove: (importId) => removeSheet(listedName(importId)),
    },
    store: { specs: loadImports, saveSpecs: saveImports, load: loadRun, save: saveRun },
    live: liveCache,
    logs: {
      run: (row) => appendLog(RUN_LOG, RUN_LOG_HEADER, [row]),
      changes: (rows) => appendLog(CHANGE_LOG, CHANGE_LOG_HEADER, rows),
    },
    lock: lockPort(),
    now: () => Date.now(),
    sleep: (ms) => gasClock.sleep(ms),
    newRunId: () => timeId(Date.now()),
    claimRun: (runId) => {
      recordRun(runId);
      return (user ??= me().id);
    },
  };
}
