/**
 * What an import step writes and when (src/import/machine.ts): the pages it read go to staging at
 * their place in one write (each row as wide as the row's shape, every staging call counted), a
 * step keeps the time to write what it holds and never starts work it has no time for, the read
 * that ends writes the table once, and the run's counters. Each case was once a file of its own;
 * driven over the in-memory ports (test/helpers).
 */
import { ServiceError } from '../../../src/api/errors';
import { type ImportSpec, checkSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import {
  eachExecution,
  idsBelowHeader,
  stagingCalls,
  type StagingCalls,
  type World,
  world,
} from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import {
  adoptTable,
  beginRun,
  continueRun,
  FIRST_PAGE_LIMIT,
  PAGES_PER_FETCH,
  WRITE_MARGIN,
  writeMargin,
} from '../../../src/import/machine';
import { refusingList } from '../../helpers/refusing-list';
import { DEADLINE_MARGIN_MS } from '../../../src/api/client';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import type { ImportPorts, OutCell } from '../../../src/import/ports';
import type { RunSummary } from '../../../src/import/run-state';
import { rowShape } from '../../../src/import/shape';

describe('staging', () => {
  /**
   * Staging across steps: the rows a step reads are kept in the staging area at their place in the
   * list (row i of staging is the list's record i), pages read ahead of one that must wait are kept
   * there too and taken back in the next step without being asked for again (page 1 is read before any
   * other: it places them), and the run's table is the list. Checked after every step, over refusals of page 1 and of later pages.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  /** A list of `n` records in pages of `cap`, whose pages `refuse` are refused once, each with its Retry-After (s). */
  function scene(n: number, cap: number, refuse: Record<number, number>, msPerFetch = 100) {
    const once = new Set<number>();
    const list = fakeList(records(n), {
      cap,
      fail: (page): ServiceError | undefined => {
        if (!(page in refuse) || once.has(page)) return undefined;
        once.add(page);
        return limited(refuse[page]);
      },
    });
    const w = world(list.fetch, [spec], { msPerFetch });
    return { w, list };
  }

  /** Every staged row is the list's record at its place (rows not written yet are blank). */
  function stagedInPlace(w: World, n: number): void {
    const want = records(n).map((r) => [r.id, r.fullName]);
    const rows = (w.staging.get('imp1') ?? []).slice(1);
    rows.forEach((r, i) => {
      if (r?.some((c) => c !== '')) expect([i, r]).toEqual([i, want[i]]);
    });
  }

  /** Drives the run, checking staging after every step; returns the steps' statuses and the pages asked for that were answered. */
  function checked(n: number, cap: number, refuse: Record<number, number>, budget: number, msPerFetch = 100) {
    const { w, list } = scene(n, cap, refuse, msPerFetch);
    const statuses: string[] = [];
    let stagedRows = 0;
    for (let k = 0; k < 60; k++) {
      const { steps } = timedDrive(w, budget, 1);
      const s = steps[0];
      statuses.push(s.status);
      if (s.status !== 'running') break;
      stagedInPlace(w, n);
      stagedRows = Math.max(stagedRows, (w.staging.get('imp1') ?? []).length - 1);
    }
    const answered = list.asked.map((a) => a.page);
    return { w, list, statuses, answered, stagedRows };
  }

  const ids = (w: World) => (w.tables.get('Partners') ?? []).slice(1).map((r) => r[0]);
  const once = (pages: number[]) => pages.filter((p, i) => pages.indexOf(p) !== i);

  describe('staging across steps', () => {
    test('a later page that must wait: the pages after it are staged at their place and not asked for again', () => {
      const r = checked(1000, 100, { 3: 30 }, 20_000);
      expect(r.statuses.length).toBeGreaterThan(1);
      expect(r.statuses[r.statuses.length - 1]).toBe('done');
      expect(r.stagedRows).toBeGreaterThan(300);
      expect(once(r.answered)).toEqual([3]);
      expect(ids(r.w)).toEqual(records(1000).map((x) => x.id));
    });

    test('page 1 that must wait past a step: nothing is read ahead of it, and no other page is asked twice', () => {
      const r = checked(1000, 100, { 1: 30 }, 20_000);
      expect(r.statuses).toEqual(['running', 'done']);
      expect(r.stagedRows).toBe(0);
      expect(once(r.answered)).toEqual([1]);
      expect(ids(r.w)).toEqual(records(1000).map((x) => x.id));
    });

    test('two pages that must wait, in steps of many pages each', () => {
      const r = checked(5000, 100, { 2: 25, 30: 45 }, 20_000);
      expect(r.statuses[r.statuses.length - 1]).toBe('done');
      expect(once(r.answered).sort((a, b) => a - b)).toEqual([2, 30]);
      expect(ids(r.w)).toEqual(records(5000).map((x) => x.id));
    });
  });
});

describe('staging ahead', () => {
  /**
   * A step whose next page must wait from its first request (src/import/machine.ts save): it takes
   * nothing, but the many pages it read behind that page are written to staging at their place, so
   * the steps after it take them back without asking for them again.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  test('pages read behind a page that waits the whole step are kept, and asked for once', () => {
    let executions = 0;
    let firstOfSecond: number | undefined;
    const list = fakeList(records(20_000), {
      fail: (page): ServiceError | undefined => {
        // The first page the second step asks for waits 60 s, past that step's end.
        if (executions === 2 && firstOfSecond === undefined) {
          firstOfSecond = page;
          return limited(60);
        }
        return undefined;
      },
    });
    const w = world(list.fetch, [spec], { msPerFetch: 200 });
    eachExecution(w, () => {
      executions++;
    });
    const { steps } = timedDrive(w, 20_000);
    expect(steps.map((s) => s.status).pop()).toBe('done');
    expect(firstOfSecond).toBeGreaterThan(1);
    const times = new Map<number, number>();
    for (const { page } of list.asked) times.set(page, (times.get(page) ?? 0) + 1);
    times.set(firstOfSecond as number, (times.get(firstOfSecond as number) ?? 0) - 1);
    expect([...times].filter(([, k]) => k !== 1)).toEqual([]);
    expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(records(20_000).map((r) => r.id));
  });
});

describe('staging runs', () => {
  /**
   * How a step that read few pages writes them to staging (src/import/machine.ts save): at their
   * place, one write per run of consecutive pages in list order, whatever order the pages came in.
   * Driven over the in-memory ports, with every staging write of the step recorded.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  test('page 1 that came after the pages behind it is written with them, in one write from row 0', () => {
    // Page 1 waits 2 s; pages from 6 on wait 200 s: the first step reads pages 2 to 5, then page 1.
    const list = refusingList(2000, (page, call) =>
      call === 0 && (page === 1 || page >= 6) ? limited(page === 1 ? 2 : 200) : undefined,
    );
    const w = world(list.fetch, [spec]);
    const writes: Array<{ at: number; rows: number }> = [];
    const ports = w.nextExecution();
    const write = ports.staging.write;
    ports.staging.write = (id, header, at, rows) => {
      writes.push({ at, rows: rows.length });
      write(id, header, at, rows);
    };
    const first = beginRun('imp1', 'sidebar', ports, w.clock.t + 20_000);
    expect(first.status).toBe('running');
    expect(list.asked.filter((a) => a.page === 1)).toHaveLength(2);
    expect(writes).toEqual([{ at: 0, rows: 500 }]);
    expect(idsBelowHeader(w.staging.get('imp1'))).toEqual(records(500).map((r) => r.id));
    // The run goes on from page 6 once it may be asked for.
    let summary = first;
    for (let k = 0; k < 20 && summary.status === 'running'; k++)
      summary = continueRun('imp1', w.nextExecution(), w.clock.t + 20_000);
    expect(summary.status).toBe('done');
    expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(records(2000).map((r) => r.id));
  });
});

describe('staging writes', () => {
  /**
   * What a step writes to staging (src/import/machine.ts save): the pages it read, at their place,
   * and not the pages the previous step already kept there (nothing when it read nothing). Driven
   * over the in-memory ports, with the rows of every staging write counted per step.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  test('the step that reads a page the previous one waited for writes that page alone, at its place', () => {
    // Page 3 waits 15 s, past the first step; page 20 waits 100 s, past the second.
    const list = refusingList(2500, (page, call) =>
      call > 0 ? undefined : page === 3 ? limited(15) : page === 20 ? limited(100) : undefined,
    );
    const w = world(list.fetch, [spec]);
    const calls = stagingCalls(w);
    const { steps } = timedDrive(w, 15_000);
    expect(steps.pop()?.status).toBe('done');
    expect(steps[1].status).toBe('running');
    expect(calls[1].writes).toEqual([{ at: 200, rows: 100 }]);
    // It holds the one page it writes: nothing is read back.
    expect(calls[1].reads).toEqual([]);
    expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(records(2500).map((r) => r.id));
  });

  test('a first step that reads nothing (its budget already spent) writes no staging', () => {
    const w = world(fakeList(records(250)).fetch, [spec]);
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t - 1).status).toBe('running');
    expect(w.staging.has('imp1')).toBe(false);
  });
});

describe('staging write rule', () => {
  /**
   * The writes a step makes to staging (src/import/machine.ts save), each one a write to the
   * spreadsheet: one, from the first page the step read to the last, each at its place, with blank
   * rows for the pages still missing. A page read ahead that does not fit the list (it shows another
   * total) is not kept for the next step, and a step that only waits writes nothing. Driven over the in-memory
   * ports, with every staging write recorded per step.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  const ids = (w: World) =>
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]);

  /**
   * A list of `read` full pages of 100 and a last one of 50, page 2 refused for 60 s at its first
   * request: the first step (20 s) reads page 1, then every other page, and waits for page 2 to its end.
   * Returns each step's staging calls, after checking the run then imports the whole list.
   */
  function stepCalls(read: number): StagingCalls[] {
    const total = read * 100 + 50;
    const w = world(refusingList(total, (page, call) => (page === 2 && call === 0 ? limited(60) : undefined)).fetch, [
      spec,
    ]);
    const calls = stagingCalls(w);
    const { steps } = timedDrive(w, 20_000);
    expect(steps[0].status).toBe('running');
    expect(steps[steps.length - 1].status).toBe('done');
    expect(ids(w)).toEqual(records(total).map((r) => r.id));
    return calls;
  }

  describe('pages read around a page that waits', () => {
    test('a few pages: one write from page 1, the missing page blank', () => {
      expect(stepCalls(4)[0].writes).toEqual([{ at: 0, rows: 450 }]);
    });

    test('many pages: still one write', () => {
      expect(stepCalls(30)[0].writes).toEqual([{ at: 0, rows: 3050 }]);
    });
  });

  test('the step that ends the read writes the table from its own pages and what earlier steps staged: it stages nothing', () => {
    const calls = stepCalls(30);
    expect(calls[calls.length - 1]).toEqual({ writes: [], reads: [3050] });
  });

  test('a page read ahead that shows another total than page 1 is not kept: it is asked for again', () => {
    // 500 partners; page 2 refused for 60 s at first; one partner is added just before page 4 is first served.
    const list = refusingList(500, (page, call) => {
      if (page === 4 && call === 0) list.items = records(501);
      return page === 2 && call === 0 ? limited(60) : undefined;
    });
    const w = world(list.fetch, [spec]);
    const calls = stagingCalls(w);
    const first = timedDrive(w, 20_000, 1);
    expect(first.steps[0].status).toBe('running');
    // Page 4 showed the list changed: the read was done again in the same step, its pages staged at their place
    // (page 2 blank: it still waits for its time, a Retry-After being the service's, not the read's).
    expect(calls[0].writes).toEqual([{ at: 0, rows: 501 }]);
    expect(first.notes[0]).toMatchObject({ total: 501, next: 2, slots: 'wiiii' });
    const { steps } = timedDrive(w, 20_000);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(list.answered.get(4)).toBeGreaterThan(1);
    expect(ids(w)).toEqual(records(501).map((r) => r.id));
  });

  test('steps that only wait for page 1 write nothing to staging', () => {
    // 5,000 partners; page 1 refused for 100 s at first.
    const w = world(refusingList(5000, (page, call) => (page === 1 && call === 0 ? limited(100) : undefined)).fetch, [
      spec,
    ]);
    const calls = stagingCalls(w);
    const { steps } = timedDrive(w, 20_000);
    expect(steps[steps.length - 1].status).toBe('done');
    const waiting = steps.findIndex((s) => s.page > 0);
    expect(waiting).toBeGreaterThan(1);
    expect(calls.slice(0, waiting).map((c) => c.writes)).toEqual(Array(waiting).fill([]));
  });
});

describe('late write', () => {
  /**
   * A read that ends too close to its step's end to write the table (src/import/machine.ts): it
   * leaves the writing to the next step; one that ends with just the time the write needs writes in
   * the same step. Driven over the in-memory ports with slow requests, so the time each page comes in
   * is known.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  /** 250 partners in three pages of 4 s each: page 1, then pages 2 and 3 together; all in 12 s after the start. */
  function firstStep(spare: number) {
    const w = world(fakeList(records(250)).fetch, [spec], { msPerFetch: 4000 });
    const start = w.clock.t;
    const first = beginRun('imp1', 'sidebar', w.nextExecution(), start + 12_000 + spare);
    expect(w.clock.t - start).toBe(12_000);
    return { w, first };
  }

  test('the last page in with less time left than the write of every row needs: the next step writes', () => {
    const { w, first } = firstStep(writeMargin(250, 2) - 1);
    expect(first).toMatchObject({ status: 'running', rows: 250 });
    expect(w.tables.get('Partners')).toBeUndefined();
    const fetches = w.fetches;
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000).status).toBe('done');
    expect(w.fetches).toBe(fetches);
    expect(w.tables.get('Partners')).toHaveLength(251);
  });

  test('the last page in with just the time the write needs: the same step writes', () => {
    const { w, first } = firstStep(writeMargin(250, 2));
    expect(first.status).toBe('done');
    expect(w.tables.get('Partners')).toHaveLength(251);
  });
});

describe('write past deadline', () => {
  /**
   * A run whose read ended too late to write its table leaves the writing to its next step
   * (src/import/machine.ts). That next step may itself start with no time left: the trigger
   * handlers (src/entry/triggers.ts) carry on every running import in one execution, each step
   * given the same deadline, so an import after one that used the budget starts past it. Such a step
   * must not start the write it has no time for (the execution would run past Apps Script's limit);
   * a later step with time writes. Driven over the in-memory ports with slow requests.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  test('a step that starts past its deadline with the read over leaves the write to a step with time for it', () => {
    // 250 partners in three pages of 4 s each, in 12 s; the read ends with too little time to write.
    const w = world(fakeList(records(250)).fetch, [spec], { msPerFetch: 4000 });
    const start = w.clock.t;
    expect(beginRun('imp1', 'sidebar', w.nextExecution(), start + 12_000 + writeMargin(250, 2) - 1).status).toBe(
      'running',
    );
    // The next step starts 10 s past its deadline (another import of the same execution used the budget).
    const late = continueRun('imp1', w.nextExecution(), w.clock.t - 10_000);
    expect({ status: late.status, written: w.tables.has('Partners') }).toEqual({ status: 'running', written: false });
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000).status).toBe('done');
  });
});

describe('round budget', () => {
  /**
   * The time a step keeps when it asks for pages (src/import/machine.ts roundEnd): a request goes
   * out only while the step's end, less the client's margin and the write of the rows in hand and of
   * those the round asks for, is not past. Driven over
   * the in-memory ports with slow requests (4 s each), so the time each request goes out is known.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  /**
   * 250 partners in pages of 100: page 1 alone (in at 4 s), then pages 2 and 3 together, page 3's
   * request going out at 8 s; the rows read in the first step for a deadline `ms` after the start.
   */
  function rowsRead(ms: number): number {
    const w = world(fakeList(records(250)).fetch, [spec], { msPerFetch: 4000 });
    return beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + ms).rows;
  }

  /** What the second round keeps: page 1's 100 rows in hand and the 200 it asks for. */
  const kept = DEADLINE_MARGIN_MS + writeMargin(100 + 2 * 100, 2);

  test('the last request goes out when the time it keeps is just there, and not a millisecond later', () => {
    expect(rowsRead(8000 + kept)).toBe(250);
    expect(rowsRead(8000 + kept - 1)).toBe(200);
  });

  test('a round whose time to start is exactly now still goes out', () => {
    expect(rowsRead(4000 + kept)).toBe(200);
  });
});

describe('round time kept', () => {
  /**
   * The time a round of requests keeps for writing (src/import/machine.ts roundEnd), by what the
   * step will write in its one write: the pages from the first read in the step to the last the round
   * asks for, at their place (before page 1, a page as long as the limit asks for); a round asks for as
   * many pages as that leaves time for, one at least. Requests
   * cost no time here, so each round goes out or not on its deadline alone: a round goes out when the
   * step's deadline leaves that time, and not a millisecond later.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };
  const width = spec.fields.length;
  /** Pages of the fake list. */
  const SIZE = 100;

  /** The pages each call of the first step asks for, with `ms` to its deadline, of a list of `total` partners (`fail`: refusals). */
  function calls(total: number, ms: number, fail?: (page: number) => ServiceError | undefined): number[][] {
    const list = fakeList(records(total), { fail });
    const out: number[][] = [];
    const w = world(
      (pages, limit) => {
        out.push([...pages]);
        return list.fetch(pages, limit);
      },
      [spec],
      { msPerFetch: 0 },
    );
    beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + ms);
    return out;
  }
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

  test('the first request keeps the write of a page as long as the limit asks for', () => {
    const kept = DEADLINE_MARGIN_MS + writeMargin(FIRST_PAGE_LIMIT, width);
    expect(calls(5000, kept)[0]).toEqual([1]);
    expect(calls(5000, kept - 1)).toEqual([]);
  });

  test(`page 1 in, a round asks for as many pages as the time left writes, ${PAGES_PER_FETCH} at most`, () => {
    const kept = DEADLINE_MARGIN_MS + writeMargin(SIZE + PAGES_PER_FETCH * SIZE, width);
    expect(calls(5000, kept)[1]).toEqual(range(2, PAGES_PER_FETCH + 1));
    expect(calls(5000, kept - 1)[1]).toEqual(range(2, PAGES_PER_FETCH));
  });

  test('pages held behind a page that waits count among the rows the write covers', () => {
    // Page 2 waits 1 s: the second round holds the pages after it, the third asks for as many after them:
    // the write then covers pages 1 to 2 × PAGES_PER_FETCH + 1 (page 2's place, blank, among them).
    const fail = (page: number) => (page === 2 ? limited(1) : undefined);
    const kept = DEADLINE_MARGIN_MS + writeMargin((PAGES_PER_FETCH * 2 + 1) * SIZE, width);
    const total = (3 * PAGES_PER_FETCH + 5) * SIZE;
    expect(calls(total, kept, fail)[2]).toEqual(range(PAGES_PER_FETCH + 2, 2 * PAGES_PER_FETCH + 1));
    expect(calls(total, kept - 1, fail)[2]).toEqual(range(PAGES_PER_FETCH + 2, 2 * PAGES_PER_FETCH));
  });
});

describe('step start time', () => {
  /**
   * The time a step needs to start at all (src/import/machine.ts step): the client's margin and the
   * fixed part of a write. A step given exactly that much carries on the run (here: writes the table
   * of a read that ended too late in the step before); one given a millisecond less leaves the run
   * as it is, for a step with time. Driven over the in-memory ports with slow requests.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  /** 250 partners in three pages of 4 s each, the read over 1 ms too late to write the table in its step. */
  function readOver() {
    const w = world(fakeList(records(250)).fetch, [spec], { msPerFetch: 4000 });
    const first = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 12_000 + writeMargin(250, 2) - 1);
    expect(first).toMatchObject({ status: 'running', rows: 250 });
    expect(w.tables.has('Partners')).toBe(false);
    return w;
  }

  const least = DEADLINE_MARGIN_MS + WRITE_MARGIN.fixedMs;

  test('a step given just the time a step needs to start writes the table of a read already over', () => {
    const w = readOver();
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + least).status).toBe('done');
    expect(w.tables.get('Partners')).toHaveLength(251);
  });

  test('a step given a millisecond less leaves the run as it is', () => {
    const w = readOver();
    const before = w.runs.get('imp1');
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + least - 1).status).toBe('running');
    expect(w.tables.has('Partners')).toBe(false);
    expect(w.runs.get('imp1')).toEqual(before);
  });
});

describe('run counters', () => {
  /**
   * What a run counts and says, and what a step keeps for writing: the requests, retries and
   * executions of the run's own steps (not those the execution made before a step began), summed
   * over its steps in its log row; the page a running step reached; and the write margin, a fixed
   * part and a part per cell that grows with rows times width.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  /** The next execution's ports; their counters start at what the execution did before (`before`), and count 2 retries per page. */
  function counting(w: World, before: { fetches: number; retries: number }): ImportPorts {
    const p = w.nextExecution();
    const fetch = p.pages.fetch;
    const n = { fetches: before.fetches, retries: before.retries };
    p.pages = {
      fetch: (pages, limit, until) => {
        const out = fetch(pages, limit, until);
        const sent = out.filter((o) => o.ok).length;
        n.fetches += sent;
        n.retries += 2 * sent;
        return out;
      },
      counters: () => ({ ...n }),
    };
    return p;
  }

  const col = (name: string) => RUN_LOG_HEADER.indexOf(name);

  describe('run counters', () => {
    test("a run's log row counts the requests and retries of its own steps, summed over its steps", () => {
      const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec], { msPerFetch: 1000 });
      const before = { fetches: 40, retries: 7 };
      let s = beginRun('imp1', 'sidebar', counting(w, before), w.clock.t + 25_000);
      let steps = 1;
      const running = [s];
      while (s.status === 'running' && steps < 50) {
        s = continueRun('imp1', counting(w, before), w.clock.t + 25_000);
        running.push(s);
        steps++;
      }
      expect(s.status).toBe('done');
      expect(steps).toBeGreaterThan(1);
      const row = w.runLog[0];
      expect(row[col('Fetches')]).toBe(w.fetches);
      expect(row[col('Retries')]).toBe(2 * w.fetches);
      expect(row[col('Executions')]).toBe(steps);
      // While it runs, each step says how far the read is.
      for (const r of running.slice(0, -1)) expect(r.message).toBe(`Page ${r.page} of ${r.totalPages}`);
    });
  });

  describe('write margin', () => {
    test('a fixed part for no cells', () => {
      expect(writeMargin(0, 12)).toBe(WRITE_MARGIN.fixedMs);
    });

    test('grows with the cells (rows times width), whatever their shape', () => {
      expect(writeMargin(2000, 5)).toBe(writeMargin(1000, 10));
      expect(writeMargin(1000, 10)).toBeGreaterThan(writeMargin(100, 10));
      expect(writeMargin(1000, 10)).toBeGreaterThan(WRITE_MARGIN.fixedMs);
    });
  });
});

describe('finish', () => {
  /**
   * How an import run ends (src/import/machine.ts): the run log's row and the saved import's last
   * run, the notes of the run's message (records skipped, rows with a repeated id), a replace run
   * refused at the moment of writing, the change log of a watched replace, and the analyst letting
   * the import own a table it did not write (adoptTable). Driven over the in-memory ports.
   */
  const spec = (mode: 'replace' | 'merge' = 'replace', more: Partial<ImportSpec> = {}): ImportSpec => ({
    id: 'imp1',
    sheetName: 'Partners',
    fields: ['id', 'fullName'],
    mode,
    ...more,
  });
  const drive = (w: World): RunSummary[] => timedDrive(w, 60_000).steps;
  const logCell = (w: World, row: number, column: string) => w.runLog[row][RUN_LOG_HEADER.indexOf(column)];

  describe('the run log and the saved import after a run', () => {
    test('a failed run logs no history rows and no alert: both cells empty', () => {
      const refused = world(
        fakeList(records(3), { fail: () => new ServiceError('AUTH', 'The API key was refused.') }).fetch,
        [spec()],
      );
      expect(drive(refused).pop()?.status).toBe('failed');
      expect(logCell(refused, 0, 'History rows')).toBe('');
      expect(logCell(refused, 0, 'Alert')).toBe('');
    });

    test('a failed run keeps the row count of the last run that wrote the sheet', () => {
      let refuse = false;
      const list = fakeList(records(3), {
        fail: () => (refuse ? new ServiceError('AUTH', 'The API key was refused.') : undefined),
      });
      const w = world(list.fetch, [spec()]);
      expect(drive(w).pop()?.status).toBe('done');
      expect(w.specs[0].last).toMatchObject({ status: 'done', rows: 3 });
      refuse = true;
      expect(drive(w).pop()?.status).toBe('failed');
      expect(w.specs[0].last).toMatchObject({ status: 'failed', rows: 3 });
    });

    test('a run notes its outcome on its own saved import only, wherever it is in the list', () => {
      const other: ImportSpec = { ...spec(), id: 'imp0', sheetName: 'Other' };
      const w = world(fakeList(records(3)).fetch, [other, spec()]);
      expect(drive(w).pop()?.status).toBe('done');
      expect(w.specs.find((s) => s.id === 'imp0')?.last).toBeUndefined();
      expect(w.specs.find((s) => s.id === 'imp1')?.last).toMatchObject({ status: 'done', rows: 3 });
    });

    test('an import deleted while its run reads still ends its run: the table is written and the run logged', () => {
      const list = fakeList(records(3), {
        before: () => {
          w.specs = [];
        },
      });
      const w = world(list.fetch, [spec()]);
      const end = drive(w).pop();
      expect(end?.status).toBe('done');
      expect(w.runLog).toHaveLength(1);
      expect(logCell(w, 0, 'Outcome')).toBe('done');
    });
  });

  describe("the run's message", () => {
    test('one record skipped is named in the singular', () => {
      const items = records(5);
      items[2] = { fullName: 'No id at all' };
      const w = world(fakeList(items).fetch, [spec()]);
      expect(drive(w).pop()?.message).toBe(
        'Imported 4 active limited partners into "Partners". Skipped 1 listed record: 1 without an id.',
      );
    });

    test('a merge counts the further rows with a repeated id, kept as they were', () => {
      const w = world(fakeList(records(3)).fetch, [spec('merge')]);
      w.own('Partners', [
        ['id', 'fullName'],
        ['p1', 'Name 1'],
        ['p1', 'Twice'],
      ]);
      expect(drive(w).pop()?.message).toBe(
        'Imported 3 active limited partners into "Partners". 2 new, 0 no longer active, 0 field changes. 1 row with a repeated id kept as it was.',
      );
    });
  });

  describe('a replace run refused when it comes to write', () => {
    test('a table edited while the run read is not overwritten: the run fails and says why', () => {
      const w = world(fakeList(records(2500)).fetch, [spec()], { msPerFetch: 1000 });
      w.own('Partners', [
        ['id', 'fullName'],
        ['old', 'Old'],
      ]);
      const first = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 15_000);
      expect(first.status).toBe('running');
      const edited: OutCell[][] = [
        ['id', 'fullName'],
        ['old', 'Edited'],
      ];
      w.tables.set('Partners', edited);
      const end = timedDrive(w, 60_000).steps.pop();
      expect(end?.status).toBe('failed');
      expect(end?.message).toContain('"Partners" is not as the import left it');
      expect(w.tables.get('Partners')).toEqual(edited);
    });
  });

  describe('a watched replace logs its changes', () => {
    const before: OutCell[][] = [
      ['id', 'fullName'],
      ['p0', 'Old 0'],
      ['gone', 'X'],
    ];
    const alert = { on: ['added' as const], owner: 'me@example.com' };

    test('once the alert has its baseline, every change goes to the change log', () => {
      const w = world(fakeList(records(2)).fetch, [spec('replace', { alert: { ...alert, baselineAt: 1 } })]);
      w.own('Partners', before);
      expect(drive(w).pop()?.status).toBe('done');
      expect(w.changeLog.map((c) => c.slice(1))).toEqual([
        ['Partners', 'p0', 'changed', 'fullName', 'Old 0', 'Name 0'],
        ['Partners', 'p1', 'new partner', '', '', ''],
        ['Partners', 'gone', 'no longer active', '', '', ''],
      ]);
      expect(w.changeLog.every((c) => c[0] instanceof Date)).toBe(true);
    });

    test('before its baseline (and without an alert) a replace logs none', () => {
      for (const more of [{ alert }, {}]) {
        const w = world(fakeList(records(2)).fetch, [spec('replace', more)]);
        w.own('Partners', before);
        expect(drive(w).pop()?.status).toBe('done');
        expect(w.changeLog).toEqual([]);
      }
    });
  });

  describe('the analyst lets the import own a table it did not write', () => {
    const typed: OutCell[][] = [
      ['id', 'fullName'],
      ['p0', 'Typed'],
    ];

    test('a typed table is refused by a replace until adopted; then the run replaces it', () => {
      const w = world(fakeList(records(2)).fetch, [spec()]);
      w.tables.set('Partners', typed);
      expect(drive(w).pop()?.status).toBe('failed');
      expect(w.tables.get('Partners')).toEqual(typed);
      adoptTable('imp1', w.nextExecution());
      expect(w.tags.get('Partners')?.import).toBe('imp1');
      expect(w.tables.get('Partners')).toEqual(typed);
      expect(drive(w).pop()?.status).toBe('done');
      expect(w.tables.get('Partners')).toEqual([
        ['id', 'fullName'],
        ['p0', 'Name 0'],
        ['p1', 'Name 1'],
      ]);
    });

    test('with no table in the sheet, adopting writes nothing', () => {
      const w = world(fakeList(records(2)).fetch, [spec()]);
      adoptTable('imp1', w.nextExecution());
      expect(w.writes).toEqual([]);
      expect(w.tables.has('Partners')).toBe(false);
    });
  });
});

describe('the calls to staging a step makes', () => {
  /**
   * The staging calls a step makes (src/import/machine.ts): each is a range write or read on a hidden
   * sheet, time taken from the step's budget. A step writes the pages it read in one write, a step with
   * nothing new to keep writes nothing, and a step whose held pages hold no rows reads nothing back.
   * Driven over the in-memory ports, every staging write and read counted per step.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  /** Pages `waiting` are refused with a Retry-After of 60 s until the clock passes `until`. */
  const waitingUntil =
    (w: () => World, waiting: readonly number[], until: () => number) =>
    (page: number): ServiceError | undefined =>
      waiting.includes(page) && w().clock.t < until() ? limited(60) : undefined;

  test('the pages a step read go to staging in one write, blank rows where pages still wait', () => {
    // 400 partners, 100 a page: page 5 (asked to confirm the end) is empty; pages 2 and 4 wait past the first step.
    let start = 0;
    const list = fakeList(records(400), {
      fail: waitingUntil(
        () => w,
        [2, 4],
        () => start + 30_000,
      ),
    });
    const w = world(list.fetch, [spec]);
    start = w.clock.t;
    const calls = stagingCalls(w);
    const first = timedDrive(w, 20_000, 1).steps[0];
    expect(first.status).toBe('running');
    expect(list.asked.filter((a) => a.page === 5)).toHaveLength(1);
    // Pages 1 to 5 from row 0: pages 2 and 4 blank, page 5 (the empty page after the last) no row.
    expect(calls[0].writes).toEqual([{ at: 0, rows: 400 }]);
    // A page that still waits has nothing staged to read back: its rows are blank.
    expect(calls[0].reads).toEqual([]);
    expect(
      w.staging
        .get('imp1')
        ?.slice(1)
        .map((r) => r[0] !== ''),
    ).toEqual([true, false, true, false].flatMap((b) => new Array(100).fill(b)));
    const next = w.nextExecution();
    expect(continueRun('imp1', next, w.clock.t + 60_000).status).toBe('done');
    expect(w.tables.get('Partners')?.length).toBe(401);
  });

  test('with pages of one partner, a page that still waits is staged as one blank row', () => {
    // 5 partners, 1 a page: page 3 waits past the first step; page 6 (asked to confirm the end) is empty.
    let start = 0;
    const list = fakeList(records(5), {
      cap: 1,
      fail: waitingUntil(
        () => w,
        [3],
        () => start + 30_000,
      ),
    });
    const w = world(list.fetch, [spec]);
    start = w.clock.t;
    const calls = stagingCalls(w);
    expect(timedDrive(w, 20_000, 1).steps[0].status).toBe('running');
    expect(calls[0].writes).toEqual([{ at: 0, rows: 5 }]);
    const ids = records(5).map((r) => r.id);
    expect(w.staging.get('imp1')?.slice(1)).toEqual(ids.map((id, k) => (k === 2 ? ['', ''] : [id, expect.anything()])));
    expect(continueRun('imp1', w.nextExecution(), w.clock.t + 60_000).status).toBe('done');
    expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(ids);
  });

  test('a step whose held pages hold no rows reads nothing back from staging', () => {
    // 200 partners: page 3 (asked to confirm the end) is empty and kept; page 2 waits past the first two steps.
    let start = 0;
    const list = fakeList(records(200), {
      fail: waitingUntil(
        () => w,
        [2],
        () => start + 45_000,
      ),
    });
    const w = world(list.fetch, [spec]);
    start = w.clock.t;
    const calls = stagingCalls(w);
    const { steps, notes } = timedDrive(w, 20_000);
    expect(steps[1].status).toBe('running');
    expect(notes[0]).toMatchObject({ next: 2, slots: 'wx' });
    expect(calls[1].reads).toEqual([]);
    expect(steps.pop()?.status).toBe('done');
    expect(w.tables.get('Partners')?.length).toBe(201);
  });

  test('a step that takes no page writes nothing to staging', () => {
    // The list grows by one partner after page 2 (the pages after it show another total: the read is done again);
    // page 3 waits past two steps.
    let start = 0;
    let grown = false;
    const list = fakeList(records(1000), {
      fail: waitingUntil(
        () => w,
        [3],
        () => start + 45_000,
      ),
      before: (page) => {
        if (page > 2 && !grown) {
          grown = true;
          list.items.push({ id: 'late', fullName: 'Late' });
        }
      },
    });
    const w = world(list.fetch, [spec]);
    start = w.clock.t;
    const calls = stagingCalls(w);
    const asked: number[] = [];
    eachExecution(w, () => {
      asked.push(list.asked.length);
    });
    const { steps } = timedDrive(w, 20_000);
    expect(steps[1].status).toBe('running');
    // The second step took no page: page 3 still waits.
    expect(asked[2] - asked[1]).toBe(0);
    expect(steps[1].rows).toBe(steps[0].rows);
    expect(calls[1].writes).toEqual([]);
    expect(steps.pop()?.status).toBe('done');
    expect(w.tables.get('Partners')?.length).toBe(1002);
  });
});

describe('the width of a staged row', () => {
  /**
   * The cells an import stages per partner: its own columns only when it has no filters or sort;
   * with them, also whether the partner matches and one value per sort key. The staging sheet is
   * sized by the shape's width, so every staged row is exactly that wide.
   */
  const spec = (input: Record<string, unknown>) =>
    checkSpec({ sheetName: 'Partners', fields: ['id', 'fullName', 'firm'], ...input }, [], () => 'imp1');
  const [record] = records(1);

  test('without filters or sort, only the import’s own columns are staged', () => {
    const shape = rowShape(spec({}));
    expect(shape.width).toBe(3);
    expect(shape.row(record)).toEqual(['p0', 'Name 0', '']);
  });

  test.each([
    [{ filters: [{ field: 'region', op: 'is', value: 'europe' }] }, 4],
    [{ sort: [{ field: 'firm' }] }, 5],
    [{ sort: [{ field: 'firm' }, { field: 'ticketSize', descending: true }] }, 6],
  ])('with %j, each staged row is as wide as the shape says (%i cells)', (options, width) => {
    const shape = rowShape(spec(options));
    expect(shape.width).toBe(width);
    expect(shape.row(record)).toHaveLength(width);
  });
});
