/**
 * The shared partner snapshot: the whole active-partners list kept in the cache, so that a
 * lookup of thousands of ids costs a few cache reads instead of one request per id. It is stored
 * by a hash of the id: a read of the list is written as one or more parts (a formula's read is
 * one part; an import writes one part per step, as its records come in), each part spread over
 * buckets of about BUCKET_RECORDS records by fnv1a(id), each bucket one cache value (column by
 * column, which gzips a third smaller than records, with each record's place in the list). A
 * small head names the generation, the total and each part's bucket count, and is written once
 * the read is done: a reader never mixes two lists, a lookup reads only the buckets its ids hash
 * to (no index of ids), and a bucket the cache has lost is a miss for the ids that hash to it
 * (`lost`), nothing more. The snapshot lives in the memo's namespace (one per API key and service
 * address) and has one freshness rule, the head's: fresh inside the cache lifetime from the time
 * its oldest part was read, and after the last "refresh all"; past that a last good copy.
 *
 * A scan (a formula over most of the list that shows a few fields: a range of thousands of ids,
 * LP_FILTER) reads *column copies* instead of the buckets: one cache value per field of a
 * generation, its values in list order, written by the first scan that needs it (or by the read of
 * the list itself) and kept for the freshness lifetime only, so the cache drops them first. A
 * bucket holds every field, and a scan of two fields read every bucket to use 2 % of its bytes; a
 * copy is a copy of the buckets, so a lost one is read again from them, nothing more.
 */
import { fnv1a } from './hash';
import { headKey, snapKey } from './lookup-cache';
import type { Cached, Memo } from './memo';
import { firstOfEachId, idProblem, recordId, type ServiceRecord } from './records';

/** Records of a bucket: about 75 KB gzipped and base64-encoded for typical partners. */
export const BUCKET_RECORDS = 200;
/**
 * Buckets a scan of the whole snapshot reads in one cache call. Read all at once, the 804 buckets of
 * a 160,809-partner list were parsed and held together, every field of every record.
 */
export const SCAN_BUCKETS = 20;

interface Head {
  gen: string;
  total: number;
  /** Bucket count of each part. */
  parts: number[];
}

interface Columns {
  k: string[];
  c: unknown[][];
  /** Each record's place in the list. */
  n: number[];
}

/** A published snapshot as one execution sees it. */
export interface SnapshotView extends Readonly<Head> {
  readonly fresh: boolean;
  readonly fetchedAt: number;
  /** The list as this execution read it (each usable id once): answered from memory, written or not. */
  readonly held?: Held;
}

/** A list as one execution read it: each usable id once, in list order, and by id. */
export interface Held {
  list: readonly ServiceRecord[];
  byId: ReadonlyMap<string, ServiceRecord>;
}

/** A view of a list this execution holds (Snapshot.hold). */
export type HeldView = SnapshotView & { readonly held: Held };

/** What a lookup found: the records of the ids the snapshot holds, and the ids whose bucket the cache has lost. */
export interface SnapshotFind {
  records: Map<string, ServiceRecord>;
  lost: Set<string>;
}

/** Every field of the records, in the order first seen. */
function fieldsOf(records: readonly ServiceRecord[]): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** Column layout of a bucket (or of the fields `only`); a field a record lacks is written as null (the table shows both as blank). */
export function toColumns(records: readonly ServiceRecord[], only?: readonly string[]): Pick<Columns, 'k' | 'c'> {
  const keys = only ? [...only] : fieldsOf(records);
  return { k: keys, c: keys.map((k) => column(records, k)) };
}

/**
 * One field's values. Own fields only: a record without a `__proto__` (or `constructor`…) field has none, whatever
 * `r.__proto__` reads; any other name a record lacks reads undefined, so only those names are checked one by one.
 */
function column(records: readonly ServiceRecord[], k: string): unknown[] {
  const inherited = k in Object.prototype;
  const has = Object.prototype.hasOwnProperty;
  return records.map((r) => (inherited && !has.call(r, k) ? null : (r[k] ?? null)));
}

/**
 * Records `rows` (all by default) of a bucket's columns, each in a plain loop (some four times
 * faster than an entries array per record, and a warm lookup of 10,000 ids builds every record). A
 * field named `__proto__` (valid JSON, and a field the service may send) is defined, not assigned:
 * it is then one more field, where an assignment would set the prototype of every record built.
 */
export function fromColumns(cols: Pick<Columns, 'k' | 'c'>, rows?: readonly number[]): ServiceRecord[] {
  const { k: keys, c: columns } = cols;
  return (rows ?? (columns[0] ?? []).map((_, i) => i)).map((i) => {
    const record: Record<string, unknown> = {};
    for (let j = 0; j < keys.length; j++)
      if (keys[j] === '__proto__')
        Object.defineProperty(record, keys[j], {
          value: columns[j][i],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else record[keys[j]] = columns[j][i];
    return record as ServiceRecord;
  });
}

const isCount = (v: unknown) => Number.isInteger(v) && (v as number) > 0;

function isHead(v: unknown): v is Head {
  const h = v as Head;
  return (
    !!h && typeof h.gen === 'string' && typeof h.total === 'number' && Array.isArray(h.parts) && h.parts.every(isCount)
  );
}

function isColumns(v: unknown): v is Columns {
  const c = v as Columns;
  return (
    !!c &&
    Array.isArray(c.k) &&
    Array.isArray(c.c) &&
    Array.isArray(c.n) &&
    c.k.length === c.c.length &&
    c.c.every((x) => x.length === c.n.length)
  );
}

export class Snapshot {
  constructor(private readonly memo: Memo) {}

  /** The cache key of the head, for a caller that reads it with other keys in one call (`viewOf`). */
  headKey(): string {
    return headKey(this.memo);
  }

  private bucketKey(gen: string, part: number, bucket: number): string {
    return snapKey(this.memo, `${gen}:${part}.${bucket}`);
  }

  /** The bucket key of an id in each part. */
  private keysOf(view: Head, id: string): string[] {
    const h = fnv1a(id);
    return view.parts.map((count, part) => this.bucketKey(view.gen, part, h % count));
  }

  /** The copy of one field's column of generation `gen`, in list order. */
  private columnKey(gen: string, field: string): string {
    return snapKey(this.memo, `${gen}:col:${field}`);
  }

  private allKeys(head: Head): string[] {
    return head.parts.flatMap((count, part) =>
      Array.from({ length: count }, (_, b) => this.bucketKey(head.gen, part, b)),
    );
  }

  /** The published snapshot, fresh or not; undefined when there is none (or it was evicted). */
  view(): SnapshotView | undefined {
    return this.viewOf(this.memo.getMany([this.headKey()]).get(this.headKey()));
  }

  viewOf(hit: Cached | undefined): SnapshotView | undefined {
    if (!hit || !isHead(hit.value)) return undefined;
    const { gen, total, parts } = hit.value;
    return { gen, total, parts, fresh: hit.fresh, fetchedAt: hit.fetchedAt };
  }

  /**
   * The records of these ids that the snapshot holds, each at its first place in the list, and the
   * ids whose bucket is gone. With `fields`, a record may hold only those (and its id): a scan, whose
   * ids fall in more than half the buckets, reads their column copies.
   */
  find(view: SnapshotView, ids: readonly string[], fields?: readonly string[]): SnapshotFind {
    // Only a usable id is an answer: a record listed with a blank id is not one for ''.
    const wanted = new Set(ids.filter((id) => idProblem(id) === undefined));
    const records = new Map<string, ServiceRecord>();
    if (view.held) {
      for (const id of wanted) if (view.held.byId.has(id)) records.set(id, view.held.byId.get(id) as ServiceRecord);
      return { records, lost: new Set() };
    }
    // The buckets of each part the ids hash to, by number (a key's text only for a bucket read).
    const hashed = view.parts.map(() => new Set<number>());
    for (const id of wanted) {
      const h = fnv1a(id);
      view.parts.forEach((count, part) => hashed[part].add(h % count));
    }
    const touched = hashed.reduce((n, buckets) => n + buckets.size, 0);
    const buckets = view.parts.reduce((n, count) => n + count, 0);
    const list = fields && touched * 2 > buckets ? this.columns(view, fields) : undefined;
    if (list) {
      // `wanted` holds usable ids only: a record whose id is not one is not in it.
      for (const record of list) if (wanted.has(record.id as string)) records.set(record.id as string, record);
      return { records, lost: new Set() };
    }
    const keys = hashed.flatMap((set, part) => [...set].map((b) => this.bucketKey(view.gen, part, b)));
    const hits = this.memo.getMany(keys);
    const place = new Map<string, number>();
    for (const key of keys) {
      const cols = hits.get(key)?.value;
      if (!isColumns(cols)) continue;
      const idColumn = cols.c[cols.k.indexOf('id')] ?? [];
      // `wanted` holds usable ids only: an entry that is no text is in it no more than a blank one.
      const rows = idColumn.flatMap((id, i) => (wanted.has(id as string) ? [i] : []));
      const built = fromColumns(cols, rows);
      rows.forEach((i, j) => {
        const id = idColumn[i] as string;
        if ((place.get(id) ?? Number.POSITIVE_INFINITY) <= cols.n[i]) return;
        place.set(id, cols.n[i]);
        records.set(id, built[j]);
      });
    }
    const lost = new Set(
      [...wanted].filter((id) => !records.has(id) && this.keysOf(view, id).some((k) => !isColumns(hits.get(k)?.value))),
    );
    return { records, lost };
  }

  /**
   * Every record, in list order, each usable id once (a list that holds an id twice, alike in two
   * reads, is published as the service listed it; the table keeps the first); undefined when a
   * bucket is gone: the snapshot is then not whole.
   */
  all(view: SnapshotView): ServiceRecord[] | undefined {
    return view.held ? [...view.held.list] : this.scan(view);
  }

  /**
   * Every record in list order as `all` gives it, holding `fields` and its id (at least): from their
   * column copies, or else from the buckets, whose columns are then copied for the next scan.
   */
  columns(view: SnapshotView, fields: readonly string[]): ServiceRecord[] | undefined {
    if (view.held) return [...view.held.list];
    const names = [...new Set(['id', ...fields])];
    const hits = this.memo.getMany(names.map((f) => this.columnKey(view.gen, f)));
    // The copies of a generation are of one list: written together, each a whole column of it.
    const copies = names.map((f) => hits.get(this.columnKey(view.gen, f))?.value);
    if (copies.every((c) => Array.isArray(c))) return fromColumns({ k: names, c: copies as unknown[][] });
    const list = this.scan(view, names);
    if (list) this.copyColumns(view, list, names);
    return list;
  }

  /**
   * The records of every bucket in list order, each usable id once, with the fields `names` only (every
   * field when absent); undefined when a bucket is gone. SCAN_BUCKETS buckets a cache read: what a scan
   * holds at once is one batch of buckets and the fields it keeps, not every field of the whole list.
   */
  private scan(view: SnapshotView, names?: readonly string[]): ServiceRecord[] | undefined {
    const keys = this.allKeys(view);
    const placed: Array<[number, ServiceRecord]> = [];
    for (let from = 0; from < keys.length; from += SCAN_BUCKETS) {
      const batch = keys.slice(from, from + SCAN_BUCKETS);
      const hits = this.memo.getMany(batch);
      for (const key of batch) {
        const cols = hits.get(key)?.value;
        if (!isColumns(cols)) return undefined;
        const k = names ? names.filter((f) => cols.k.includes(f)) : cols.k;
        const kept = names ? { k, c: k.map((f) => cols.c[cols.k.indexOf(f)]) } : cols;
        // Every row of the bucket, whatever fields it keeps (a bucket may hold none of them).
        fromColumns(
          kept,
          cols.n.map((_, i) => i),
        ).forEach((record, i) => placed.push([cols.n[i], record]));
      }
    }
    return firstOfEachId(placed.sort((a, b) => a[0] - b[0]).map(([, record]) => record));
  }

  /** Leaves the column copies of `fields` (and the id) of a generation's list, for the scans after this one. */
  copyColumns(
    view: Pick<SnapshotView, 'gen' | 'fetchedAt'>,
    list: readonly ServiceRecord[],
    fields: readonly string[],
  ) {
    const names = [...new Set(['id', ...fields])];
    const { c } = toColumns(list, names);
    this.memo.putMany(
      names.map((f, i) => [this.columnKey(view.gen, f), c[i]] as const),
      true,
      view.fetchedAt,
    );
  }

  /**
   * Writes part `part` of generation `gen`: records at their places in the list, spread over their
   * buckets by a hash of the id (one without a usable id kept with the others, never an answer). Returns the part's bucket count, for `publish`.
   */
  write(gen: string, part: number, records: readonly ServiceRecord[], places: readonly number[]): number {
    const count = Math.max(1, Math.ceil(records.length / BUCKET_RECORDS));
    const buckets = Array.from({ length: count }, () => ({ records: [] as ServiceRecord[], places: [] as number[] }));
    records.forEach((record, i) => {
      const b = buckets[fnv1a(recordId(record) ?? '') % count];
      b.records.push(record);
      b.places.push(places[i]);
    });
    this.memo.putMany(buckets.map((b, n) => [this.bucketKey(gen, part, n), { ...toColumns(b.records), n: b.places }]));
    return count;
  }

  /**
   * Makes generation `gen` (its parts' bucket counts) the snapshot, as read at `readAt` (the time
   * its oldest part was read; now when it was read in one go), and removes the previous generation's buckets.
   */
  publish(gen: string, total: number, parts: number[], readAt?: number): void {
    const before = this.view();
    this.memo.putMany([[this.headKey(), { gen, total, parts } satisfies Head]], false, readAt);
    if (before && before.gen !== gen) this.memo.remove(this.allKeys(before));
  }

  /** Removes the published snapshot, its head and buckets. */
  retire(): void {
    const before = this.view();
    if (before) this.memo.remove([this.headKey(), ...this.allKeys(before)]);
  }

  /** Removes the buckets of a generation never published (its parts' bucket counts, 0 for a part not written). */
  discard(gen: string, parts: readonly number[]): void {
    this.memo.remove(this.allKeys({ gen, total: 0, parts: [...parts] }));
  }

  /** A whole list read in one go (a formula's read), as a view that answers from the records in hand. */
  hold(records: readonly ServiceRecord[], gen: string): HeldView {
    const list = firstOfEachId(records);
    const byId = new Map(list.flatMap((r) => (recordId(r) === undefined ? [] : [[recordId(r) as string, r] as const])));
    return { gen, total: records.length, parts: [], fresh: true, fetchedAt: this.memo.now(), held: { list, byId } };
  }

  /** Writes the list a view holds as one part and publishes it, read now, with the column copies of `fields` when given. */
  publishHeld(view: HeldView, fields?: readonly string[]): void {
    const { list } = view.held;
    this.publish(view.gen, view.total, [
      this.write(
        view.gen,
        0,
        list,
        list.map((_, i) => i),
      ),
    ]);
    if (fields) this.copyColumns(view, list, fields);
  }

  /** Writes a whole list read in one go and publishes it. */
  replace(records: readonly ServiceRecord[], gen: string): void {
    this.publishHeld(this.hold(records, gen));
  }
}

/** The snapshot in a memo's namespace (a function, so that the bundle can load this module only where it is used). */
export function snapshotIn(memo: Memo): Snapshot {
  return new Snapshot(memo);
}
