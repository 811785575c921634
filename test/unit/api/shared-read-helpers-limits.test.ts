/**
 * A shared read of the active list (src/api/shares.ts) when a helper is short of time, is killed
 * after it started its share, or has no time to write its part; and what a shared read leaves
 * in the cache.
 */
import { GIVEN_MS, type Plan, type SharedRead, sharePages } from '../../../src/api/shares';
import { json } from '../../helpers/fakes';
import { TTL_MS } from '../../helpers/partner-world';
import { LIMIT, sharedReadWorld } from '../../helpers/shared-read-world';

const setup = sharedReadWorld;

/** The cache entries a shared read writes to coordinate (its plan, offers, and each share's marks, pages, answers and part flag). */
const COORDINATION = /:snap:(plan|offer:|[^:]+:(column|started|done|part|found|pages)(:|$))/;

/** Helpers offer, page 1 is read, the reader plans and drives the read until `readerUntilMs` from the plan. */
function run(
  s: ReturnType<typeof setup>,
  helpers: Array<ReturnType<ReturnType<typeof setup>['make']>>,
  onPlan?: (plan: Plan) => void,
  readerUntilMs = 20_000,
) {
  for (const h of helpers) h.read.help('reader');
  const page1 = s.first();
  const plan = s.reader.read.post(page1, LIMIT) as Plan;
  onPlan?.(plan);
  const until = s.world.clock.now() + readerUntilMs;
  const look = (h: SharedRead) => {
    try {
      h.help('reader');
    } catch {
      // the helper's execution ended
    }
  };
  const ended = s.reader.read.drive(plan, page1, () => {
    if (s.world.clock.now() >= until) return false;
    for (const h of helpers) look(h.read);
    s.world.clock.t += 50;
    return true;
  });
  return { plan, ended };
}

test("a page refused once, which the reader's time would let the client ask again, fails no read for a helper's shorter time", () => {
  const s = setup();
  let refused = 0;
  const { ended, plan } = run(s, [s.make('a'), s.make('late', { untilMs: 2_000 })], (p) => {
    const page = sharePages(p, p.by.indexOf('late'))[0];
    s.world.hooks.onList = (asked) =>
      asked === page && refused++ === 0 ? json(503, { message: 'busy' }, { 'Retry-After': '3' }) : undefined;
  });
  expect(plan.by).toContain('late');
  expect(refused).toBeGreaterThanOrEqual(1);
  expect(ended).toEqual({ complete: true, published: true });
});

/** A snapshot of 500 of the list's partners, published two hours ago (no longer fresh). */
const olderSnapshot: Parameters<typeof setup>[1] = (snapshot, world) => {
  snapshot.publishHeld(
    snapshot.hold(
      world.ids.slice(0, 500).map((id) => ({ id })),
      'old',
    ),
  );
  world.clock.t += 2 * 3_600_000;
};

test("a helper killed between marking its share done and writing its part: the reader's answer does not wait out its time, and the snapshot stays as it was", () => {
  const s = setup(1000, olderSnapshot);
  const start = s.world.clock.now();
  const { ended } = run(s, [s.make('a'), s.make('cut', { killedBeforePart: true })]);
  const waited = s.world.clock.now() - start;
  // The column's answers are copied once every share is done; the part never written leaves the snapshot as it was,
  // and the reader stops waiting for it a second after the plan's end, not at its own.
  expect(ended).toEqual({ complete: true, published: false });
  expect(waited).toBeLessThan(12_000);
  expect(new Set(s.copied)).toEqual(s.column);
  const view = s.snapshot.view();
  expect(view?.gen).toBe('old');
  expect(view && s.snapshot.all(view)?.length).toBe(500);
});

test('a read judged complete is published as a snapshot, even when a helper had no time to write its part', () => {
  const s = setup(1000, olderSnapshot);
  const { ended, plan } = run(s, [s.make('a', { canWrite: false })]);
  expect(ended).toEqual({ complete: true, published: true });
  // What PartnerLookup answers from once a shared read ends published (src/api/partners.ts readShared).
  expect(s.snapshot.view()?.gen).toBe(plan.gen);
});

test('a shared read leaves in the cache only the snapshot it published: its plan, offers and shares are removed', () => {
  const s = setup();
  const before = new Set(s.world.store.items.keys());
  const { ended, plan } = run(s, [s.make('a'), s.make('b'), s.make('c')]);
  expect(ended).toEqual({ complete: true, published: true });
  const left = [...s.world.store.items.keys()].filter((k) => !before.has(k));
  const coordination = left.filter((k) => /:snap:(plan|offer:|[^:]+:(started|done|part|found|pages):)/.test(k));
  expect({ gen: plan.gen, coordination }).toEqual({ gen: plan.gen, coordination: [] });
  // What stays of the read is the snapshot: its head and its generation's buckets, in the memo's namespace.
  const ns = `${s.world.memo.namespace}:`;
  const snapshot = new RegExp(`:snap:(head|${plan.gen}:\\d+\\.\\d+)$`);
  expect(left.filter((k) => !k.startsWith(ns) || (k.includes(':snap:') && !snapshot.test(k)))).toEqual([]);
  expect(left.filter((k) => snapshot.test(k)).length).toBeGreaterThan(1);
});

test('a shared read the list moved under leaves no part of its generation in the cache', () => {
  const s = setup();
  const a = s.make('a');
  let moved = false;
  s.world.hooks.onList = (page) => {
    if (page !== 2 || moved) return undefined;
    moved = true;
    return json(200, {
      data: s.world.ids.slice(100, 200).map((id) => ({ id })),
      pagination: { totalItems: 1001, totalPages: 11, currentPage: 2, pageSize: 100 },
    });
  };
  const { ended, plan } = run(s, [a]);
  expect(ended.complete).toBe(false);
  const parts = [...s.world.store.items.keys()].filter((k) => k.includes(`:snap:${plan.gen}:`));
  expect(parts).toEqual([]);
});

test("the reader's column's answers are all copied when a helper waits for the read from another column", () => {
  const s = setup();
  const other = new Set(s.world.ids.filter((_, i) => i % 7 === 3));
  const { ended } = run(s, [s.make('a', { column: other }), s.make('b', { column: other })]);
  expect(ended).toEqual({ complete: true, published: true });
  const missing = [...s.column].filter((id) => !s.copied.includes(id));
  expect(missing.length).toBe(0);
});

test("a helper's refusal that echoes the API key leaves no part of it in the cache", () => {
  const s = setup();
  const { ended } = run(s, [s.make('a')], (p) => {
    const page = sharePages(p, 1)[0];
    s.world.hooks.onList = (asked) =>
      asked === page ? json(401, { message: 'Invalid API key k_test_1234 for this account' }) : undefined;
  });
  expect(ended.complete).toBe(false);
  expect(!ended.complete && ended.error.message).toMatch(/Invalid API key/);
  expect(!ended.complete && ended.error.message).not.toMatch(/k_test_|test_1234/);
  const values = [...s.world.store.items.values()].map((v) => v.value);
  expect(values.filter((v) => /k_test_|test_1234/.test(v))).toEqual([]);
});

test("a helper's page that repeats page 1 (same total) fails the read as one execution's read does", () => {
  const s = setup();
  const { ended } = run(s, [s.make('a'), s.make('b')], (p) => {
    const page = sharePages(p, 1)[0];
    s.world.hooks.onList = (asked) =>
      asked === page
        ? json(200, {
            data: s.world.ids.slice(0, 100).map((id) => ({ id })),
            pagination: { totalItems: 1000, totalPages: 10, currentPage: asked, pageSize: 100 },
          })
        : undefined;
  });
  expect(ended.complete).toBe(false);
  expect(!ended.complete && ended.error.message).toMatch(/page 2 repeats page 1/);
  expect(s.snapshot.view()).toBeUndefined();
});

test('a list of one page is the read: with executions offering to help, no plan is written', () => {
  const s = setup(80);
  s.make('a').read.help('reader');
  expect(s.reader.read.post(s.first(), LIMIT)).toBeUndefined();
});

test("records without a usable id in a helper's share are skipped and counted: the read is still complete", () => {
  const s = setup();
  const { ended } = run(s, [s.make('a')], (p) => {
    const page = sharePages(p, 1)[0];
    s.world.hooks.onList = (asked) =>
      asked === page
        ? json(200, {
            data: s.world.ids
              .slice((asked - 1) * 100, asked * 100)
              .map((id, i) => (i < 3 ? { id: '', fullName: id } : { id, fullName: id })),
            pagination: { totalItems: 1000, totalPages: 10, currentPage: asked, pageSize: 100 },
          })
        : undefined;
  });
  expect(ended).toEqual({ complete: true, published: true });
  const view = s.snapshot.view();
  expect(view && s.snapshot.all(view)?.length).toBe(997);
});

test("a read whose helper started its share and never finished fails when the reader's time is up, publishing nothing", () => {
  const s = setup();
  const { ended } = run(s, [s.make('hung', { killed: true })], undefined, 5_000);
  expect(ended.complete).toBe(false);
  expect(!ended.complete && ended.error.code).toBe('TIMEOUT');
  expect(!ended.complete && ended.error.message).toMatch(/list of active partners took too long/);
  expect(s.snapshot.view()).toBeUndefined();
});

test("the reader's time up while a part is still to be written: complete, the column's answers copied, nothing published", () => {
  const s = setup();
  const { ended, plan } = run(s, [s.make('cut', { killedBeforePart: true })], undefined, 3_000);
  expect(ended).toEqual({ complete: true, published: false });
  expect(new Set(s.copied)).toEqual(s.column);
  expect(s.snapshot.view()).toBeUndefined();
  // The parts written are removed with the rest: nothing of the generation stays.
  expect([...s.world.store.items.keys()].filter((k) => k.includes(`:snap:${plan.gen}:`))).toEqual([]);
});

test('the page after the last, repeating the last page (a clamping service), ends the list: its records are not listed twice', () => {
  const s = setup();
  const { ended, plan } = run(s, [s.make('a'), s.make('b')], () => {
    s.world.hooks.onList = (asked) =>
      asked === 11
        ? json(200, {
            data: s.world.ids.slice(900, 1000).map((id) => ({ id, fullName: id })),
            pagination: { totalItems: 1000, totalPages: 10, currentPage: 10, pageSize: 100 },
          })
        : undefined;
  });
  expect(plan.list.last).toBe(10);
  expect(ended).toEqual({ complete: true, published: true });
  const view = s.snapshot.view();
  expect(view && s.snapshot.all(view)?.map((r) => r.id)).toEqual(s.world.ids);
  expect(view?.total).toBe(1000);
});

test("a helper killed after it started its share: the reader reads that share only once the plan's end and a second are past", () => {
  const s = setup();
  const asked = new Map<number, number>();
  const { ended, plan } = run(s, [s.make('a'), s.make('killed', { killed: true })], () => {
    s.world.hooks.onList = (page) => {
      asked.set(page, s.world.clock.now());
      return undefined;
    };
  });
  expect(ended).toEqual({ complete: true, published: true });
  const pages = sharePages(plan, plan.by.indexOf('killed'));
  // Its requests may run until the plan's end: before that, the share is the helper's.
  for (const p of pages) expect(asked.get(p)).toBe(plan.end + GIVEN_MS);
});

test("a reader killed after its plan: what the read left to coordinate lives no longer than the answers' freshness", () => {
  const s = setup();
  const helpers = Array.from({ length: 12 }, (_, i) => s.make(`h${i}`));
  for (const h of helpers) h.read.help('reader');
  const plan = s.reader.read.post(s.first(), LIMIT) as Plan;
  // The first helper reads its share and writes its part; the reader never drives the read (killed).
  for (const h of helpers) h.read.help('reader');
  expect(plan.by.length).toBe(10);
  const coordination = (live: boolean) =>
    [...s.world.store.items]
      .filter(([k, v]) => v.expiresAt > s.world.clock.now() === live && COORDINATION.test(k))
      .map(([k]) => k);
  expect(coordination(true).length).toBeGreaterThan(0);
  s.world.clock.t += TTL_MS + 1;
  expect(coordination(true)).toEqual([]);
});

test('the cache loses the column a helper reads the answers for: the helper still reads its share, and the read is complete', () => {
  const s = setup();
  const a = s.make('a');
  const { ended, plan } = run(s, [a], (p) => s.world.memo.remove([s.world.memo.key('snap', `${p.gen}:column`)]));
  expect(ended).toEqual({ complete: true, published: true });
  expect(a.execution.pages()).toEqual(sharePages(plan, 1));
});

test("the cache loses a share's pages before the verdict: the read is not judged complete, and nothing is published", () => {
  const s = setup();
  const a = s.make('a');
  let gen = '';
  s.world.hooks.onPut = (keys) => {
    if (keys.some((k) => k.endsWith(`${gen}:done:1`)))
      s.world.memo.remove([s.world.memo.key('snap', `${gen}:pages:1`), s.world.memo.key('snap', `${gen}:found:1`)]);
  };
  const { ended } = run(s, [a], (p) => {
    gen = p.gen;
  });
  expect(ended.complete).toBe(false);
  expect(s.snapshot.view()).toBeUndefined();
});

test("a helper's part written a while after its share is marked done is waited for: the read is published once it comes", () => {
  const s = setup();
  let held: [string, { value: string; expiresAt: number }] | undefined;
  let looks = 0;
  s.world.hooks.onPut = (keys) => {
    const key = keys.find((k) => /:part:1$/.test(k));
    if (!key || held) return;
    held = [key, s.world.store.items.get(key) as { value: string; expiresAt: number }];
    s.world.store.items.delete(key);
  };
  const a = s.make('a');
  a.read.help('reader');
  const page1 = s.first();
  const plan = s.reader.read.post(page1, LIMIT) as Plan;
  const ended = s.reader.read.drive(plan, page1, () => {
    a.read.help('reader');
    // The part comes three looks after the share was marked done.
    if (held && ++looks === 3) s.world.store.items.set(...held);
    s.world.clock.t += 50;
    return true;
  });
  expect(looks).toBeGreaterThanOrEqual(3);
  expect(ended).toEqual({ complete: true, published: true });
  expect(s.snapshot.view()?.gen).toBe(plan.gen);
});

test("the cache loses a share's column answers only: the read is complete, and the column's answers are the others'", () => {
  const s = setup();
  let gen = '';
  s.world.hooks.onPut = (keys) => {
    if (keys.some((k) => k.endsWith(`${gen}:done:1`)))
      s.world.memo.remove([s.world.memo.key('snap', `${gen}:found:1`)]);
  };
  const { ended, plan } = run(s, [s.make('a')], (p) => {
    gen = p.gen;
  });
  expect(ended).toEqual({ complete: true, published: true });
  const onShare1 = new Set(sharePages(plan, 1).flatMap((p) => s.world.ids.slice((p - 1) * 100, p * 100)));
  expect(s.copied.length).toBeGreaterThan(0);
  expect(s.copied.filter((id) => !s.column.has(id) || onShare1.has(id))).toStrictEqual([]);
});
