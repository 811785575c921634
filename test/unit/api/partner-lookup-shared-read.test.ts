/**
 * LP_FIND's read of the whole list shared with an execution that offered to help
 * (PartnerLookup.activeRecords over src/api/shares.ts): what it answers is the list just read, or
 * the last good copy marked stale.
 */
import { fnv1a } from '../../../src/api/hash';
import type { Page, ServiceRecord } from '../../../src/api/records';
import { type Plan, SLOTS, sharedRead, sharePages } from '../../../src/api/shares';
import { Snapshot } from '../../../src/api/snapshot';
import { json } from '../../helpers/fakes';
import { answers, partnerWorld, TTL_MS } from '../../helpers/partner-world';
import { POLL_MS } from '../../../src/api/lookup-cache';

test.each([
  ['gone from the cache', false],
  ['still in the cache after Refresh', true],
])(
  'a shared read whose helper ran short of time to write its part answers the list just read, not the old copy (%s) unmarked',
  (_, kept) => {
    const w = partnerWorld({ total: 1000 });
    // The list as read earlier: 500 partners, no longer fresh (expired two hours later, or refreshed since).
    const old = new Snapshot(w.memo);
    old.publishHeld(
      old.hold(
        w.ids.slice(0, 500).map((id) => ({ id, fullName: 'old' })),
        'old',
      ),
    );
    if (kept) {
      w.clock.t += 60_000;
      w.refresh();
    } else w.clock.t += 2 * TTL_MS;
    // An execution waiting for the read has offered to help.
    w.memo.putMany([[w.memo.key('snap', `offer:${fnv1a('helper') % SLOTS}`), 'helper']], true);
    let helped = false;
    w.hooks.onSleep = () => {
      if (helped) return;
      helped = true;
      const helper = w.execution('helper', 12_000);
      // The service answers the helper's pages slowly: 4.5 s, and it has no time left to write its part.
      w.hooks.onList = () => {
        w.hooks.onList = undefined;
        w.clock.t += 4_500;
        return undefined;
      };
      helper.lookup(w.ids.slice(0, 40));
    };
    const out = w.execution('reader').activeRecords();
    const answeredNow = JSON.stringify(out.records.map((r) => r.id)) === JSON.stringify(w.ids);
    const markedStale = out.staleSince !== undefined;
    expect({ answeredNow, markedStale, records: out.records.length }).not.toEqual(
      expect.objectContaining({ answeredNow: false, markedStale: false }),
    );
  },
);

/**
 * A world of 1,000 partners in which `helpers` wait for a read of the list (they offered before it began) and
 * look at every sleep of the reader, as Sheets' other cells would; `onPlan` sees the plan once it is written.
 */
function withHelpers(helpers: string[], onPlan?: (plan: Plan, w: ReturnType<typeof partnerWorld>) => void) {
  const w = partnerWorld({ total: 1000 });
  const snapshot = new Snapshot(w.memo);
  const reads = helpers.map((token) => {
    const execution = w.execution(token);
    const read = sharedRead(
      {
        memo: w.memo,
        clock: w.clock,
        token,
        until: () => w.clock.now() + 20_000,
        canWrite: () => true,
        pages: (pages, limit, end) => execution.client.activePartnerPages(pages, limit, { until: end }),
      },
      snapshot,
      new Set(),
      () => undefined,
    );
    read.help('reader');
    return { execution, read };
  });
  const planKey = w.memo.key('snap', 'plan');
  let seen = false;
  w.hooks.onSleep = () => {
    const plan = w.memo.getMany([planKey]).get(planKey)?.value as Plan | undefined;
    if (plan && !seen) {
      seen = true;
      onPlan?.(plan, w);
    }
    for (const h of reads) h.read.help('reader');
  };
  return { w, reads, reader: w.execution('reader') };
}

test('a range that reads the list with a waiting cell: each reads its share, every page once, and the list is published', () => {
  let planned: Plan | undefined;
  const { w, reads, reader } = withHelpers(['h1'], (plan) => {
    planned = plan;
  });
  const start = w.clock.now();
  const range = w.ids.slice(0, 50);
  expect(answers(reader.lookup(range))).toEqual(range);
  const plan = planned as Plan;
  expect(plan.by).toEqual(['reader', 'h1']);
  // The helpers' requests end half-way to the time the reader keeps for its own: its 30 s, less the client's margin
  // and the reserves for writing the snapshot and answering the cell.
  expect(plan.end - plan.at).toBe((start + 30_000 - 1_500 - 8_000 - 1_500 - plan.at) / 2);
  expect(reads[0].execution.pages()).toEqual(sharePages(plan, 1));
  expect(w.pages().sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  const view = new Snapshot(w.memo).view();
  expect(view?.gen).toBe(plan.gen);
  expect(view && new Snapshot(w.memo).all(view)?.map((r) => r.id)).toEqual(w.ids);
});

test('the list moved under the shared read: the reader reads it again alone, and the range is answered from that read', () => {
  let moved = false;
  const { w, reader } = withHelpers(['h1'], (plan, world) => {
    // The helper's first page reports one partner more: the list moved.
    const page = sharePages(plan, 1)[0];
    world.hooks.onList = (asked) => {
      if (asked !== page || moved) return undefined;
      moved = true;
      return json(200, {
        data: world.ids.slice((asked - 1) * 100, asked * 100).map((id) => ({ id })),
        pagination: { totalItems: 1001, totalPages: 11, currentPage: asked, pageSize: 100 },
      });
    };
  });
  const range = w.ids.slice(0, 50);
  expect(answers(reader.lookup(range))).toEqual(range);
  expect(moved).toBe(true);
  // The reader's second read: page 1 again and every other page.
  expect(reader.pages().filter((p) => p === 1).length).toBe(2);
  expect(reader.idRequests()).toEqual([]);
});

test("a page a helper's request was refused for fails the read: the whole list's formula gets that refusal, and nothing is published", () => {
  const { w, reader } = withHelpers(['h1'], (plan, world) => {
    const page = sharePages(plan, 1)[0];
    world.hooks.onList = (asked) => (asked === page ? json(401, { message: 'Invalid API key' }) : undefined);
  });
  expect(() => reader.activeRecords()).toThrow(/Invalid API key/);
  expect(new Snapshot(w.memo).view()).toBeUndefined();
});

test('the whole list read with a waiting cell answers the list just read, not marked stale', () => {
  const { w, reads, reader } = withHelpers(['h1']);
  const out = reader.activeRecords();
  expect(out.records.map((r) => r.id)).toEqual(w.ids);
  expect(out.staleSince).toBeUndefined();
  expect(reads[0].execution.pages().length).toBeGreaterThan(0);
});

test('the whole list read with a waiting cell, left no time to publish it: the older copy still in the cache is answered marked stale, never as the list just read', () => {
  const { w, reads, reader } = withHelpers(['h1'], (plan, world) => {
    const page = sharePages(plan, 1)[0];
    world.hooks.onList = (asked) => {
      if (asked === page) world.clock.t += 23_000;
      return undefined;
    };
  });
  const old = new Snapshot(w.memo);
  old.publishHeld(
    old.hold(
      w.ids.slice(0, 500).map((id) => ({ id, fullName: 'old' })),
      'old',
    ),
  );
  const readAt = w.clock.now();
  w.clock.t += 1;
  w.refresh();
  const out = reader.activeRecords();
  expect(reads[0].execution.pages().length).toBeGreaterThan(0);
  expect({ records: out.records.length, staleSince: out.staleSince }).toEqual({ records: 500, staleSince: readAt });
});

test("a cell waiting for another execution's read of the list reads the share that reader's plan gives it", () => {
  const w = partnerWorld({ total: 1000 });
  w.claim('reader');
  const readerExecution = w.execution('reader');
  const read = sharedRead(
    {
      memo: w.memo,
      clock: w.clock,
      token: 'reader',
      until: () => w.clock.now() + 20_000,
      canWrite: () => true,
      pages: (pages, limit, end) => readerExecution.client.activePartnerPages(pages, limit, { until: end }),
    },
    new Snapshot(w.memo),
    new Set(),
    () => undefined,
  );
  let plan: Plan | undefined;
  let page1: Page<ServiceRecord> | undefined;
  w.hooks.onSleep = (polls) => {
    if (polls === 1) {
      const first = readerExecution.client.activePartnerPages([1], 1000)[0];
      page1 = first.ok ? first.value : undefined;
      plan = page1 && read.post(page1, 1000);
    }
    if (polls === 3 && plan && page1) {
      read.drive(plan, page1, () => {
        w.clock.t += 50;
        return true;
      });
      w.release();
    }
  };
  const mine = w.execution('mine');
  const range = w.ids.slice(0, 50);
  expect(answers(mine.lookup(range))).toEqual(range);
  const given = plan as Plan;
  expect(given.by).toContain('mine');
  expect(mine.pages()).toEqual(sharePages(given, given.by.indexOf('mine')));
});

test('a reader whose helper never starts its share stops waiting at the end of its read, not a poll past it, and the range is still answered', () => {
  const w = partnerWorld({ total: 1000 });
  w.offered();
  // The read may last READ_MS: the rest is the client's margin (1.5 s), the time to write the snapshot (8 s) and to answer (1.5 s).
  const READ_MS = 500;
  const reader = w.execution('reader', 1_500 + 8_000 + 1_500 + READ_MS);
  const start = w.clock.now();
  const range = w.ids.slice(0, 40);
  expect(answers(reader.lookup(range))).toEqual(range);
  expect(w.clock.now() - start).toBeLessThanOrEqual(READ_MS);
  expect(reader.pages()).toEqual([1, 3, 5, 7, 9, 11]);
});

/**
 * A range of 40 read by a reader (30 s, its formula showing fullName) whose helper offered and never started: it reads
 * the helper's share itself, 1 s after its plan, the service taking `slow` ms for page 2 of it.
 */
function readerAlone(slow: number) {
  const w = partnerWorld({ total: 1000 });
  w.offered();
  const reader = w.execution('reader', 30_000, undefined, ['fullName']);
  w.slowPage(2, slow);
  const range = w.ids.slice(0, 40);
  expect(answers(reader.lookup(range))).toEqual(range);
  return { w, reader };
}

// The service takes `slow` ms for one page of the helper's share.
test.each([
  ['leaves just the time to write it (8 s): the snapshot is published', 19_500, true],
  ['leaves less than the time to write it: nothing is written, the range is answered from the read', 19_520, false],
])(
  'a reader that read every share itself, when the read %s, with the column copies of the formula’s fields',
  (_, slow, written) => {
    const { w, reader } = readerAlone(slow);
    expect(reader.pages()).toEqual([1, 3, 5, 7, 9, 11, 2, 4, 6, 8, 10]);
    expect(reader.idRequests()).toEqual([]);
    const head = w.memo.getMany([w.headKey]).get(w.headKey)?.value as { gen: string } | undefined;
    expect(head !== undefined).toBe(written);
    const copies = [...w.store.items.keys()].filter((k) => k.includes(':col:'));
    expect(copies.length).toBe(written ? 2 : 0);
  },
);

test.each([
  ['more than half the time to write the snapshot (4 s) is left', 23_480, true],
  ['just half of it is left', 23_500, false],
])('a shared read leaves its column’s answers in the run’s buckets when %s', (_, slow, copied) => {
  const { w } = readerAlone(slow);
  const buckets = [...w.store.items.keys()].filter((k) => k.includes(':copy:'));
  expect(buckets.length > 0).toBe(copied);
});

test('a page of the reader’s share refused for longer than its read may last is not waited for: the range is still answered', () => {
  const w = partnerWorld({ total: 1000 });
  w.offered();
  w.refuseOnce(3, 2);
  // 12 s: the read may last 1 s (the rest is the client's margin and the time kept to write and to answer).
  const cell = w.execution('cell', 12_000);
  const range = w.ids.slice(100, 140);
  expect(answers(cell.lookup(range))).toEqual(range);
  expect(w.clock.sleeps.filter((ms) => ms > POLL_MS)).toEqual([]);
});

test.each([
  ['', false],
  [', an older one still in the cache after Refresh', true],
])(
  'a shared read left no time to publish the snapshot (its helper’s pages were slow)%s: the range is answered from the column’s answers in the run’s buckets',
  (_, older) => {
    const { w, reads, reader } = withHelpers(['h1'], (plan, world) => {
      const page = sharePages(plan, 1)[0];
      world.hooks.onList = (asked) => {
        if (asked === page) world.clock.t += 23_000;
        return undefined;
      };
    });
    if (older) {
      const old = new Snapshot(w.memo);
      old.publishHeld(
        old.hold(
          w.ids.map((id) => ({ id, fullName: 'old' })),
          'old',
        ),
      );
      w.clock.t += 1;
      w.refresh();
    }
    const range = w.ids.slice(0, 50);
    const out = reader.lookup(range);
    expect(answers(out)).toEqual(range);
    expect(out.map((o) => o.ok && o.value.fullName)).toEqual(range.map((id) => `Name ${id}`));
    expect(reads[0].execution.pages().length).toBeGreaterThan(0);
    expect(new Snapshot(w.memo).view()?.gen).toBe(older ? 'old' : undefined);
    expect(reader.idRequests()).toEqual([]);
  },
);
