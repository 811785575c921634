/**
 * In-memory ports for the import state machine (src/import/ports.ts): a staging area, target
 * tables (each with the import's record: a tag, and the field each column holds), a run store,
 * logs, a lock, a manual clock and a page port over a fake list. `kill()`
 * models Apps Script ending an execution at its time limit: from then on every port call throws
 * and nothing more is written, as no code runs after a kill. Also a target table as the import's
 * record shows it, for the pure merge and replace functions, the ids a written table holds, and a
 * record of each execution's staging calls.
 */
import { unsent } from '../../src/api/errors';
import type { PageFetcher } from '../../src/api/pages';
import type { RunState, RunSummary } from '../../src/import/run-state';
import type { ImportSpec } from '../../src/import/spec';
import { RECORD_VERSION, recordOf, refusal } from '../../src/import/ownership';
import { LP_FIELDS } from '../../src/api/records';
import type { ImportPorts, OutCell, OwnedTable, SheetTag } from '../../src/import/ports';
import type { Cell } from '../../src/table/cells';

export class Killed extends Error {}

/** A sheet's tag as the ports keep it: the record column current (none before the first commit) and pending. */
export interface FakeTag extends SheetTag {
  slot?: number;
  pending?: number;
}

/** Rows of a new sheet. */
const SHEET_ROWS = 1000;

export interface World {
  ports: ImportPorts;
  specs: ImportSpec[];
  runs: Map<string, RunState>;
  staging: Map<string, Cell[][]>;
  tables: Map<string, OutCell[][]>;
  /** The import's record per sheet: its tag (which of the two record columns is current, which pending), the record's columns, and the field each column's metadata names. */
  tags: Map<string, FakeTag>;
  records: Map<string, string[][]>;
  columns: Map<string, Array<string | undefined>>;
  /** Every write to a target sheet, in order (a tag, or the table). */
  writes: string[];
  /** Puts a table in a sheet as import `importId` wrote it: its columns `columns` (by default each one headed by a field name), tagged. */
  own(name: string, grid: OutCell[][], columns?: Array<string | undefined>, importId?: string): void;
  runLog: Cell[][];
  changeLog: Cell[][];
  /** The live record (LivePort): what each run's step last showed, and the runs asked to stop. */
  live: { shown: Map<string, { summary: RunSummary; at: number }>; stops: Set<string> };
  clock: { t: number };
  lockHeld: boolean;
  fetches: number;
  /** Every wait of the machine (ms). */
  sleeps: number[];
  /** Makes every port call from now on throw (the execution was killed). */
  kill(): void;
  /** Throws as every port call does once the execution was killed (for ports a test adds). */
  alive(): void;
  /** A fresh set of ports on the same persistent state (the next execution). */
  nextExecution(): ImportPorts;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export function world(fetch: PageFetcher, specs: ImportSpec[], options: { msPerFetch?: number } = {}): World {
  let dead = false;
  let n = 0;
  const alive = () => {
    if (dead) throw new Killed('Exceeded maximum execution time');
  };
  const w = {
    specs,
    runs: new Map(),
    staging: new Map(),
    tables: new Map(),
    tags: new Map(),
    records: new Map(),
    columns: new Map(),
    writes: [],
    runLog: [],
    changeLog: [],
    live: { shown: new Map(), stops: new Set() },
    clock: { t: 1_000_000 },
    lockHeld: false,
    fetches: 0,
    sleeps: [],
    kill: () => {
      dead = true;
    },
    alive,
    own: (name: string, grid: OutCell[][], columns?: Array<string | undefined>, importId = 'imp1') => {
      const fields = columns ?? (grid[0] ?? []).map((h) => (LP_FIELDS.includes(String(h)) ? String(h) : undefined));
      w.tables.set(name, grid);
      w.columns.set(name, fields);
      w.tags.set(name, { import: importId, version: RECORD_VERSION, slot: 0 });
      w.records.set(name, [recordOf(grid, fields, (r) => r > 0), []]);
    },
  } as unknown as World;
  const make = (): ImportPorts => {
    dead = false;
    let fetches = 0;
    return {
      pages: {
        // Like the client: a page is sent only while there is time before `until`; the ones left are UNSENT.
        fetch: (pages, limit, until = Number.POSITIVE_INFINITY) => {
          alive();
          const cost = options.msPerFetch ?? 100;
          const sent = pages.filter((_, k) => w.clock.t + k * cost <= until);
          fetches += sent.length;
          w.fetches += sent.length;
          w.clock.t += cost * sent.length;
          const answers = fetch(sent, limit);
          return pages.map((_, k) => (k < sent.length ? answers[k] : { ok: false, error: unsent() }));
        },
        counters: () => ({ fetches, retries: 0 }),
      },
      staging: {
        write: (id, header, at, rows) => {
          alive();
          const sheet = at === 0 ? [[...header]] : (w.staging.get(id) ?? [[...header]]);
          rows.forEach((r, i) => {
            sheet[at + 1 + i] = [...r];
          });
          w.staging.set(id, sheet);
        },
        // As a sheet: rows never written read blank up to the sheet's size (a new sheet has 1,000 rows, a
        // write grows it), and a read past that throws.
        read: (id, count, width, from = 0) => {
          alive();
          const sheet = w.staging.get(id);
          if (!sheet) return [];
          if (count > 0 && 1 + from + count > Math.max(SHEET_ROWS, sheet.length))
            throw new Error('The coordinates of the range are outside the dimensions of the sheet.');
          return Array.from({ length: count }, (_, k) => [...(sheet[1 + from + k] ?? new Array<Cell>(width).fill(''))]);
        },
        remove: (id) => {
          alive();
          w.staging.delete(id);
        },
      },
      target: {
        read: (name): OwnedTable | null => {
          alive();
          const t = w.tables.get(name);
          if (!t) return null;
          const tag = w.tags.get(name);
          const isFormula = (c: OutCell): c is { formula: string } =>
            typeof c === 'object' && c !== null && 'formula' in c;
          return {
            values: t.map((r) => r.map((c) => (isFormula(c) ? 0 : c))),
            formulas: t.map((r) => r.map((c) => (isFormula(c) ? c.formula : ''))),
            fields: [...(w.columns.get(name) ?? [])],
            tag: tag ?? null,
            written: [tag?.slot, tag?.pending].flatMap((k) =>
              k === undefined ? [] : (w.records.get(name)?.[k] ?? []),
            ),
          };
        },
        record: (name, importId, rows) => {
          alive();
          w.writes.push('tag');
          if (!w.tables.has(name)) w.tables.set(name, []);
          const tag = w.tags.get(name);
          const slot = tag?.import === importId && tag.version === RECORD_VERSION ? tag.slot : undefined;
          const pending = slot === 0 ? 1 : 0;
          const records = w.records.get(name) ?? [[], []];
          records[pending] = [...rows];
          w.records.set(name, records);
          w.tags.set(name, { import: importId, version: RECORD_VERSION, slot, pending });
        },
        commit: (name, importId, rows) => {
          alive();
          w.writes.push('tag');
          const slot = w.tags.get(name)?.pending ?? 0;
          const records = w.records.get(name) ?? [[], []];
          if (rows) records[slot] = [...rows];
          w.records.set(name, records);
          w.tags.set(name, { import: importId, version: RECORD_VERSION, slot });
        },
        write: (name, grid, columns) => {
          alive();
          w.writes.push('table');
          w.tables.set(
            name,
            grid.map((r) => [...r]),
          );
          w.columns.set(name, [...columns]);
        },
      },
      store: {
        specs: () => {
          alive();
          return clone(w.specs);
        },
        saveSpecs: (s) => {
          alive();
          w.specs = clone([...s]);
        },
        load: (id) => {
          alive();
          const r = w.runs.get(id);
          return r ? clone(r) : null;
        },
        save: (run) => {
          alive();
          w.runs.set(run.importId, clone(run));
        },
      },
      logs: {
        run: (row) => {
          alive();
          w.runLog.push(row);
        },
        changes: (rows) => {
          alive();
          w.changeLog.push(...rows);
        },
      },
      lock: {
        tryLock: () => !w.lockHeld,
        release: () => undefined,
      },
      live: {
        show: (runId, summary, at) => {
          alive();
          w.live.shown.set(runId, clone({ summary, at }));
        },
        shown: (runId) => w.live.shown.get(runId) ?? null,
        askStop: (runId) => {
          w.live.stops.add(runId);
        },
        stopAsked: (runId) => w.live.stops.has(runId),
      },
      now: () => w.clock.t,
      sleep: (ms) => {
        alive();
        w.sleeps.push(ms);
        w.clock.t += ms;
      },
      newRunId: () => `run${++n}`,
      claimRun: () => 'user-1',
    };
  };
  w.ports = make();
  w.nextExecution = () => {
    w.ports = make();
    return w.ports;
  };
  return w;
}

/** Hands `each` the ports of every execution of `w` from now on, before the execution uses them: to count executions or wrap their calls. */
export function eachExecution(w: World, each: (ports: ImportPorts) => void): void {
  const next = w.nextExecution.bind(w);
  w.nextExecution = () => {
    const ports = next();
    each(ports);
    return ports;
  };
}

/** The record of import `importId` having written `grid` (every row below its first, as a replace writes it), in columns `fields`. */
export const recordFor = (
  grid: ReadonlyArray<ReadonlyArray<OutCell>>,
  fields: ReadonlyArray<string | undefined>,
  importId = 'imp1',
): Pick<OwnedTable, 'tag' | 'written'> => ({
  tag: { import: importId, version: RECORD_VERSION },
  written: recordOf(grid as OutCell[][], fields, (r) => r > 0),
});

/** A table as the import's record shows it: cells, formulas by "r,c", the field each column holds, its tag and record. */
export const ownedTable = (
  values: Cell[][],
  formulas: Record<string, string> = {},
  fields: Array<string | undefined> = [],
  record: Pick<OwnedTable, 'tag' | 'written'> | null = null,
): OwnedTable => ({
  values,
  formulas: values.map((row, r) => row.map((_, c) => formulas[`${r},${c}`] ?? '')),
  fields,
  tag: record?.tag ?? null,
  written: record?.written ?? [],
});

/** Why a merge by id of fields id and x into sheet "S" may not write over `table` (undefined: it may). */
export const mergeRefusalOf = (table: OwnedTable) =>
  refusal(table, { id: 'imp1', fields: ['id', 'x'], mode: 'merge' }, 'S');

/** The first cell of each row below the header of a target table or a staging sheet: its ids, none when there is no such sheet. */
export const idsBelowHeader = (grid: ReadonlyArray<readonly OutCell[]> | undefined): OutCell[] =>
  (grid ?? []).slice(1).map((r) => r[0]);

/** One execution's staging calls: each write (its first row and how many rows), each read (how many rows). */
export interface StagingCalls {
  writes: Array<{ at: number; rows: number }>;
  reads: number[];
}

/** Records the staging writes and reads of each execution of `w` from now on: one entry per execution. */
export function stagingCalls(w: World): StagingCalls[] {
  const calls: StagingCalls[] = [];
  eachExecution(w, (ports) => {
    const mine: StagingCalls = { writes: [], reads: [] };
    calls.push(mine);
    const { write, read } = ports.staging;
    ports.staging.write = (id, header, at, rows) => {
      mine.writes.push({ at, rows: rows.length });
      write(id, header, at, rows);
    };
    ports.staging.read = (id, count, width, from) => {
      mine.reads.push(count);
      return read(id, count, width, from);
    };
  });
  return calls;
}

/** The rows a merge kept whole, below its header row: not the import's and not blank (a partner no longer listed, a row without an id, a further row of a repeated id). */
export const keptWhole = (
  merged: { grid: OutCell[][]; owns: (r: number, c: number) => boolean },
  headerRow = 0,
): number => merged.grid.filter((row, r) => r > headerRow && !merged.owns(r, 0) && row.some((v) => v !== '')).length;
