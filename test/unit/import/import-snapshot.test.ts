/**
 * The shared partner snapshot an import leaves (src/import/machine.ts over the snapshot port): each
 * step writes the records of the pages it read (those with a usable id, each at its place in the
 * list) as one part, sooner once PART_RECORDS are held, so a long step never holds every record; a
 * complete read publishes its parts as one generation, from the time the read began. A read that
 * took pages fetched without a snapshot port publishes none (it would not be whole). It is written
 * where it is read: where one is kept (the import refreshes it), or where the list is longer than a
 * formula reads itself. Driven over the in-memory ports (test/helpers) with a snapshot port that
 * keeps what it is given.
 */
import { MAX_FILL_PAGES, MAX_SNAPSHOT_RECORDS } from '../../../src/api/lookup-cache';
import { ServiceError } from '../../../src/api/errors';
import type { ServiceRecord } from '../../../src/api/records';
import { beginRun, continueRun, PART_RECORDS } from '../../../src/import/machine';
import type { ImportPorts } from '../../../src/import/ports';
import type { RunSummary } from '../../../src/import/run-state';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { limited } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

interface Snap {
  /** Each part written: generation, part, records, places. */
  writes: Array<{ gen: string; part: number; records: ServiceRecord[]; places: number[] }>;
  published: Array<{ gen: string; total: number; parts: number[]; readAt: number }>;
  /** How many times the kept snapshot was removed. */
  retired: number;
  /** The records of a generation's first `parts` parts, in list order. */
  of(gen: string, parts: number): ServiceRecord[];
  port: NonNullable<ImportPorts['snapshot']>;
}

/** A snapshot port; `kept`: whether the cache holds a snapshot (a formula read the list into one). */
function snapshotPort(kept = true): Snap {
  const s: Snap = {
    writes: [],
    published: [],
    retired: 0,
    of: (gen, parts) => {
      // The last write of each part counts (a killed step's part is written again).
      const last = new Map(s.writes.filter((x) => x.gen === gen && x.part < parts).map((x) => [x.part, x]));
      const placed = [...last.values()].flatMap((x) => x.records.map((r, i) => [x.places[i], r] as const));
      return placed.sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    },
    port: {
      kept: () => kept,
      write: (gen, part, recs, places) => {
        s.writes.push({ gen, part, records: [...recs], places: [...places] });
        return Math.ceil(recs.length / 200);
      },
      publish: (gen, total, parts, readAt) => {
        s.published.push({ gen, total, parts, readAt });
      },
      retire: () => {
        s.retired++;
      },
    },
  };
  return s;
}

/** Drives import `imp1` step by step; `withSnapshot(k)` says whether step k's execution has a snapshot port. */
function drive(w: World, snap: Snap, budget: number, withSnapshot = (_k: number) => true): RunSummary[] {
  const seen: RunSummary[] = [];
  do {
    const ports = w.nextExecution();
    if (withSnapshot(seen.length)) ports.snapshot = snap.port;
    const deadline = w.clock.t + budget;
    seen.push(seen.length ? continueRun('imp1', ports, deadline) : beginRun('imp1', 'sidebar', ports, deadline));
  } while (seen[seen.length - 1].status === 'running' && seen.length < 100);
  return seen;
}

const ids = (rs: readonly ServiceRecord[]) => rs.map((r) => r.id);

/** The one generation published, read back in list order. */
function publishedIds(snap: Snap): unknown[] {
  expect(snap.published).toHaveLength(1);
  const { gen, parts } = snap.published[0];
  return ids(snap.of(gen, parts.length));
}

test('a complete read writes the records with a usable id at their places, and publishes them in list order', () => {
  const items = records(250);
  items[10] = { ...items[10], id: '' };
  items[20] = { fullName: 'No id at all' };
  const w = world(fakeList(items).fetch, [spec]);
  const snap = snapshotPort();
  expect(drive(w, snap, 60_000).pop()?.status).toBe('done');
  const usable = items.filter((r) => r.id !== '' && r.id !== undefined);
  expect(publishedIds(snap)).toEqual(ids(usable));
  expect(snap.writes.flatMap((x) => x.places)).toEqual(items.flatMap((r, i) => (usable.includes(r) ? [i] : [])));
  expect(snap.published[0]).toMatchObject({
    total: usable.length,
    parts: snap.writes.map((x) => Math.ceil(x.records.length / 200)),
  });
});

test('an empty list publishes no snapshot', () => {
  const w = world(fakeList([]).fetch, [spec]);
  const snap = snapshotPort();
  expect(drive(w, snap, 60_000).pop()?.status).toBe('done');
  expect(snap.published).toEqual([]);
});

test(`a step writes its records as one part at its end, or sooner once ${PART_RECORDS} are held`, () => {
  const n = PART_RECORDS + 1500;
  const w = world(fakeList(records(n), { cap: 500 }).fetch, [spec]);
  const snap = snapshotPort();
  expect(drive(w, snap, 300_000).map((s) => s.status)).toEqual(['done']);
  expect(snap.writes.map((x) => [x.part, x.records.length])).toEqual([
    [0, PART_RECORDS],
    [1, 1500],
  ]);
  // Each record with its own place: the second part starts where the first ended.
  expect(snap.writes.flatMap((x) => x.places)).toEqual(records(n).map((_, i) => i));
  expect(publishedIds(snap)).toEqual(ids(records(n)));
});

test('a run of several steps writes one part a step under one generation and publishes all of it, from when the read began', () => {
  const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec], { msPerFetch: 1000 });
  const began = w.clock.t;
  const snap = snapshotPort();
  const steps = drive(w, snap, 25_000);
  expect(steps.length).toBeGreaterThan(2);
  expect(steps[steps.length - 1].status).toBe('done');
  expect(new Set(snap.writes.map((x) => x.gen)).size).toBe(1);
  expect(snap.writes.map((x) => x.part)).toEqual(snap.writes.map((_, k) => k));
  expect(publishedIds(snap)).toEqual(ids(records(1050)));
  expect(snap.published[0].readAt).toBe(began);
});

test('pages held from the previous step and taken back from staging: the snapshot is still whole', () => {
  let refused = false;
  const list = fakeList(records(500), {
    fail: (page) => {
      if (page !== 3 || refused) return undefined;
      refused = true;
      return limited(30);
    },
  });
  const w = world(list.fetch, [spec]);
  const snap = snapshotPort();
  const steps = drive(w, snap, 20_000);
  expect(steps.length).toBeGreaterThan(1);
  expect(steps[steps.length - 1].status).toBe('done');
  expect(publishedIds(snap)).toEqual(ids(records(500)));
});

test('a read that took pages fetched without the snapshot port publishes none (it would not be whole)', () => {
  const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec], { msPerFetch: 1000 });
  const snap = snapshotPort();
  const steps = drive(w, snap, 25_000, (k) => k > 0);
  expect(steps.length).toBeGreaterThan(1);
  expect(steps[steps.length - 1].status).toBe('done');
  expect(snap.writes.length).toBeGreaterThan(0);
  expect(snap.published).toEqual([]);
  // Nor does it remove the copy kept: that copy is the last whole one.
  expect(snap.retired).toBe(0);
});

test('a list read again publishes the last read, under its own generation', () => {
  const list = fakeList(records(300));
  let moved = false;
  const w = world(
    (pages, limit) => {
      if (pages.includes(2) && !moved) {
        moved = true;
        list.items = list.items.slice(1);
      }
      return list.fetch(pages, limit);
    },
    [spec],
  );
  const snap = snapshotPort();
  const steps = drive(w, snap, 60_000);
  expect(steps[steps.length - 1].status).toBe('done');
  expect(w.runs.get('imp1')?.pass).toBe(2);
  expect(publishedIds(snap)).toEqual(ids(records(300).slice(1)));
  expect(new Set(snap.writes.map((x) => x.gen)).size).toBe(2);
});

describe('where the snapshot is written', () => {
  test('a list a formula could read, into a document where none is kept: the import writes and publishes none', () => {
    const w = world(fakeList(records(250)).fetch, [spec]);
    const snap = snapshotPort(false);
    expect(drive(w, snap, 60_000).pop()?.status).toBe('done');
    expect(snap.writes).toEqual([]);
    expect(snap.published).toEqual([]);
    expect(w.tables.get('Partners')).toHaveLength(251);
  });

  test('the same list where one is kept: the import refreshes it', () => {
    const w = world(fakeList(records(250)).fetch, [spec]);
    const snap = snapshotPort(true);
    expect(drive(w, snap, 60_000).pop()?.status).toBe('done');
    expect(publishedIds(snap)).toEqual(ids(records(250)));
  });

  test('a list of as many pages as a formula reads itself (MAX_FILL_PAGES), none kept: the import writes none', () => {
    const total = MAX_FILL_PAGES * 10;
    const w = world(fakeList(records(total), { cap: 10 }).fetch, [spec]);
    const snap = snapshotPort(false);
    expect(drive(w, snap, 600_000).pop()?.status).toBe('done');
    expect(snap.writes).toEqual([]);
    expect(w.tables.get('Partners')).toHaveLength(total + 1);
  });

  test('a list longer than a formula reads itself (MAX_FILL_PAGES): the import writes it though none is kept', () => {
    const total = (MAX_FILL_PAGES + 1) * 10;
    const w = world(fakeList(records(total), { cap: 10 }).fetch, [spec]);
    const snap = snapshotPort(false);
    expect(drive(w, snap, 600_000).pop()?.status).toBe('done');
    expect(publishedIds(snap)).toEqual(ids(records(total)));
  });

  test(`a list of as many records as the cache keeps a copy of (MAX_SNAPSHOT_RECORDS): the import refreshes the copy`, () => {
    const w = world(fakeList(records(MAX_SNAPSHOT_RECORDS), { cap: 1000 }).fetch, [spec]);
    const snap = snapshotPort(true);
    expect(drive(w, snap, 600_000).pop()?.status).toBe('done');
    expect(snap.published).toHaveLength(1);
    expect(snap.published[0].total).toBe(MAX_SNAPSHOT_RECORDS);
    expect(snap.retired).toBe(0);
  });

  test('a list of one record more: the import writes no part of it, retires the copy of the older list, and fills its table', () => {
    const total = MAX_SNAPSHOT_RECORDS + 1;
    const w = world(fakeList(records(total), { cap: 1000 }).fetch, [spec]);
    const snap = snapshotPort(true);
    expect(drive(w, snap, 600_000).pop()?.status).toBe('done');
    expect(snap.writes).toEqual([]);
    expect(snap.published).toEqual([]);
    expect(snap.retired).toBe(1);
    expect(w.tables.get('Partners')).toHaveLength(total + 1);
  });

  test('at that many, read in steps the first of which had no snapshot port: none published, the kept copy left', () => {
    const w = world(fakeList(records(MAX_SNAPSHOT_RECORDS), { cap: 1000 }).fetch, [spec], { msPerFetch: 1000 });
    const snap = snapshotPort(true);
    const steps = drive(w, snap, 60_000, (k) => k > 0);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(snap.published).toEqual([]);
    expect(snap.retired).toBe(0);
  });

  test('one more, in an execution with no snapshot port: the import is done all the same', () => {
    const total = MAX_SNAPSHOT_RECORDS + 1;
    const w = world(fakeList(records(total), { cap: 1000 }).fetch, [spec]);
    expect(drive(w, snapshotPort(true), 600_000, () => false).pop()?.status).toBe('done');
    expect(w.tables.get('Partners')).toHaveLength(total + 1);
  });

  test('a list too long to keep whose import fails leaves the kept copy as it was', () => {
    const total = MAX_SNAPSHOT_RECORDS + 1;
    const fail = (page: number) => (page === 100 ? new ServiceError('AUTH', 'The API key was refused.') : undefined);
    const w = world(fakeList(records(total), { cap: 1000, fail }).fetch, [spec]);
    const snap = snapshotPort(true);
    expect(drive(w, snap, 600_000).pop()?.status).toBe('failed');
    expect(snap.retired).toBe(0);
  });
});
