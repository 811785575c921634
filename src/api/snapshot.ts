/**
 * The shared partner snapshot: the whole active-partners list kept in the cache, so that a
 * lookup of thousands of ids costs a few cache reads instead of one request per id. Records are
 * stored column by column (which gzips a third smaller than records) in chunks of at most
 * CHUNK_RECORDS, each one cache value under 100 KB; an index lists the ids of every chunk, so a
 * lookup reads the index and only the chunks holding its ids. 100,000 partners take 504 values
 * (500 chunks and the index's parts) of CacheService's 1,000. It lives in the memo's namespace
 * (one per API key and service address) and follows the memo's rules: fresh inside the cache lifetime and after the last
 * "refresh all", then kept only as a last good copy. A new snapshot is written under a new
 * generation and published by its index last, so a reader never mixes two lists; the previous
 * generation's chunks are removed when the new one is published. The index is stamped with the
 * time of its oldest chunk, so a snapshot is as old as its oldest records, however long the
 * import that wrote them took to finish.
 */
import type { Cached, Memo } from './memo';
import { firstOfEachId, recordId, type ServiceRecord } from './records';

/** Records in one chunk: about 75 KB gzipped and base64-encoded for typical partners. */
export const CHUNK_RECORDS = 200;

interface IndexEntry {
  gen: string;
  total: number;
  /** Ids of each chunk, in list order. */
  chunks: string[][];
}

/** A chunk as read back: its records, and when it was written (the step that read them). */
interface ChunkRead {
  records: ServiceRecord[];
  at: number;
}

interface Columns {
  k: string[];
  c: unknown[][];
}

/** A published snapshot as one execution sees it. */
export interface SnapshotView {
  readonly gen: string;
  readonly total: number;
  readonly fresh: boolean;
  readonly fetchedAt: number;
  /** The chunk that holds an id, if the list holds it. */
  chunkOf(id: string): number | undefined;
  readonly chunkCount: number;
}

export interface SnapshotHit {
  record: ServiceRecord;
  fresh: boolean;
  fetchedAt: number;
}

/** Column layout of a chunk; a field a record lacks is written as null (the table shows both as blank). */
export function toColumns(records: readonly ServiceRecord[]): Columns {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    for (const k of Object.keys(r)) {
      if (seen.has(k)) continue;
      seen.add(k);
      keys.push(k);
    }
  }
  // Own fields only: a record without a `__proto__` field has none, whatever `r.__proto__` reads.
  const own = (r: ServiceRecord, k: string) => Object.getOwnPropertyDescriptor(r, k)?.value ?? null;
  return { k: keys, c: keys.map((k) => records.map((r) => own(r, k))) };
}

/**
 * Records from their columns, in a plain loop (some four times faster than an entries array per
 * record, and a warm lookup of 10,000 ids builds every record). A field named `__proto__` (valid
 * JSON, and a field the service may send) is defined, not assigned: it is then one more field,
 * where an assignment would set the prototype of every record of the chunk.
 */
export function fromColumns(cols: Columns): ServiceRecord[] {
  const n = cols.c.length ? cols.c[0].length : 0;
  const { k: keys, c: columns } = cols;
  const out: ServiceRecord[] = new Array(n);
  for (let i = 0; i < n; i++) {
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
    out[i] = record as ServiceRecord;
  }
  return out;
}

const isIdList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function isIndex(v: unknown): v is IndexEntry {
  const e = v as IndexEntry;
  return (
    !!e &&
    typeof e.gen === 'string' &&
    typeof e.total === 'number' &&
    Array.isArray(e.chunks) &&
    e.chunks.every(Array.isArray)
  );
}

function isColumns(v: unknown): v is Columns {
  const c = v as Columns;
  return !!c && Array.isArray(c.k) && Array.isArray(c.c) && c.k.length === c.c.length;
}

export class Snapshot {
  constructor(private readonly memo: Memo) {}

  private key(name: string): string {
    return this.memo.key('snap', name);
  }

  private chunkKey(gen: string, n: number): string {
    return this.key(`${gen}:${n}`);
  }

  /** The cache key of the index, for a caller that reads it with other keys in one call (`viewOf`). */
  indexKey(): string {
    return this.key('index');
  }

  /** The published snapshot, fresh or not; undefined when there is none (or it was evicted). */
  view(): SnapshotView | undefined {
    return this.viewOf(this.memo.getMany([this.indexKey()]).get(this.indexKey()));
  }

  viewOf(hit: Cached | undefined): SnapshotView | undefined {
    if (!hit || !isIndex(hit.value)) return undefined;
    const index = hit.value;
    let byId: Map<string, number> | undefined;
    return {
      gen: index.gen,
      total: index.total,
      fresh: hit.fresh,
      fetchedAt: hit.fetchedAt,
      chunkCount: index.chunks.length,
      chunkOf: (id) => {
        if (!byId) {
          const map = new Map<string, number>();
          index.chunks.forEach((ids, n) => {
            // An id listed twice is answered by its first listing, as the table keeps it.
            for (const x of ids) if (!map.has(x)) map.set(x, n);
          });
          byId = map;
        }
        return byId.get(id);
      },
    };
  }

  /** The records of these ids that the snapshot holds (ids it does not hold, or whose chunk was evicted, are absent). */
  lookup(view: SnapshotView, ids: readonly string[]): Map<string, SnapshotHit> {
    const wanted = new Map<number, Set<string>>();
    for (const id of ids) {
      const n = view.chunkOf(id);
      if (n === undefined) continue;
      if (!wanted.has(n)) wanted.set(n, new Set());
      wanted.get(n)?.add(id);
    }
    const out = new Map<string, SnapshotHit>();
    for (const [n, { records }] of this.readChunks(view.gen, [...wanted.keys()])) {
      const set = wanted.get(n) as Set<string>;
      for (const record of records) {
        const id = recordId(record);
        if (id !== undefined && set.has(id) && !out.has(id))
          out.set(id, { record, fresh: view.fresh, fetchedAt: view.fetchedAt });
      }
    }
    return out;
  }

  /**
   * Every record, in list order, each usable id once (a list that holds an id twice, alike in two reads, is
   * published as the service listed it; its table keeps the first); undefined when a chunk is missing
   * (evicted): the snapshot is then not whole.
   */
  all(view: SnapshotView): ServiceRecord[] | undefined {
    const chunks = this.readChunks(
      view.gen,
      Array.from({ length: view.chunkCount }, (_, n) => n),
    );
    if (chunks.size !== view.chunkCount) return undefined;
    const out: ServiceRecord[] = [];
    for (let n = 0; n < view.chunkCount; n++) out.push(...(chunks.get(n) as ChunkRead).records);
    return firstOfEachId(out);
  }

  /** The chunks of generation `gen` that the cache still holds, with when each was written. */
  private readChunks(gen: string, numbers: readonly number[]): Map<number, ChunkRead> {
    const keys = numbers.map((n) => this.chunkKey(gen, n));
    const hits = this.memo.getMany(keys);
    const out = new Map<number, ChunkRead>();
    numbers.forEach((n, i) => {
      const hit = hits.get(keys[i]);
      if (hit && isColumns(hit.value)) out.set(n, { records: fromColumns(hit.value), at: hit.fetchedAt });
    });
    return out;
  }

  /** Where an import's write of chunks `first`, … keeps their ids until the generation is published. */
  private idsKey(gen: string, first: number): string {
    return this.key(`${gen}:ids:${first}`);
  }

  /**
   * Writes records as chunks `first`, `first + 1`, … of generation `gen` and returns the ids of
   * each chunk written (for `publish`). An import writes its chunks step by step, across
   * executions: `keepIds` also leaves the ids of this write in one small value, so that
   * `publishWritten` need not read every chunk back.
   */
  writeChunks(gen: string, first: number, records: readonly ServiceRecord[], keepIds = false): string[][] {
    const entries: Array<[string, unknown]> = [];
    const ids: string[][] = [];
    for (let at = 0, n = first; at < records.length; at += CHUNK_RECORDS, n++) {
      const part = records.slice(at, at + CHUNK_RECORDS);
      entries.push([this.chunkKey(gen, n), toColumns(part)]);
      ids.push(part.map((r) => recordId(r) ?? ''));
    }
    if (keepIds && ids.length) entries.push([this.idsKey(gen, first), ids]);
    this.memo.putMany(entries);
    return ids;
  }

  /**
   * Makes generation `gen` the snapshot, as read at `readAt` (the time of its oldest chunk; now when
   * it was read in one go), and removes the previous generation's chunks.
   */
  private publish(gen: string, total: number, chunks: string[][], readAt?: number): void {
    const before = this.view();
    this.memo.putMany([[this.key('index'), { gen, total, chunks } satisfies IndexEntry]], false, readAt);
    if (before && before.gen !== gen)
      this.memo.remove(Array.from({ length: before.chunkCount }, (_, n) => this.chunkKey(before.gen, n)));
  }

  /**
   * Publishes generation `gen` from its chunks as written (an import's, step by step). Their ids
   * come from the small values `writeChunks` kept, followed as a chain from chunk 0: each value
   * covers the chunks of one write and the next write starts where it ends. A value left by an
   * execution killed before it saved its progress lies off that chain (or was overwritten by the
   * write that redid it) and is never used. From the first gap on, the chunks themselves are read
   * for their ids. Returns false when a chunk read for its ids is missing. (A chunk whose ids were
   * kept is not read: if the cache evicted it, lookups find the snapshot holed and read the list
   * again, as after any later eviction.) The snapshot is as old as the oldest of these writes: a
   * kept value is written with its chunks.
   */
  publishWritten(gen: string, chunkCount: number): boolean {
    const firsts = Array.from({ length: chunkCount }, (_, n) => n);
    const kept = this.memo.getMany(firsts.map((n) => this.idsKey(gen, n)));
    const ids: string[][] = [];
    let readAt: number | undefined;
    while (ids.length < chunkCount) {
      const hit = kept.get(this.idsKey(gen, ids.length));
      if (!hit) break;
      const v = hit.value;
      if (!Array.isArray(v) || v.length === 0 || ids.length + v.length > chunkCount || !v.every(isIdList)) break;
      ids.push(...v);
      readAt = Math.min(readAt ?? hit.fetchedAt, hit.fetchedAt);
    }
    const rest = firsts.slice(ids.length);
    const chunks = this.readChunks(gen, rest);
    if (chunks.size !== rest.length) return false;
    for (const n of rest) {
      const { records, at } = chunks.get(n) as ChunkRead;
      ids.push(records.map((r) => recordId(r) ?? ''));
      readAt = Math.min(readAt ?? at, at);
    }
    this.publish(
      gen,
      ids.reduce((k, x) => k + x.length, 0),
      ids,
      readAt,
    );
    this.memo.remove(firsts.filter((n) => kept.has(this.idsKey(gen, n))).map((n) => this.idsKey(gen, n)));
    return true;
  }

  /** Writes a whole list read in one go (a formula's fill) and publishes it. */
  replace(records: readonly ServiceRecord[], gen: string): void {
    this.publish(gen, records.length, this.writeChunks(gen, 0, records));
  }
}
