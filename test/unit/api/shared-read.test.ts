/**
 * A read of the active list shared by the executions waiting for it (src/api/shares.ts): the
 * reader gives a share of the pages to each execution that offered, each page is asked for once
 * in all, and the read is judged by the page reader's rules from what the shares left; a share
 * whose helper never starts is read by the reader; a list that moves under the shared read is
 * reported for reading again, and a refused page fails the read.
 */
import { mulberry32 } from '../../../dev/service/rng';
import { fnv1a } from '../../../src/api/hash';
import { idsDigest } from '../../../src/api/pages';
import { GIVEN_MS, type Plan, SLOTS, type SharedRead, sharePages } from '../../../src/api/shares';
import type { HttpResponse } from '../../../src/api/transport';
import { json } from '../../helpers/fakes';
import { LIMIT, sharedReadWorld } from '../../helpers/shared-read-world';

const setup = (total = 1000, writes = true) => sharedReadWorld(total, undefined, { canWrite: writes });

/** Executions `tokens` offer to help; page 1 is read and the reader plans the read. */
function planned(s: ReturnType<typeof setup>, tokens: string[]) {
  const helpers = tokens.map((t) => s.make(t));
  for (const h of helpers) h.read.help('reader');
  const page1 = s.first();
  return { helpers, page1, plan: s.reader.read.post(page1, LIMIT) as Plan };
}

/** The read planned with one helper, the helper's first page answered by `answer`; how it ended. */
function helperPageAnswered(s: ReturnType<typeof setup>, answer: (page: number) => HttpResponse) {
  const { helpers, page1, plan } = planned(s, ['a']);
  s.world.hooks.onList = (page) => (page === sharePages(plan, 1)[0] ? answer(page) : undefined);
  return driven(s, { helpers, page1, plan });
}

/** The reader's waits: each lets `helpers` look once (as they would while it sleeps) and passes 50 ms. */
const waiting = (s: ReturnType<typeof setup>, helpers: SharedRead[]) => () => {
  for (const h of helpers) h.help('reader');
  s.world.clock.t += 50;
  return true;
};

/** The read planned by `planned`, driven by the reader while its helpers look at every wait; how it ended. */
const driven = (s: ReturnType<typeof setup>, { helpers, page1, plan }: ReturnType<typeof planned>) =>
  s.reader.read.drive(
    plan,
    page1,
    waiting(
      s,
      helpers.map((h) => h.read),
    ),
  );

test('three helpers that offered each read their share; every page is asked for once, and the read is published whole', () => {
  const s = setup();
  const { helpers, page1, plan } = planned(s, ['a', 'b', 'c']);
  expect(plan.by[0]).toBe('reader');
  expect([...plan.by].sort()).toEqual(['a', 'b', 'c', 'reader']);
  const ended = driven(s, { helpers, page1, plan });
  expect(ended).toEqual({ complete: true, published: true });
  // Pages of 100: 10 pages and the page after the last (1,000 is a whole number of pages), each asked for once.
  expect(s.world.pages().sort((a, b) => a - b)).toEqual([1, ...Array.from({ length: 10 }, (_, i) => i + 2)]);
  for (const h of helpers) expect(h.execution.pages()).toEqual(sharePages(plan, plan.by.indexOf(h.token)));
  const view = s.snapshot.view();
  expect(view?.gen).toBe(plan.gen);
  expect(view && s.snapshot.all(view)?.map((r) => r.id)).toEqual(s.world.ids);
  expect(new Set(s.copied)).toEqual(s.column);
  // No helper read every share: the reader holds only its own.
  expect(s.reader.read.whole(plan)).toBeUndefined();
});

test('a helper that never starts its share: the reader reads it after GIVEN_MS, and the read is still whole', () => {
  const s = setup();
  const {
    helpers: [gone],
    page1,
    plan,
  } = planned(s, ['gone']);
  const start = s.world.clock.now();
  expect(s.reader.read.drive(plan, page1, waiting(s, []))).toEqual({ complete: true, published: true });
  expect(s.world.clock.now() - start).toBeGreaterThanOrEqual(GIVEN_MS);
  expect(gone.execution.pages()).toEqual([]);
  expect(s.reader.read.whole(plan)?.map((r) => r.id)).toEqual(s.world.ids);
  // Too late to start it: the helper leaves the share to the reader.
  gone.read.help('reader');
  expect(gone.execution.pages()).toEqual([]);
});

test('with no execution offering, there is no plan: the reader reads the list alone', () => {
  const s = setup();
  expect(s.reader.read.post(s.first(), LIMIT)).toBeUndefined();
});

test("a helper's page that moved (another total) makes the read one to do again, with the ids' digest", () => {
  const s = setup();
  const ended = helperPageAnswered(s, (page) =>
    json(200, {
      data: s.world.ids.slice((page - 1) * 100, page * 100).map((id) => ({ id, fullName: id })),
      pagination: { totalItems: 1001, totalPages: 11, currentPage: page, pageSize: 100 },
    }),
  );
  expect(ended.complete).toBe(false);
  expect(!ended.complete && ended.error.message).toMatch(/changed/);
  expect(!ended.complete && typeof ended.digest).toBe('number');
  expect(s.snapshot.view()).toBeUndefined();
});

test("a page a helper's request was refused for fails the read with that refusal; nothing is published", () => {
  const s = setup();
  const ended = helperPageAnswered(s, () => json(401, { message: 'Invalid API key' }));
  expect(ended.complete).toBe(false);
  expect(!ended.complete && ended.error.code).toBe('AUTH');
  expect(s.snapshot.view()).toBeUndefined();
});

test('an execution that offered and stops waiting withdraws: the next plan gives it no share', () => {
  const s = setup();
  const helper = s.make('a');
  helper.read.help('reader');
  helper.read.withdraw();
  expect(s.reader.read.post(s.first(), LIMIT)).toBeUndefined();
});

test('seeds 1-150: helpers that look at random moments, may never start, and pages refused at random; each page is asked for once, and the read is published whole or not at all', () => {
  const broken: string[] = [];
  for (let seed = 1; seed <= 150; seed++) {
    const draw = mulberry32(seed);
    const s = setup(100 + Math.floor(draw() * 1400));
    const helpers = Array.from({ length: 1 + Math.floor(draw() * 12) }, (_, i) => s.make(`h${i}`));
    // Some never look again after offering (their cells ended); the others look now and then.
    const active = helpers.filter(() => draw() < 0.8);
    const failing = draw() < 0.3 ? 2 + Math.floor(draw() * 8) : 0;
    s.world.hooks.onList = (page) =>
      page === failing ? json(draw() < 0.5 ? 500 : 401, { message: 'refused' }) : undefined;
    for (const h of helpers) h.read.help('reader');
    const page1 = s.first();
    const plan = s.reader.read.post(page1, LIMIT);
    if (!plan) continue;
    const ended = s.reader.read.drive(plan, page1, () => {
      for (const h of active) if (draw() < 0.5) h.read.help('reader');
      s.world.clock.t += 50;
      return true;
    });
    const asked = s.world.pages();
    const view = s.snapshot.view();
    const problems = [
      // The client asks a page refused for now again itself: only the refused page may come more than once.
      new Set(asked).size !== asked.filter((p, i) => p !== failing || asked.indexOf(p) === i).length &&
        `pages asked twice: ${asked.sort((a, b) => a - b)}`,
      ended.complete !== !asked.includes(failing) && `ended ${JSON.stringify(ended)}`,
      ended.complete && !ended.published && 'not published',
      ended.complete &&
        JSON.stringify(view && s.snapshot.all(view)?.map((r) => r.id)) !== JSON.stringify(s.world.ids) &&
        'published another list',
      !ended.complete && view && 'published a read that failed',
    ].filter(Boolean);
    if (problems.length) broken.push(`seed ${seed}: ${problems.join('; ')}`);
  }
  expect(broken).toEqual([]);
});

test('a helper with no time left for its requests leaves its share to the reader', () => {
  const s = setup();
  const late = s.make('late', { untilMs: -1 });
  late.read.help('reader');
  const page1 = s.first();
  const plan = s.reader.read.post(page1, LIMIT) as Plan;
  expect(plan.by).toEqual(['reader', 'late']);
  expect(s.reader.read.drive(plan, page1, waiting(s, [late.read]))).toEqual({ complete: true, published: true });
  expect(late.execution.pages()).toEqual([]);
  expect(s.reader.read.whole(plan)?.map((r) => r.id)).toEqual(s.world.ids);
});

test("a reader with no time to write its part: the column's answers are copied, the snapshot is not published", () => {
  const s = setup(1000, false);
  const { helpers, page1, plan } = planned(s, ['a']);
  expect(driven(s, { helpers, page1, plan })).toEqual({ complete: true, published: false });
  expect(new Set(s.copied)).toEqual(s.column);
  expect(s.snapshot.view()).toBeUndefined();
});

test("a plan another execution wrote (not the claim's holder) gives no share: the waiter only offers", () => {
  const s = setup();
  const { helpers, plan } = planned(s, ['a']);
  helpers[0].read.help('someone else');
  expect(helpers[0].execution.pages()).toEqual([]);
  expect(plan.by).toContain('a');
});

test('helpers that look every 50 ms take their shares at their first look after the plan', () => {
  const s = setup();
  const { helpers, page1, plan } = planned(s, ['a', 'b']);
  const asked = new Map<number, number>();
  s.world.hooks.onList = (page) => {
    asked.set(page, s.world.clock.now());
    return undefined;
  };
  expect(driven(s, { helpers, page1, plan })).toEqual({ complete: true, published: true });
  for (const h of helpers) {
    const k = plan.by.indexOf(h.token);
    expect(sharePages(plan, k).map((p) => asked.get(p))).toEqual(sharePages(plan, k).map(() => plan.at));
  }
});

test('a helper that first looks half of GIVEN_MS after the plan leaves its share to the reader, which reads it GIVEN_MS after the plan', () => {
  const s = setup();
  const {
    helpers: [slow],
    page1,
    plan,
  } = planned(s, ['slow']);
  const asked = new Map<number, number>();
  s.world.hooks.onList = (page) => {
    asked.set(page, s.world.clock.now());
    return undefined;
  };
  s.world.clock.t = plan.at + GIVEN_MS / 2;
  slow.read.help('reader');
  expect(slow.execution.pages()).toEqual([]);
  expect(s.reader.read.drive(plan, page1, waiting(s, [slow.read]))).toEqual({ complete: true, published: true });
  expect(slow.execution.pages()).toEqual([]);
  expect(new Set(sharePages(plan, 1).map((p) => asked.get(p)))).toEqual(new Set([plan.at + GIVEN_MS]));
});

test("a helper whose requests may run exactly until the plan's end takes its share", () => {
  const s = setup();
  const page1 = s.first();
  // The reader's requests may run 20 s; the plan's end is half-way, 10 s from now.
  const helper = s.make('a', { untilMs: 10_000 });
  helper.read.help('reader');
  const plan = s.reader.read.post(page1, LIMIT) as Plan;
  expect(plan.end).toBe(s.world.clock.now() + 10_000);
  helper.read.help('reader');
  expect(helper.execution.pages()).toEqual(sharePages(plan, 1));
});

test('two waiters whose tokens land in the first slot: the one written over offers again in the next, and both get a share', () => {
  const tokens = Array.from({ length: 2000 }, (_, i) => `z${i}`).filter((t) => fnv1a(t) % SLOTS === 0);
  const [x, y] = tokens;
  const s = setup();
  const [hx, hy] = [x, y].map((t) => s.make(t));
  hx.read.help('reader');
  hy.read.help('reader');
  hx.read.help('reader');
  const plan = s.reader.read.post(s.first(), LIMIT) as Plan;
  expect([...plan.by].sort()).toEqual(['reader', x, y].sort());
});

test("a list that lists a partner twice, across two shares, is reported for reading again with the digest of its ids in the list's order", () => {
  const s = setup();
  // Page 3's first partner is listed again as page 2's last: the reader's own read of the list again compares digests.
  const listed = [...s.world.ids];
  listed[199] = listed[200];
  s.world.hooks.onList = (page) =>
    page === 2
      ? json(200, {
          data: listed.slice(100, 200).map((id) => ({ id, fullName: id })),
          pagination: { totalItems: 1000, totalPages: 10, currentPage: 2, pageSize: 100 },
        })
      : undefined;
  const { helpers, page1, plan } = planned(s, ['a']);
  const ended = driven(s, { helpers, page1, plan });
  expect(ended.complete).toBe(false);
  expect(!ended.complete && ended.error.message).toMatch(/list of active partners.*came twice/);
  expect(!ended.complete && ended.digest).toBe(idsDigest(listed));
});

test('the page after the last answered 404 (a service with no such page) ends the list: the read is complete', () => {
  const s = setup();
  s.world.hooks.onList = (page) => (page === 11 ? json(404, { message: 'No such page' }) : undefined);
  const { helpers, page1, plan } = planned(s, ['a', 'b']);
  expect(driven(s, { helpers, page1, plan })).toEqual({ complete: true, published: true });
});

test("the reader's own offer, left from an earlier wait, gives it no second share", () => {
  const s = setup();
  s.reader.read.help('someone else');
  const helpers = ['a', 'b'].map((t) => s.make(t));
  for (const h of helpers) h.read.help('reader');
  const plan = s.reader.read.post(s.first(), LIMIT) as Plan;
  expect([...plan.by].sort()).toEqual(['a', 'b', 'reader']);
});

test('a waiter that first looks once the plan is written, with no share in it, writes no offer', () => {
  const s = setup();
  const { plan } = planned(s, ['a']);
  const late = s.make('late');
  const offers = () => [...s.world.store.items.keys()].filter((k) => k.includes(':snap:offer:'));
  expect(offers()).toEqual([]);
  late.read.help('reader');
  expect(offers()).toEqual([]);
  expect(late.execution.pages()).toEqual([]);
  expect(plan.by).not.toContain('late');
});

test("the reader copies the column's answers for the waiting cells before it writes its own part of the snapshot", () => {
  const s = setup();
  const { helpers, page1, plan } = planned(s, ['a', 'b']);
  // How many of the column's answers were copied when each part was written.
  const copiedWhenWritten = new Map<number, number>();
  const write = s.snapshot.write.bind(s.snapshot);
  s.snapshot.write = (gen, part, records, places) => {
    copiedWhenWritten.set(part, s.copied.length);
    return write(gen, part, records, places);
  };
  expect(driven(s, { helpers, page1, plan })).toEqual({ complete: true, published: true });
  // A helper writes its part as soon as it has read its share; the reader once the waiting cells have their answers.
  expect(copiedWhenWritten.get(plan.by.indexOf('a'))).toBe(0);
  expect(copiedWhenWritten.get(plan.by.indexOf('b'))).toBe(0);
  expect(copiedWhenWritten.get(0)).toBe(s.column.size);
});

test("the shares keep of the column's answers the fields the reader's formula shows, and its id", () => {
  const s = sharedReadWorld(1000, undefined, { fields: ['fullName'] });
  const { helpers, page1, plan } = planned(s, ['a', 'b']);
  expect(driven(s, { helpers, page1, plan })).toEqual({ complete: true, published: true });
  expect(new Set(s.copied)).toEqual(s.column);
  for (const [id, record] of s.copiedRecords) expect(record).toStrictEqual({ id, fullName: `Name ${id}` });
  // The snapshot keeps every field.
  const view = s.snapshot.view();
  expect(view && s.snapshot.all(view)?.[0]).toEqual({
    id: s.world.ids[0],
    fullName: `Name ${s.world.ids[0]}`,
    activeStatus: 'ACTIVE',
  });
});
