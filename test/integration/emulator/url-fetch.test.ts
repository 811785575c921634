import { Emulator } from '../../../dev/emulator/runtime';
import { callCustomFunction } from '../../../dev/emulator/hosts';
import { DAILY_FETCH_QUOTA, MAX_RESPONSE_BYTES } from '../../../dev/emulator/url-fetch';
import { probe } from '../../helpers/probe';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

const PROBES = `
function get(url, mute) { var r = UrlFetchApp.fetch(url, { muteHttpExceptions: !!mute, headers: { accept: 'application/json' } }); return [r.getResponseCode(), r.getContentText().length]; }
function all(urls) { return UrlFetchApp.fetchAll(urls.map(function (u) { return { url: u, muteHttpExceptions: true }; })).map(function (r) { return JSON.parse(r.getContentText()).data[0].id; }); }
`;

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '200']);
});
afterAll(() => svc.stop());

const byId = (id: string) =>
  `${svc.url}/api/limited-partners-data/getLimitedPartnerById?apiKey=${DEMO_KEY}&limitedPartnerId=${encodeURIComponent(id)}`;

describe('emulator: UrlFetchApp over real HTTP', () => {
  test("URLs up to 2,082 characters; one more throws Google's message", () => {
    const emu = probe(PROBES);
    const base = `${byId('lp_00001')}&pad=`;
    expect(emu.run('get', [base + 'x'.repeat(2082 - base.length), true]).error).toBeUndefined();
    expect(emu.run('get', [base + 'x'.repeat(2083 - base.length), true]).error).toBe(
      'Exception: Limit Exceeded: URLFetch URL Length.',
    );
  });

  test('only this machine is reachable unless remote hosts are allowed; nothing is sent elsewhere', () => {
    const emu = probe(PROBES);
    expect(emu.run('get', ['https://data.example.com/api', true]).error).toBe(
      'Exception: Address unavailable: https://data.example.com (the emulator only fetches from this machine)',
    );
    expect(emu.run('get', ['http://10.0.0.1/x', true]).error).toContain('only fetches from this machine');
    expect(emu.history.reduce((n, l) => n + l.fetches, 0)).toBe(0);
    expect(emu.run('get', [byId('lp_0000a').replace('127.0.0.1', 'localhost'), true]).error).toBeUndefined();
  });

  test('non-2xx throws unless muted, naming only the origin', () => {
    const emu = probe(PROBES);
    expect(emu.run('get', [byId('nope'), true]).value).toEqual([404, expect.any(Number)]);
    const error = emu.run('get', [byId('nope'), false]).error as string;
    expect(error).toMatch(
      /^Exception: Request failed for http:\/\/127\.0\.0\.1:\d+ returned code 404\. Truncated server response: /,
    );
    expect(error).not.toContain(DEMO_KEY);
  });

  test("the daily fetch quota: the request past it throws Google's message", () => {
    expect(DAILY_FETCH_QUOTA).toBe(20000);
    const emu = probe(PROBES, { fetchQuota: 3 });
    expect(emu.run('all', [[byId('lp_0000a'), byId('lp_0000b')]]).error).toBeUndefined();
    expect(emu.run('get', [byId('lp_0000a'), true]).error).toBeUndefined();
    expect(emu.run('get', [byId('lp_0000a'), true]).error).toBe(
      'Exception: Service invoked too many times for one day: urlfetch.',
    );
    emu.advance(24 * 3600_000);
    expect(emu.run('get', [byId('lp_0000a'), true]).error).toBeUndefined();
    const real = probe(PROBES);
    real.run('get', [byId('lp_0000a'), true]);
    real.quota.used = DAILY_FETCH_QUOTA - 1;
    expect(real.run('get', [byId('lp_0000a'), true]).error).toBeUndefined();
    expect(real.run('get', [byId('lp_0000a'), true]).error).toBe(
      'Exception: Service invoked too many times for one day: urlfetch.',
    );
  });

  test("the quota resets 24 hours after the window's first request, not at midnight UTC (Google's rule)", () => {
    const emu = probe(PROBES, { fetchQuota: 1, startTime: Date.UTC(2026, 10, 23, 23, 0, 0) });
    expect(emu.run('get', [byId('lp_0000a'), true]).error).toBeUndefined();
    emu.advance(2 * 3600_000); // past midnight UTC, 2 h into the window
    expect(emu.run('get', [byId('lp_0000a'), true]).error).toBe(
      'Exception: Service invoked too many times for one day: urlfetch.',
    );
    emu.advance(22 * 3600_000);
    expect(emu.run('get', [byId('lp_0000a'), true]).error).toBeUndefined();
  });

  test('responses over the size cap (50 MB by default) throw', () => {
    expect(MAX_RESPONSE_BYTES).toBe(50 * 1024 * 1024);
    const emu = probe(PROBES, { maxResponseBytes: 50_000 });
    expect(emu.run('get', [byId('lp_0000a'), true]).error).toBeUndefined();
    expect(emu.run('get', [byId('lp_00002'), true]).error).toBe('Exception: Limit Exceeded: URLFetch response size.');
  });

  test('fetchAll runs in parallel and returns in order: 8 slow requests take about one latency', async () => {
    await svc.config({ latencyMs: 400 });
    try {
      const emu = probe(PROBES);
      const ids = ['lp_0000a', 'lp_0000b', 'lp_0000c', 'lp_0000d', 'lp_0000e', 'lp_0000f', 'lp_0000g', 'lp_0000h'];
      const run = emu.run<string[]>('all', [ids.map(byId)]);
      expect(run.value).toEqual(ids);
      const elapsed = run.ledger.endedAt - run.ledger.startedAt;
      expect(elapsed).toBeGreaterThanOrEqual(400);
      expect(elapsed).toBeLessThan(2 * 400);
      expect(run.ledger.fetches).toBe(8);
      expect(run.ledger.fetchAllCalls).toBe(1);
    } finally {
      await svc.config({ latencyMs: 0 });
    }
  });
});

describe('emulator: the deployed bundle against the reference service', () => {
  test('dist/Code.js runs a custom function over real HTTP and records the ledger', () => {
    const emu = new Emulator();
    emu.store('document').set('INVESTOR_DATA_BASE_URL', svc.url);
    emu.store(`user:${emu.owner}`).set('INVESTOR_DATA_API_KEY', DEMO_KEY);
    emu.store(`user:${emu.owner}`).set('INVESTOR_DATA_KEY_ADDRESS', svc.url);
    const cell = callCustomFunction(emu, 'LP_GET', ['lp_0000a', 'id']);
    expect(cell.value).toBe('lp_0000a');
    expect(cell.run.ledger.fetches).toBe(1);
    expect(cell.run.ledger.kind).toBe('custom-function');
    expect(cell.run.ledger.logs.join('\n')).not.toContain(DEMO_KEY);
  });
});
