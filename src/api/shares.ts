/**
 * A read of the active list shared by the executions Sheets runs at once (the first cells of a
 * filled-down column): the same requests as one execution's read, in a fraction of the time.
 * Apps Script sends one fetchAll's requests only some at a time, so one execution spends a round
 * trip per handful of pages, and ten executions that each ask a tenth of the pages are done in
 * about a tenth of the time.
 *
 * The read is a record in the cache. An execution waiting for the reader offers to help: its
 * token in one of SLOTS slots (another slot when a second waiter wrote over it). Once page 1 is
 * in, the reader writes the plan: page 1's read record (src/api/pages.ts), the generation, and who
 * reads each share, itself first (share k holds the pages p with (p − 1) mod shares = k). Only
 * the reader writes the plan, so no share has two readers. A helper marks its share started,
 * reads it in one call, writes its records as a part of the snapshot and, for the share, each
 * page's facts (or refusal) and usable ids, and marks it done. A share not started within
 * GIVEN_MS of the plan (its helper left) or started longer ago than STARTED_MS (its helper was
 * killed) is read by the reader. Once every share is done, the reader judges the read with the
 * page reader's own rules, replayed from the shares in page order: complete, it copies the
 * column's answers (with the fields the plan names), then writes its own parts (kept until then,
 * so that the waiting cells are answered first) and publishes the parts as the snapshot; else it
 * reads the list again itself.
 */
import type { Outcome } from './client';
import { type ErrorCode, ServiceError } from './errors';
import { fnv1a, timeId } from './hash';
import { projected, snapKey } from './lookup-cache';
import type { Memo } from './memo';
import {
  end,
  factsOf,
  incompleteError,
  judge,
  type ListRecord,
  type PageFacts,
  rowsBefore,
  startRead,
  takePage,
  takeRefusal,
} from './pages';
import { firstOfEachId, type Page, recordId, type ServiceRecord } from './records';
import type { Snapshot } from './snapshot';
import type { Clock } from './transport';

/** Shares a read is split into at most: about as many executions as Sheets runs at once. */
export const SHARES = 10;
/** Slots for the tokens of executions offering to read a share (more than SHARES: fewer land on the same). */
export const SLOTS = 64;
/** A share whose helper has not started it this long after the plan is the reader's. */
export const GIVEN_MS = 1_000;

export interface Plan {
  /** The reader: the execution holding the snapshot claim. */
  token: string;
  gen: string;
  at: number;
  /** When the helpers' requests end. */
  end: number;
  /** The read's record once page 1 is in. */
  list: ListRecord;
  /** Who reads each share. */
  by: string[];
  /** The fields the reader's formula shows (every field when absent): what the shares keep of its column's answers. */
  fields?: string[];
}

/** A page of a share as read: its facts and usable ids (and how many records had none), or its refusal. */
type PageRead =
  | { p: number; f: PageFacts; ids: string[]; skipped: number }
  | { p: number; f?: undefined; e: { code: ErrorCode; message: string } };

/**
 * How a shared read ended: complete (its column's answers copied; `published` when every part was written, so the
 * snapshot is this read), or failed, or (`digest`) to be read again because the list moved under it.
 */
export type Ended = { complete: true; published: boolean } | { complete: false; error: ServiceError; digest?: number };

export interface ShareContext {
  memo: Memo;
  clock: Clock;
  token: string;
  random?: () => number;
  /** Outcomes of active-list pages, fetched together, ended by `until`. */
  pages(pages: readonly number[], limit: number, until: number): Outcome<Page<ServiceRecord>>[];
  /** When this execution's requests must end. */
  until(): number;
  /** Whether this execution has the time to write a part of the snapshot (else the read publishes none). */
  canWrite(): boolean;
  /** The fields this execution's formula shows (every field when absent). */
  fields?: readonly string[];
}

/** The pages of share `k`. */
export function sharePages(plan: Plan, k: number): number[] {
  const out: number[] = [];
  for (let p = k + 1; p <= end(plan.list); p += plan.by.length) out.push(p);
  return out;
}

export class SharedRead {
  /** Records of the shares this execution read, with their places in the list. */
  private readonly held: Array<[number, ServiceRecord]> = [];
  private readonly mine = new Set<number>();
  /** The slot this execution offered itself in, if any. */
  private slot?: number;
  /** The partners a read judged complete holds. */
  private total = 0;

  constructor(
    private readonly context: ShareContext,
    private readonly snapshot: Snapshot,
    /** Ids whose answers the read leaves in the run's buckets (`copy`), when this execution is the reader. */
    private readonly column: ReadonlySet<string>,
    private readonly copy: (records: ReadonlyMap<string, ServiceRecord>) => void,
  ) {}

  private key(name: string): string {
    return snapKey(this.context.memo, name);
  }

  private slotKey(slot: number): string {
    return this.key(`offer:${slot}`);
  }

  /** Offers this execution to read a share: in the slot its token hashes to, or the next when another took it. */
  private offer(): void {
    const { memo, token } = this.context;
    this.slot = this.slot === undefined ? fnv1a(token) % SLOTS : (this.slot + 1) % SLOTS;
    memo.putMany([[this.slotKey(this.slot), token]], true);
  }

  /** Withdraws the offer (this execution stops waiting). */
  withdraw(): void {
    if (this.slot !== undefined) this.context.memo.remove([this.slotKey(this.slot)]);
    this.slot = undefined;
  }

  /** The cache keys a waiting execution's look at the read reads (`help`), with others in one call. */
  lookKeys(): string[] {
    return this.slot === undefined ? [this.key('plan')] : [this.key('plan'), this.slotKey(this.slot)];
  }

  /**
   * A waiting execution's look at the read of `reader` (the claim's holder), in `hits` (a cache read of
   * `lookKeys`): reads its share when the plan gives it one, else offers to (or keeps its offer).
   */
  help(reader: string | undefined, hits = this.context.memo.getMany(this.lookKeys())): void {
    const { memo, clock, token } = this.context;
    const plan = this.key('plan');
    const slot = this.slot === undefined ? undefined : this.slotKey(this.slot);
    const p = hits.get(plan)?.value as Plan | undefined;
    if (!p || p.token !== reader || !Array.isArray(p.by)) {
      if (!slot || hits.get(slot)?.value !== token) this.offer();
      return;
    }
    const k = p.by.indexOf(token);
    const now = clock.now();
    // A share is read soon after the plan, by its end, with the time to write it; else it is left to the reader.
    const able = now - p.at < GIVEN_MS / 2 && this.context.until() >= p.end && this.context.canWrite();
    if (k < 1 || this.mine.has(k) || !able) return;
    const column = memo.getMany([this.key(`${p.gen}:column`)]).get(this.key(`${p.gen}:column`))?.value;
    this.read(p, [k], p.end, new Set(Array.isArray(column) ? (column as string[]) : []))();
  }

  /**
   * Page 1 (asked for with `limit`) is in: the plan, giving the other shares to the executions that offered,
   * when the list has pages left to share; else undefined (page 1 is the read, or says what is wrong with it).
   * The helpers' requests end by the plan's end, half-way to this execution's: the other half is the reader's,
   * to read itself what a helper left.
   */
  post(first: Page<ServiceRecord>, limit: number): Plan | undefined {
    const list = startRead(limit);
    if (!takePage(list, 1, factsOf(first))) return undefined;
    const { memo, clock, token, random } = this.context;
    const slots = Array.from({ length: SLOTS }, (_, s) => this.slotKey(s));
    const offers = memo.getMany(slots);
    const helpers = [...new Set(slots.map((s) => offers.get(s)?.value))].filter(
      (t): t is string => typeof t === 'string' && t !== token,
    );
    // A list over after page 1 has no other page (end 1), so no helper; with none, the reader reads the list alone.
    const by = [token, ...helpers.slice(0, Math.min(SHARES, end(list)) - 1)];
    if (by.length < 2) return undefined;
    const at = clock.now();
    const { fields } = this.context;
    const plan: Plan = {
      token,
      gen: timeId(at, random),
      at,
      end: at + (this.context.until() - at) / 2,
      list,
      by,
      ...(fields ? { fields: [...fields] } : {}),
    };
    memo.putMany(
      [
        [this.key('plan'), plan],
        [this.key(`${plan.gen}:column`), [...this.column]],
      ],
      true,
    );
    // Every offer is spent by the plan: a waiter it gives no share offers again for a later read.
    memo.remove(slots);
    return plan;
  }

  /**
   * The reader's part: its share (page 1 as given), then the shares no helper started in time (or finished by the
   * plan's end), until every share is done; then the verdict, and the snapshot once every part is written. `wait`
   * sleeps between looks; false when the time is up. What the read left in the cache to coordinate goes at the end.
   */
  drive(plan: Plan, first: Page<ServiceRecord>, wait: () => boolean): Ended {
    const { memo, clock } = this.context;
    const ks = plan.by.map((_, k) => k);
    const keys = (k: number) => ['started', 'done', 'part'].map((what) => this.key(`${plan.gen}:${what}:${k}`));
    let judged: Ended | undefined;
    // The reader writes its parts once the read is judged: the cells waiting for it are answered first.
    const parts: Array<() => void> = [];
    try {
      parts.push(this.read(plan, [0], this.context.until(), this.column, first));
      for (;;) {
        const hits = memo.getMany(ks.flatMap(keys));
        const [started, done, part] = [0, 1, 2].map((i) => (k: number) => hits.get(keys(k)[i]));
        // What a helper has not done by the plan's end (and a second), it will not do: it was killed.
        const late = clock.now() >= plan.end + GIVEN_MS;
        if (judged) {
          const ended = this.publishParts(
            plan,
            ks.map((k) => part(k)?.value),
            late,
          );
          if (ended) return (judged = ended);
        } else {
          const left = ks.filter((k) => typeof done(k)?.value !== 'number');
          if (!left.length) {
            judged = this.judge(plan, parts);
            if (!judged.complete) return judged;
            continue;
          }
          const mine = left.filter((k) => (started(k) ? late : clock.now() - plan.at >= GIVEN_MS));
          if (mine.length) {
            parts.push(this.read(plan, mine, this.context.until(), this.column));
            continue;
          }
        }
        if (!wait())
          return judged
            ? { complete: true, published: false }
            : {
                complete: false,
                error: new ServiceError('TIMEOUT', 'The list of active partners took too long to read; try again.'),
              };
      }
    } finally {
      this.clear(plan, judged?.complete === true && judged.published);
    }
  }

  /**
   * A read judged complete, with its parts' bucket counts as flagged: published once every part is written; a part
   * its share's reader had no time to write (0), or has not written by the plan's end and a second (`late`), leaves
   * the snapshot as it was. Undefined while a part may still come.
   */
  private publishParts(plan: Plan, parts: unknown[], late: boolean): Ended | undefined {
    const flagged = parts.every((n) => typeof n === 'number');
    const written = flagged && parts.every((n) => (n as number) > 0);
    if (written) this.snapshot.publish(plan.gen, this.total, parts as number[]);
    return flagged || late ? { complete: true, published: written } : undefined;
  }

  /** Removes what the read left to coordinate, and its parts when they were not published. */
  private clear(plan: Plan, published: boolean): void {
    const { memo } = this.context;
    const per = (what: string) => plan.by.map((_, k) => this.key(`${plan.gen}:${what}:${k}`));
    if (!published) {
      const parts = memo.getMany(per('part'));
      this.snapshot.discard(
        plan.gen,
        per('part').map((k) => Number(parts.get(k)?.value) || 0),
      );
    }
    memo.remove([
      this.key('plan'),
      this.key(`${plan.gen}:column`),
      ...['started', 'done', 'found', 'pages', 'part'].flatMap(per),
    ]);
  }

  /**
   * Reads shares `ks` (page 1 as given), its requests ended by `until`, and leaves each one's answers for
   * `column` and pages, marked done; returns the writing of their part of the snapshot.
   */
  private read(plan: Plan, ks: number[], until: number, column: ReadonlySet<string>, first?: Page<ServiceRecord>) {
    const { memo } = this.context;
    memo.putMany(
      ks.map((k) => [this.key(`${plan.gen}:started:${k}`), this.context.token] as const),
      true,
    );
    const wanted = ks.flatMap((k) => sharePages(plan, k)).filter((p) => p !== 1 || !first);
    const outcomes = wanted.length ? this.context.pages(wanted, plan.list.limit, until) : [];
    const byPage = new Map<number, Outcome<Page<ServiceRecord>>>(wanted.map((p, i) => [p, outcomes[i]]));
    if (first) byPage.set(1, { ok: true, value: first });
    const puts: Array<readonly [string, unknown]> = [];
    const parts: Array<[number, ServiceRecord[], number[]]> = [];
    for (const k of ks) {
      const records: ServiceRecord[] = [];
      const places: number[] = [];
      const found: ServiceRecord[] = [];
      const pages = sharePages(plan, k).map((p): PageRead => {
        const o = byPage.get(p) as Outcome<Page<ServiceRecord>>;
        if (!o.ok) return { p, e: { code: o.error.code, message: o.error.message } };
        const ids: string[] = [];
        const at = rowsBefore(plan.list, p);
        // The page after the last is only looked at: its records, if any, are not the list's.
        const listed = p <= plan.list.last ? o.value.items : [];
        listed.forEach((r, i) => {
          const id = recordId(r);
          if (id === undefined) return;
          ids.push(id);
          records.push(r);
          places.push(at + i);
          this.held.push([at + i, r]);
          if (column.has(id)) found.push(projected(r, plan.fields));
        });
        return { p, f: factsOf(o.value), ids, skipped: listed.length - ids.length };
      });
      puts.push(
        [this.key(`${plan.gen}:found:${k}`), found],
        [this.key(`${plan.gen}:pages:${k}`), pages],
        [this.key(`${plan.gen}:done:${k}`), records.length],
      );
      parts.push([k, records, places]);
      this.mine.add(k);
    }
    // Done first: the reader judges the read (and the cells waiting get their answers) while the parts are written.
    memo.putMany(puts, true);
    return () =>
      memo.putMany(
        parts.map(([k, records, places]) => [
          this.key(`${plan.gen}:part:${k}`),
          this.context.canWrite() ? this.snapshot.write(plan.gen, k, records, places) : 0,
        ]),
        true,
      );
  }

  /**
   * The verdict on a read whose every share is done: complete (the column's answers copied, then the `parts` this
   * execution read written), or why not.
   */
  private judge(plan: Plan, parts: ReadonlyArray<() => void>): Ended {
    const ks = plan.by.map((_, k) => k);
    const keys = ks.flatMap((k) => ['pages', 'found'].map((what) => this.key(`${plan.gen}:${what}:${k}`)));
    const hits = this.context.memo.getMany(keys);
    const part = (k: number, what: number) => hits.get(keys[2 * k + what])?.value;
    const r: ListRecord = JSON.parse(JSON.stringify(plan.list));
    const ids: string[] = [];
    let skipped = 0;
    const pages = ks.flatMap((k) => (part(k, 0) as PageRead[] | undefined) ?? []).sort((a, b) => a.p - b.p);
    for (const page of pages) {
      if (page.f) {
        if (page.p === 1 || takePage(r, page.p, page.f)) {
          ids.push(...page.ids);
          skipped += page.skipped;
        }
        continue;
      }
      const e = new ServiceError(page.e.code, page.e.message);
      const error = takeRefusal(r, page.p, e, this.context.clock.now()) ?? (e.transient ? e : undefined);
      if (error) return { complete: false, error };
    }
    const { verdict, digest } = judge(r, ids, skipped);
    if (!verdict.complete) {
      const error = incompleteError('list of active partners', verdict);
      return verdict.changed ? { complete: false, error, digest } : { complete: false, error };
    }
    this.total = ids.length;
    // A complete read lists each id once (its verdict counts them), so the shares' answers never disagree.
    const found = ks.flatMap((k) => (part(k, 1) as ServiceRecord[] | undefined) ?? []);
    this.copy(new Map(found.map((record) => [recordId(record) as string, record])));
    for (const write of parts) write();
    return { complete: true, published: false };
  }

  /** Every record of the list, in order, when this execution read every share itself. */
  whole(plan: Plan): ServiceRecord[] | undefined {
    if (this.mine.size < plan.by.length) return undefined;
    return firstOfEachId(this.held.sort((a, b) => a[0] - b[0]).map(([, r]) => r));
  }
}

/** A shared read (a function, so that the bundle can load this module only in an execution that reads the list). */
export function sharedRead(
  context: ShareContext,
  snapshot: Snapshot,
  column: ReadonlySet<string>,
  copy: (records: ReadonlyMap<string, ServiceRecord>) => void,
): SharedRead {
  return new SharedRead(context, snapshot, column, copy);
}
