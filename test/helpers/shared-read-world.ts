/**
 * A shared read of the active list (src/api/shares.ts) over a partner world: a reader and the
 * executions that help it, each with its own time, column and fate.
 */
import type { Page, ServiceRecord } from '../../src/api/records';
import { sharedRead } from '../../src/api/shares';
import { Snapshot } from '../../src/api/snapshot';
import { partnerWorld } from './partner-world';

/** The `limit` page 1 is asked for with. */
export const LIMIT = 1000;

export interface HelperOptions {
  /** Time left for the helper's requests (its `until`), from now. */
  untilMs?: number;
  canWrite?: boolean;
  /** The execution is killed while its requests are out. */
  killed?: boolean;
  /** The execution is killed once its share is marked done, before it writes its part. */
  killedBeforePart?: boolean;
  /** The ids of the helper's own column (the reader's when absent). */
  column?: ReadonlySet<string>;
  /** The fields the execution's formula shows (every field when absent). */
  fields?: readonly string[];
}

/** A world of 1,000 partners (or `total`), `before` run on it first; the reader (with `readerOptions`), and `make` for the others. */
export function sharedReadWorld(
  total = 1000,
  before?: (snapshot: Snapshot, world: ReturnType<typeof partnerWorld>) => void,
  readerOptions: HelperOptions = {},
) {
  const world = partnerWorld({ total });
  const snapshot = new Snapshot(world.memo);
  before?.(snapshot, world);
  const column = new Set(world.ids.filter((_, i) => i % 7 === 0));
  const copied: string[] = [];
  /** The records the reader copied for its column, by id. */
  const copiedRecords = new Map<string, ServiceRecord>();
  const make = (token: string, o: HelperOptions = {}) => {
    const execution = world.execution(token);
    const until = world.clock.now() + (o.untilMs ?? 20_000);
    let asked = 0;
    const read = sharedRead(
      {
        memo: world.memo,
        clock: world.clock,
        token,
        fields: o.fields,
        until: () => until,
        // A helper asks before it starts its share, and again before it writes its part.
        canWrite: () => {
          if (o.killedBeforePart && ++asked > 1) throw new Error('Exceeded maximum execution time');
          return o.canWrite ?? true;
        },
        pages: (pages, limit, end) => {
          if (o.killed) throw new Error('Exceeded maximum execution time');
          return execution.client.activePartnerPages(pages, limit, { until: end });
        },
      },
      snapshot,
      o.column ?? column,
      (records) => {
        for (const [id, record] of records) {
          copied.push(id);
          copiedRecords.set(id, record);
        }
      },
    );
    return { token, execution, read };
  };
  const reader = make('reader', readerOptions);
  const first = () => {
    const o = reader.execution.client.activePartnerPages([1], LIMIT)[0];
    if (!o.ok) throw o.error;
    return o.value as Page<ServiceRecord>;
  };
  return { world, snapshot, column, copied, copiedRecords, make, reader, first };
}
