/**
 * The shared partner snapshot an import leaves (src/import/machine.ts, src/api/snapshot.ts): written
 * as the read's checks pass its pages, in chunks, and published only when the read is complete.
 * Each case was once a file of its own; driven over the in-memory ports (test/helpers).
 */
import type { ServiceRecord } from '../../../src/api/records';
import { CHUNK_RECORDS } from '../../../src/api/snapshot';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';
import type { ImportPorts } from '../../../src/import/ports';
import { beginRun, continueRun } from '../../../src/import/machine';
import type { RunSummary } from '../../../src/import/run-state';

describe('snapshot', () => {
  /**
   * The shared partner snapshot an import leaves (src/import/machine.ts over the snapshot port): a
   * run that fetched every record it writes sends them, those with a usable id, in list order, and
   * publishes them once the list is complete; a run that took pages back from staging (whose records
   * it no longer has) or read nothing publishes none.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  /** Ports with a snapshot that records what it is sent and what is published. */
  function withSnapshot(w: World, present: (execution: number) => boolean = () => true) {
    let execution = 0;
    const sent: Array<{ gen: string; first: number; ids: unknown[] }> = [];
    const published: Array<[string, number]> = [];
    const next = w.nextExecution.bind(w);
    w.nextExecution = () => {
      const ports = next();
      if (!present(execution++)) return ports;
      ports.snapshot = {
        write: (gen, first, recs: readonly ServiceRecord[]) => {
          sent.push({ gen, first, ids: recs.map((r) => r.id) });
          return Math.ceil(recs.length / CHUNK_RECORDS);
        },
        publish: (gen, chunks) => {
          published.push([gen, chunks]);
        },
      };
      return ports;
    };
    return { sent, published };
  }

  test('a complete read sends the records with a usable id, in list order, and publishes them', () => {
    const items = records(250);
    items[10] = { ...items[10], id: '' };
    items[20] = { fullName: 'No id at all' };
    const w = world(fakeList(items).fetch, [spec]);
    const { sent, published } = withSnapshot(w);
    expect(timedDrive(w, 60_000).steps.pop()?.status).toBe('done');
    const ids = sent.flatMap((s) => s.ids);
    expect(ids).toEqual(items.map((r) => r.id).filter((id) => id !== '' && id !== undefined));
    const chunks = sent.reduce((n, s) => n + Math.ceil(s.ids.length / CHUNK_RECORDS), 0);
    expect(chunks).toBeGreaterThan(0);
    expect(published).toEqual([[sent[0].gen, chunks]]);
  });

  test('an empty list publishes no snapshot', () => {
    const w = world(fakeList([]).fetch, [spec]);
    const { published } = withSnapshot(w);
    expect(timedDrive(w, 60_000).steps.pop()?.status).toBe('done');
    expect(published).toEqual([]);
  });

  test('a run that took pages back from staging publishes nothing, though it sent the records it fetched', () => {
    const list = fakeList(records(2500), { fail: (page, call) => (page === 3 && call < 10 ? limited(15) : undefined) });
    const w = world(list.fetch, [spec]);
    const { sent, published } = withSnapshot(w);
    const { steps } = timedDrive(w, 15_000);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.pop()?.status).toBe('done');
    expect(sent.length).toBeGreaterThan(0);
    expect(published).toEqual([]);
  });

  test('a run whose first step had no snapshot to write to sends and publishes none: the records of that step are missing', () => {
    const w = world(fakeList(records(2500)).fetch, [spec], { msPerFetch: 1000 });
    const { sent, published } = withSnapshot(w, (execution) => execution > 0);
    const { steps } = timedDrive(w, 15_000);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.pop()?.status).toBe('done');
    expect(sent).toEqual([]);
    expect(published).toEqual([]);
  });
});

describe('snapshot chunks', () => {
  /**
   * The shared partner snapshot an import leaves as it reads the whole list: the records of the
   * pages it reads go to the cache in whole chunks as they fill (five chunks at least per write, so
   * a long step never holds every record), the rest at the step's end, and a complete read
   * publishes them as one generation; a read that took pages it did not fetch itself publishes none.
   * Driven over the in-memory ports with a snapshot port that keeps what it is given.
   */
  const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

  interface Snap {
    /** Each write: generation, first chunk, records. */
    writes: Array<{ gen: string; first: number; records: ServiceRecord[] }>;
    published: Array<{ gen: string; chunks: number }>;
    /** The records of a generation, chunk after chunk. */
    of(gen: string, chunks: number): ServiceRecord[];
  }

  function snapshotPort(): Snap & { port: NonNullable<ImportPorts['snapshot']> } {
    const chunks = new Map<string, ServiceRecord[]>();
    const s = {
      writes: [] as Snap['writes'],
      published: [] as Snap['published'],
      of: (gen: string, n: number) => Array.from({ length: n }, (_, i) => chunks.get(`${gen}/${i}`) ?? []).flat(),
      port: {
        write: (gen: string, first: number, recs: readonly ServiceRecord[]) => {
          s.writes.push({ gen, first, records: [...recs] });
          const n = Math.ceil(recs.length / CHUNK_RECORDS);
          for (let i = 0; i < n; i++)
            chunks.set(`${gen}/${first + i}`, recs.slice(i * CHUNK_RECORDS, (i + 1) * CHUNK_RECORDS));
          return n;
        },
        publish: (gen: string, n: number) => {
          s.published.push({ gen, chunks: n });
        },
      },
    };
    return s;
  }

  /** Drives import `imp1` step by step; `withSnapshot(k)` says whether step k's execution has a snapshot port. */
  function drive(
    w: World,
    snap: Snap & { port: NonNullable<ImportPorts['snapshot']> },
    budget: number,
    withSnapshot = (_k: number) => true,
  ): RunSummary[] {
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

  describe('import: the shared snapshot', () => {
    test('whole chunks are written as five fill, the rest at the end of the step, and the read is published in list order', () => {
      // Pages of 150: after page 7, 1050 records are in (five chunks and 50 more); page 8 brings the last 50.
      const w = world(fakeList(records(1100), { cap: 150 }).fetch, [spec]);
      const snap = snapshotPort();
      const steps = drive(w, snap, 60_000);
      expect(steps.map((s) => s.status)).toEqual(['done']);
      expect(snap.writes.map((x) => [x.first, x.records.length])).toEqual([
        [0, 5 * CHUNK_RECORDS],
        [5, 100],
      ]);
      expect(snap.published).toHaveLength(1);
      const { gen, chunks } = snap.published[0];
      expect(chunks).toBe(6);
      expect(snap.writes.every((x) => x.gen === gen)).toBe(true);
      expect(ids(snap.of(gen, chunks))).toEqual(ids(records(1100)));
    });

    test('a flush comes as soon as five chunks are in, not one page later', () => {
      const w = world(fakeList(records(1200), { cap: 200 }).fetch, [spec]);
      const snap = snapshotPort();
      drive(w, snap, 60_000);
      expect(snap.writes.map((x) => x.records.length)).toEqual([5 * CHUNK_RECORDS, 200]);
    });

    test('pages held from the previous step end the snapshot of this read: what the step fetched is not written', () => {
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
      expect(ids(snap.writes.flatMap((x) => x.records))).toEqual(ids(records(200)));
      expect(snap.published).toEqual([]);
    });

    test('a read of fewer than five chunks is written once, at the end of the step', () => {
      const w = world(fakeList(records(999), { cap: 100 }).fetch, [spec]);
      const snap = snapshotPort();
      drive(w, snap, 60_000);
      expect(snap.writes.map((x) => x.records.length)).toEqual([999]);
      expect(ids(snap.of(snap.published[0].gen, snap.published[0].chunks))).toEqual(ids(records(999)));
    });

    test('a run of several steps writes one generation and publishes all of it', () => {
      const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec], { msPerFetch: 1000 });
      const snap = snapshotPort();
      const steps = drive(w, snap, 25_000);
      expect(steps.length).toBeGreaterThan(2);
      expect(steps[steps.length - 1].status).toBe('done');
      expect(new Set(snap.writes.map((x) => x.gen)).size).toBe(1);
      expect(snap.published).toHaveLength(1);
      const { gen, chunks } = snap.published[0];
      expect(ids(snap.of(gen, chunks))).toEqual(ids(records(1050)));
    });

    test('a read that took pages fetched without the snapshot publishes none (it would not be whole)', () => {
      const w = world(fakeList(records(1050), { cap: 10 }).fetch, [spec], { msPerFetch: 1000 });
      const snap = snapshotPort();
      const steps = drive(w, snap, 25_000, (k) => k > 0);
      expect(steps[steps.length - 1].status).toBe('done');
      expect(snap.writes).toEqual([]);
      expect(snap.published).toEqual([]);
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
      expect(snap.published).toHaveLength(1);
      const { gen, chunks } = snap.published[0];
      expect(ids(snap.of(gen, chunks))).toEqual(ids(records(300).slice(1)));
      expect(new Set(snap.writes.map((x) => x.gen)).size).toBe(2);
    });
  });
});
