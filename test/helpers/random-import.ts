/**
 * One small random import over the in-memory ports, from a seed: a list of 0 to 1,299 partners
 * (pages of 100, so up to 13 pages), the page past the end empty or refused (404), each request
 * refused for now at random (Retry-After of 1 to 45 s, page 1 included; a page four times at
 * most), steps of 6 to 20 s, requests of 20 to 220 ms; on request (Focus) a live list, executions
 * killed mid-fetch, or a shared snapshot port. Each draw depends on the seed, the page (or the request's number) and how often
 * that page was asked, not on the order requests happen to be sent, so a seed always gives the
 * same import. Returns what the import's promises need checked. Used by
 * test/unit/import/refusals-and-waits.test.ts (a few seeds) and the seed sweeps (many).
 */
import type { ServiceError } from '../../src/api/errors';
import type { ImportSpec } from '../../src/import/spec';
import { fakeList, records } from './fake-list';
import { eachExecution, Killed, type World, world } from './fake-ports';
import { limited } from './import-drive';
import { beginRun, continueRun } from '../../src/import/machine';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** A number in [0, 1) from the seed and two more integers (a small integer hash): the same inputs, the same draw. */
export function draw(seed: number, a: number, b: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(a + 1, 0xc2b2ae35) ^ Math.imul(b + 7, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  return ((h ^ (h >>> 15)) >>> 0) / 2 ** 32;
}

/** Where to draw more often: lists of at most `pages` pages (13), page 1 always refused at first (20 to 59 s). */
export interface Focus {
  pages?: number;
  pageOneLate?: boolean;
  /**
   * A live list: during the first requests (three times the pages) partners are added (or, by seed,
   * removed) at random places, then the list holds still. The table must be the list as it was at some moment; the
   * import may read it again, so pages may be answered twice.
   */
  live?: boolean;
  /** Executions killed (Apps Script's time limit) while a page is fetched, five at most: pages may be answered twice. */
  kills?: boolean;
  /** A shared snapshot port: what the import publishes must be the table's partners, in its order. */
  snapshot?: boolean;
}

export interface RandomImport {
  seed: number;
  status: string;
  exact: boolean;
  overBudget: number;
  repeated: number[];
  stagingLeft: boolean;
  /** Steps after which the target sheet held a table while the run was not done. */
  early: number;
  /** A snapshot was published that is not the table's partners in its order (or lacks a chunk). */
  snapshotWrong: boolean;
}

/** A snapshot port keeping each generation's parts (ids at their places), and the last generation published. */
function snapshotStore(w: World) {
  const parts = new Map<string, Array<Array<[number, unknown]>>>();
  let published: { gen: string; count: number } | undefined;
  eachExecution(w, (ports) => {
    ports.snapshot = {
      kept: () => true,
      write: (gen, part, recs, places) => {
        w.alive();
        const gens = parts.get(gen) ?? [];
        parts.set(gen, gens);
        gens[part] = recs.map((r, i) => [places[i], r.id]);
        return 1;
      },
      publish: (gen, _total, written) => {
        w.alive();
        published = { gen, count: written.length };
      },
      retire: () => {
        w.alive();
        published = undefined;
      },
    };
  });
  /** The ids the last published generation holds, in list order; undefined when none was, or a part is missing. */
  return (): unknown[] | null | undefined => {
    if (!published) return null;
    const gens = parts.get(published.gen) ?? [];
    const out: Array<[number, unknown]> = [];
    for (let k = 0; k < published.count; k++) {
      if (!gens[k]) return undefined;
      out.push(...gens[k]);
    }
    return out.sort((a, b) => a[0] - b[0]).map(([, id]) => id);
  };
}

/** Sidebar steps of `budget` ms, each a new execution, until the run ends; an execution killed is followed by the next. */
function drive(w: World, budget: number, maxSteps: number): { status: string; lengths: number[]; early: number } {
  const lengths: number[] = [];
  let status = 'running';
  let early = 0;
  for (let k = 0; k < maxSteps && status === 'running'; k++) {
    const start = w.clock.t;
    const ports = w.nextExecution();
    try {
      const begun = w.runs.has('imp1');
      status = (begun ? continueRun('imp1', ports, start + budget) : beginRun('imp1', 'sidebar', ports, start + budget))
        .status;
    } catch (e) {
      if (!(e instanceof Killed)) throw e;
    }
    lengths.push(w.clock.t - start);
    if (status !== 'done' && w.tables.has('Partners')) early++;
  }
  return { status, lengths, early };
}

/** The import of seed `seed`, and what it did. */
export function randomImport(seed: number, focus: Focus = {}): RandomImport {
  const total = Math.floor(draw(seed, 0, 0) * 100 * (focus.pages ?? 13));
  const pastEnd = draw(seed, 0, 1) < 0.5 ? 'empty' : '404';
  const rate = 0.1 + 0.5 * draw(seed, 0, 2);
  const budget = [6_000, 10_000, 20_000][Math.floor(draw(seed, 0, 3) * 3)];
  const asks = new Map<number, number>();
  const answered = new Map<number, number>();
  let added = 0;
  // Partners only added, or only removed: a removal and an addition between two page reads keep the total, and no
  // list read by offset (this service's has no version or cursor) can tell that from a still list.
  const removing = draw(seed, 0, 5) < 0.5;
  // Every state the list went through: a table must be one of them, not a mix.
  const versions: string[] = [JSON.stringify(records(total).map((r) => r.id))];
  let kills = 0;
  const list = fakeList(records(total), {
    pastEnd,
    before: (_page, call) => {
      if (focus.kills && kills < 5 && draw(seed, call, 500) < 0.06) {
        kills++;
        w.kill();
      }
      if (!focus.live || call >= 3 * Math.max(1, Math.ceil(total / 100)) || draw(seed, call, 300) >= 0.3) return;
      const at = Math.floor(draw(seed, call, 301) * (list.items.length + 1));
      if (removing && list.items.length > 0) list.items.splice(Math.min(at, list.items.length - 1), 1);
      else list.items.splice(at, 0, { id: `new${added++}`, fullName: 'New' });
      versions.push(JSON.stringify(list.items.map((r) => r.id)));
    },
    fail: (page): ServiceError | undefined => {
      const n = (asks.get(page) ?? 0) + 1;
      asks.set(page, n);
      // At most four refusals of one page, so that every run can end.
      if (n === 1 && page === 1 && focus.pageOneLate) return limited(20 + Math.floor(40 * draw(seed, 1, 200)));
      if (n <= 4 && draw(seed, page, n) < rate) return limited(1 + Math.floor(45 * draw(seed, page, n + 100)));
      answered.set(page, (answered.get(page) ?? 0) + 1);
      return undefined;
    },
  });
  const w = world(list.fetch, [spec], { msPerFetch: 20 + Math.floor(draw(seed, 0, 4) * 200) });
  const publishedIds = focus.snapshot ? snapshotStore(w) : () => null;
  const { status, lengths, early } = drive(w, budget, 400);
  const snap = publishedIds();
  const ids = (w.tables.get('Partners') ?? []).slice(1).map((r) => r[0]);
  return {
    seed,
    status,
    exact: versions.includes(JSON.stringify(ids)),
    overBudget: lengths.filter((l) => l > budget).length,
    repeated: focus.live || focus.kills ? [] : [...answered].filter(([, n]) => n > 1).map(([page]) => page),
    stagingLeft: w.staging.size > 0,
    early,
    snapshotWrong: snap !== null && JSON.stringify(snap) !== JSON.stringify(ids),
  };
}

/**
 * Whether import `o` kept every promise: done with the list, no step past its budget, no page
 * answered twice, staging gone, the target sheet untouched until the run was done.
 */
export const kept = (o: RandomImport): boolean =>
  o.status === 'done' &&
  o.exact &&
  o.overBudget === 0 &&
  o.repeated.length === 0 &&
  !o.stagingLeft &&
  o.early === 0 &&
  !o.snapshotWrong;

/** The first import of seeds `first` to `last` that broke a promise (see kept), if any: the sweep stops there. */
export function firstBroken(first: number, last: number, focus?: Focus): RandomImport | undefined {
  for (let seed = first; seed <= last; seed++) {
    const o = randomImport(seed, focus);
    if (!kept(o)) return o;
  }
  return undefined;
}
