/**
 * PartnerLookup's claim on reading the active list (src/api/partners.ts), over the fake transport,
 * clock and cache: one execution reads the list for many ids; when two executions claimed at the
 * same instant and the other one's claim stayed, this one stops after the first page and waits
 * instead of reading the whole list a second time. A snapshot the cache has since lost a chunk of
 * is read again rather than asked for id by id, and an id such as "__proto__" finds nothing in
 * the small buckets of answers.
 */
import { Client } from '../../../src/api/client';
import { Memo } from '../../../src/api/memo';
import { PartnerLookup } from '../../../src/api/partners';
import { FakeClock, FakeTransport, type Handler, json, LimitedStore, nodeCodec } from '../../helpers/fakes';

const BASE = 'https://data.example.com';
const TOTAL = 300;
const ids = Array.from({ length: TOTAL }, (_, i) => `lp_${String(i).padStart(4, '0')}`);
const partner = (id: string) => ({ id, fullName: `Name ${id}`, activeStatus: 'ACTIVE' });
const isList = (url: URL) => /getAllActive/.test(url.pathname);

function setup(onListPage?: (page: number, memo: Memo) => void) {
  const clock = new FakeClock();
  const store = new LimitedStore(clock);
  const memo = new Memo({
    store,
    codec: nodeCodec,
    apiKey: 'k_test_1234',
    baseUrl: BASE,
    ttlMs: 3_600_000,
    invalidatedBefore: 0,
    now: () => clock.now(),
  });
  const handler: Handler = (url) => {
    if (isList(url)) {
      const page = Number(url.searchParams.get('page'));
      const size = Math.min(100, Number(url.searchParams.get('limit')));
      onListPage?.(page, memo);
      return json(200, {
        data: ids.slice((page - 1) * size, page * size).map(partner),
        pagination: { totalItems: TOTAL, totalPages: Math.ceil(TOTAL / size), currentPage: page, pageSize: size },
      });
    }
    return json(200, { data: [partner(url.searchParams.get('limitedPartnerId') as string)] });
  };
  const transport = new FakeTransport(handler);
  const client = new Client({
    baseUrl: BASE,
    apiKey: 'k_test_1234',
    transport,
    clock,
    memo,
    random: () => 0.5,
    deadline: clock.now() + 30_000,
  });
  const another = () => new PartnerLookup({ client, memo, clock, token: 'another', random: () => 0.5 });
  const lookup = new PartnerLookup({ client, memo, clock, token: 'mine', random: () => 0.5 });
  const listRequests = () => transport.requests.filter((r) => isList(new URL(r.url))).length;
  return { lookup, listRequests, transport, memo, another };
}

test('many uncached ids: the execution that holds the claim reads the whole list and answers from it', () => {
  const { lookup, listRequests, transport } = setup();
  const out = lookup.lookup(ids.slice(0, 50));
  expect(out.every((o) => o.ok)).toBe(true);
  // Its 3 pages and one past the announced end (the reader confirms the list ends where it says), nothing per id.
  expect(transport.requests.map((r) => new URL(r.url).searchParams.get('page'))).toEqual(['1', '2', '3', '4']);
  expect(listRequests()).toBe(4);
});

test('two executions claimed at once and the other claim stayed: this one reads one page, not the whole list again', () => {
  // The other execution's claim lands while this one reads the first page (both saw no claim before).
  const { lookup, listRequests } = setup((page, memo) => {
    if (page === 1) memo.putMany([[memo.key('claim', 'snapshot'), 'theirs']]);
  });
  const out = lookup.lookup(ids.slice(0, 50));
  expect(out.every((o) => o.ok)).toBe(true);
  expect(listRequests()).toBe(1);
});

test('a fresh snapshot that lost a chunk to eviction is read again for many of its ids, not asked for id by id', () => {
  const { lookup, listRequests, transport, memo, another } = setup();
  expect(lookup.lookup(ids.slice(0, 50)).every((o) => o.ok)).toBe(true);
  expect(listRequests()).toBe(4);
  const index = memo.getMany([memo.key('snap', 'index')]).get(memo.key('snap', 'index'))?.value as { gen: string };
  memo.remove([memo.key('snap', `${index.gen}:0`)]);
  const before = transport.requests.length;
  // Another execution, 50 other ids of the lost chunk (chunk 0 holds the first 200).
  const out = another().lookup(ids.slice(100, 150));
  expect(out.map((o) => (o.ok ? o.value.id : o.error.message))).toEqual(ids.slice(100, 150));
  expect(transport.requests.length - before).toBe(4);
  expect(listRequests()).toBe(8);
});

test('an id such as "__proto__" finds nothing in the buckets a read of the list left: it is asked for', () => {
  const { lookup, transport, another } = setup();
  expect(lookup.lookup(ids.slice(0, 50)).every((o) => o.ok)).toBe(true);
  const before = transport.requests.length;
  const [out] = another().lookup(['__proto__']);
  expect(transport.requests.length - before).toBe(1);
  expect(out.ok && out.value.id).toBe('__proto__');
});

test('a cell that looked for the snapshot before another execution published it, and claims after, does not read the list again', () => {
  const { lookup, listRequests, another } = setup();
  const run = [...ids.slice(0, 60), 'lp_inactive'];
  const out = lookup.lookup(['lp_inactive'], () => {
    // While this cell reads its neighbours, another execution reads the list, publishes it and lets its claim go.
    expect(another().lookup([ids[0]], () => ({ ids: run.slice(0, 60), column: run, group: 'S:2:0' }))[0].ok).toBe(true);
    return { ids: run, column: run, group: 'S:2:0' };
  });
  expect(out[0].ok && out[0].value.id).toBe('lp_inactive');
  expect(listRequests()).toBe(4);
});
