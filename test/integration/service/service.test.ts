import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';
import { type ResponseValidator, responseValidator } from '../../helpers/openapi';

const LP = '/api/limited-partners-data';
const VF = '/api/venture-funds-data';
const LISTED = '/api/active-partners-data/getAllActivePartnersData';
const SAMPLE = `${LP}/getAllActiveLimitedPartners`;

let svc: RunningService;
let validate: ResponseValidator;

interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes; each is checked by the OpenAPI validator
  body: any;
  text: string;
  headers: Headers;
}

async function get(path: string, query: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  const qs = new URLSearchParams(query).toString();
  const res = await fetch(`${svc.url}${path}${qs ? `?${qs}` : ''}`, {
    method,
    headers: { accept: 'application/json' },
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text, headers: res.headers };
}

async function api(path: string, query: Record<string, string> = {}): Promise<Reply> {
  const r = await get(path, { apiKey: DEMO_KEY, ...query });
  validate(path, r.status, r.body);
  return r;
}

beforeAll(async () => {
  svc = await startService(['--partners', '300', '--funds', '40', '--max-page-size', '50']);
  validate = await responseValidator(svc.url);
});
afterAll(() => svc.stop());

describe('reference service: the seven operations', () => {
  test('getLimitedPartnerById returns the record in a list, with all 47 fields', async () => {
    const r = await api(`${LP}/getLimitedPartnerById`, { limitedPartnerId: 'lp_0000a' });
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body.data)).toBe(true);
    expect(Object.keys(r.body.data[0])).toHaveLength(47);
    expect(r.body.data[0].id).toBe('lp_0000a');
  });

  test('ids that need URL-encoding work when encoded', async () => {
    const id = 'lp/ä 1#&apiKey=x?y';
    const r = await api(`${LP}/getLimitedPartnerById`, { limitedPartnerId: id });
    expect(r.body.data[0].id).toBe(id);
  });

  test('firms shape has firm as a list; labels shape has labels', async () => {
    const firms = await api(`${LP}/getLimitedPartnersAndTheirFirms`, { limitedPartnerId: 'lp_0000b' });
    expect(Object.keys(firms.body.data).sort()).toEqual([
      'activeStatus',
      'firm',
      'foto',
      'fullName',
      'id',
      'name',
      'slug',
    ]);
    expect(Array.isArray(firms.body.data.firm)).toBe(true);
    const labels = await api(`${LP}/getLabelsByLimitedPartnerId`, { limitedPartnerId: 'lp_0000b' });
    expect(Object.keys(labels.body.data).sort()).toEqual([
      'activeStatus',
      'foto',
      'fullName',
      'id',
      'labels',
      'name',
      'slug',
    ]);
  });

  test('getVentureFundById returns an object with all 58 fields; last fund size and industries', async () => {
    const fund = await api(`${VF}/getVentureFundById`, { ventureFundId: 'vf_0005' });
    expect(Object.keys(fund.body.data)).toHaveLength(58);
    expect(fund.body.data.active).toBe('ACTIVE');
    const size = await api(`${VF}/getLastFundSizeByVentureFundId`, { ventureFundId: 'vf_0005' });
    expect(size.body.data.lastFundSize).toBe(fund.body.data.lastFundSize);
    const ind = await api(`${VF}/getIndustriesByVentureFundId`, { ventureFundId: 'vf_0005', limit: '3' });
    expect(ind.body.pagination.pageSize).toBe(3);
    expect(ind.body.data.length).toBeLessThanOrEqual(3);
  });

  test('the active list answers on both listed paths, only active partners, stable order', async () => {
    const a = await api(LISTED, { page: '2', limit: '20' });
    const b = await api(SAMPLE, { page: '2', limit: '20' });
    expect(a.body).toEqual(b.body);
    expect(a.body.data.every((p: { activeStatus: string }) => p.activeStatus === 'ACTIVE')).toBe(true);
    const again = await api(LISTED, { page: '2', limit: '20' });
    expect(again.body.data.map((p: { id: string }) => p.id)).toEqual(a.body.data.map((p: { id: string }) => p.id));
  });
});

describe('reference service: pagination', () => {
  test('defaults are page 1 and limit 10', async () => {
    const r = await api(LISTED);
    expect(r.body.pagination).toMatchObject({ currentPage: 1, pageSize: 10 });
    expect(r.body.data).toHaveLength(10);
  });

  test('limit above the cap is clamped and pageSize says so', async () => {
    const r = await api(LISTED, { limit: '500' });
    expect(r.body.pagination.pageSize).toBe(50);
    expect(r.body.data).toHaveLength(50);
    expect(r.body.pagination.totalPages).toBe(Math.ceil(r.body.pagination.totalItems / 50));
  });

  test('a page past the end is empty with correct pagination', async () => {
    const first = await api(LISTED, { limit: '50' });
    const past = await api(LISTED, { limit: '50', page: String(first.body.pagination.totalPages + 1) });
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.totalItems).toBe(first.body.pagination.totalItems);
  });

  test('all pages together hold every active partner once', async () => {
    const first = await api(LISTED, { limit: '50' });
    const ids: string[] = [];
    for (let p = 1; p <= first.body.pagination.totalPages; p++)
      ids.push(...(await api(LISTED, { limit: '50', page: String(p) })).body.data.map((x: { id: string }) => x.id));
    expect(ids).toHaveLength(first.body.pagination.totalItems);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each([
    ['page', '0'],
    ['page', '-1'],
    ['page', '1.5'],
    ['limit', 'abc'],
    ['limit', '0'],
  ])('%s=%s is a 400', async (name, value) => {
    const r = await api(LISTED, { [name]: value });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(name);
  });
});

describe('reference service: errors', () => {
  test('missing key 401, unknown key 403, never echoing the key', async () => {
    const missing = await get(`${LP}/getLimitedPartnerById`, { limitedPartnerId: 'lp_0000a' });
    validate(`${LP}/getLimitedPartnerById`, missing.status, missing.body);
    expect(missing.status).toBe(401);
    const wrong = await get(`${LP}/getLimitedPartnerById`, {
      apiKey: 'secret-wrong-key',
      limitedPartnerId: 'lp_0000a',
    });
    validate(`${LP}/getLimitedPartnerById`, wrong.status, wrong.body);
    expect(wrong.status).toBe(403);
    expect(wrong.text).not.toContain('secret-wrong-key');
  });

  test('unknown id 404, missing id 400, unknown path 404, non-GET 405', async () => {
    expect((await api(`${LP}/getLimitedPartnerById`, { limitedPartnerId: 'nope' })).status).toBe(404);
    expect((await api(`${VF}/getVentureFundById`, { ventureFundId: 'nope' })).status).toBe(404);
    expect((await api(`${LP}/getLimitedPartnerById`)).status).toBe(400);
    const unknown = await get('/api/nothing-here', { apiKey: DEMO_KEY });
    expect(unknown.status).toBe(404);
    expect(unknown.body.statusCode).toBe(404);
    const post = await get(`${LP}/getLimitedPartnerById`, { apiKey: DEMO_KEY, limitedPartnerId: 'lp_0000a' }, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    validate(`${LP}/getLimitedPartnerById`, 405, post.body);
  });
});

describe('reference service: quirks and faults', () => {
  afterEach(() =>
    svc.config({
      quirks: { fundAsList: false, listPaths: 'both' },
      faults: { error500: 0, error502: 0, error503: 0, rateLimit: 0, truncated: 0, slow: 0 },
    }),
  );

  test('fundAsList returns getVentureFundById data as a one-element list', async () => {
    await svc.config({ quirks: { fundAsList: true } });
    const r = await api(`${VF}/getVentureFundById`, { ventureFundId: 'vf_0005' });
    expect(Array.isArray(r.body.data)).toBe(true);
    expect(r.body.data).toHaveLength(1);
  });

  test('listPaths serves only one of the two list paths', async () => {
    await svc.config({ quirks: { listPaths: 'sample' } });
    expect((await api(LISTED)).status).toBe(404);
    expect((await api(SAMPLE)).status).toBe(200);
    await svc.config({ quirks: { listPaths: 'listed' } });
    expect((await api(LISTED)).status).toBe(200);
    expect((await api(SAMPLE)).status).toBe(404);
  });

  test.each([
    ['error500', 500],
    ['error502', 502],
    ['error503', 503],
  ])('%s fault gives %i', async (name, status) => {
    await svc.config({ faults: { [name]: 1 } });
    expect((await api(LISTED)).status).toBe(status);
  });

  test('rateLimit fault gives 429 with Retry-After', async () => {
    await svc.config({ faults: { rateLimit: 1, retryAfterSeconds: 7 } });
    const r = await api(LISTED);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
  });

  test('truncated fault gives a 200 whose body is not valid JSON', async () => {
    await svc.config({ faults: { truncated: 1 } });
    const r = await get(LISTED, { apiKey: DEMO_KEY });
    expect(r.status).toBe(200);
    expect(() => JSON.parse(r.text)).toThrow();
  });

  test('slow fault holds the answer for slowMs; latency delays every answer', async () => {
    await svc.config({ faults: { slow: 1, slowMs: 600 } });
    let t = Date.now();
    await api(LISTED);
    expect(Date.now() - t).toBeGreaterThanOrEqual(550);
    await svc.config({ faults: { slow: 0 }, latencyMs: 300 });
    t = Date.now();
    await api(LISTED);
    expect(Date.now() - t).toBeGreaterThanOrEqual(280);
    await svc.config({ latencyMs: 0 });
  });

  test('a 30 % fault rate gives roughly 30 % faults, counted in /__stats', async () => {
    await svc.resetStats();
    await svc.config({ faults: { error500: 0.1, error503: 0.1, rateLimit: 0.1 }, seed: 7 });
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++)
      statuses.push((await api(`${LP}/getLimitedPartnerById`, { limitedPartnerId: 'lp_0000a' })).status);
    const faults = statuses.filter((s) => s !== 200).length;
    expect(faults).toBeGreaterThan(35);
    expect(faults).toBeLessThan(85);
    const stats = await svc.stats();
    expect(stats.requests).toBe(200);
    expect(stats.byOperation.getLimitedPartnerById).toBe(200);
    expect((stats.byStatus['500'] ?? 0) + (stats.byStatus['503'] ?? 0) + (stats.byStatus['429'] ?? 0)).toBe(faults);
  });

  test('a seed draws the same faults for the same request and attempt, whatever order the requests arrive in', async () => {
    const pattern = async (pages: number[]) => {
      await svc.resetStats();
      await svc.config({ faults: { error500: 0, error503: 0, rateLimit: 0.3 }, seed: 5 });
      const seen = new Map<number, number[]>();
      for (const page of pages) {
        const status = (await api(LISTED, { page: String(page), limit: '50' })).status;
        seen.set(page, [...(seen.get(page) ?? []), status]);
      }
      return [...seen].sort((a, b) => a[0] - b[0]);
    };
    const asked = Array.from({ length: 40 }, (_, i) => 1 + (i % 20));
    const forwards = await pattern(asked);
    expect(await pattern([...asked].reverse())).toEqual(forwards);
    expect(forwards.flatMap(([, s]) => s).filter((s) => s === 429).length).toBeGreaterThan(3);
    await svc.config({ faults: { rateLimit: 0 } });
  });

  test('/__stats counts the longest run of 429s in a row one request met (same path and query, whatever the key)', async () => {
    await svc.resetStats();
    await svc.config({ faults: { error500: 0, error503: 0, rateLimit: 1 }, seed: 1 });
    for (let i = 0; i < 3; i++) expect((await api(LISTED, { page: '2', limit: '50' })).status).toBe(429);
    expect((await api(LISTED, { page: '3', limit: '50' })).status).toBe(429);
    await svc.config({ faults: { rateLimit: 0 } });
    expect((await api(LISTED, { page: '2', limit: '50' })).status).toBe(200);
    await svc.config({ faults: { rateLimit: 1 } });
    expect((await api(LISTED, { page: '2', limit: '50' })).status).toBe(429);
    expect((await svc.stats()).longest429Run).toBe(3);
    await svc.config({ faults: { rateLimit: 0 } });
    await svc.resetStats();
    expect((await svc.stats()).longest429Run).toBe(0);
  });
});

describe('reference service: data', () => {
  test('hard cases are present: unicode, > 50,000 characters, empty lists, nulls, formula-like text', async () => {
    const one = async (id: string) => (await api(`${LP}/getLimitedPartnerById`, { limitedPartnerId: id })).body.data[0];
    expect((await one('lp_00000')).fullName).toMatch(/Zoë/);
    expect((await one('lp_00002')).description.length).toBeGreaterThan(50000);
    expect((await one('lp_00003')).expertise).toEqual([]);
    expect((await one('lp_00004')).phoneNumber).toBeNull();
    const f = await one('lp_00005');
    expect([f.fullName[0], f.firm[0], f.description[0], f.email[0]]).toEqual(['=', '+', '-', '@']);
  });

  test('a realistic share of partners is inactive', async () => {
    const r = await api(LISTED);
    const share = r.body.pagination.totalItems / 300;
    expect(share).toBeGreaterThan(0.75);
    expect(share).toBeLessThan(0.95);
  });

  test('mutations deactivate partners and reorder the list', async () => {
    const before = (await api(LISTED, { limit: '5' })).body;
    await svc.mutate({ deactivate: [before.data[0].id], reorder: 'reverse' });
    const after = (await api(LISTED, { limit: '5' })).body;
    expect(after.pagination.totalItems).toBe(before.pagination.totalItems - 1);
    expect(after.data[0].id).not.toBe(before.data[1].id);
    expect(
      (await api(`${LP}/getLimitedPartnerById`, { limitedPartnerId: before.data[0].id })).body.data[0].activeStatus,
    ).toBe('INACTIVE');
  });

  test('every response in this file validated against /openapi.json', () => {
    expect(validate.count).toBeGreaterThan(40);
  });
});

describe('reference service: --data FILE', () => {
  test('serves a valid file and refuses a bad one naming the record and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcdata-'));
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        limitedPartners: [
          { id: 'a1', fullName: 'Ann', activeStatus: 'ACTIVE', ticketSize: 5 },
          { id: 'a2', activeStatus: 'INACTIVE' },
        ],
        ventureFunds: [{ id: 'f1', name: 'F', industries: ['AI'] }],
      }),
    );
    const own = await startService(['--data', good]);
    try {
      const r = await fetch(`${own.url}${LISTED}?apiKey=${DEMO_KEY}`);
      const body = await r.json();
      expect(body.data.map((p: { id: string }) => p.id)).toEqual(['a1']);
    } finally {
      await own.stop();
    }
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ limitedPartners: [{ id: 'a1' }, { id: 'a2', ticketSize: 'lots' }] }));
    await expect(startService(['--data', bad])).rejects.toThrow(
      'limitedPartners[1] (id "a2"): field "ticketSize" must be float',
    );
  });
});
