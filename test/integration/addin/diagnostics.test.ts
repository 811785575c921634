/**
 * Diagnostics in the emulator: against the reference service every check passes in AuthMode.FULL;
 * a missing key or address, a missing list path, a dead service and a crowded trigger list are
 * each named; LIMITED and NONE skip what they may not do instead of failing; and the report never
 * holds the key or any 8-character run of it, even when the service echoes the key back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Emulator } from '../../../dev/emulator/runtime';
import { fundId } from '../../../dev/service/generate';
import { addin } from '../../helpers/addin';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

interface Check {
  name: string;
  status: string;
  detail: string;
}
interface Diagnostics {
  authMode: string;
  checks: Check[];
  report: string;
}

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '300', '--funds', '10']);
});
afterAll(() => svc.stop());
afterEach(() => svc.config({ quirks: { listPaths: 'both' } }));

function diagnose(emu: Emulator, authMode?: 'NONE' | 'LIMITED' | 'FULL'): Diagnostics {
  const run = emu.run<{ ok: boolean } & Diagnostics>('getDiagnostics', [], { kind: 'sidebar', authMode });
  expect(run.error).toBeUndefined();
  expect(run.value?.ok).toBe(true);
  return run.value as Diagnostics;
}

const statusOf = (d: Diagnostics, name: string) => d.checks.find((c) => c.name.startsWith(name))?.status;
const LISTED = 'List path /api/active-partners-data/getAllActivePartnersData';
const SAMPLE = 'List path /api/limited-partners-data/getAllActiveLimitedPartners';

describe('Diagnostics', () => {
  test('AuthMode.FULL against the reference service: every check passes, and the report says what it saw', async () => {
    const { emu } = addin(svc.url);
    const d = diagnose(emu);
    expect(d.authMode).toBe('FULL');
    expect(d.checks.map((c) => [c.name, c.status])).toEqual([
      ['API key', 'OK'],
      ['Service address', 'OK'],
      [LISTED, 'OK'],
      [SAMPLE, 'OK'],
      ['Per-id call getLimitedPartnerById', 'OK'],
      ['Cache', 'OK'],
      ['User properties', 'OK'],
      ['Document properties', 'OK'],
      ['Triggers', 'OK'],
      ['URL fetches today', 'INFO'],
    ]);
    const page = (await (
      await fetch(`${svc.url}/api/active-partners-data/getAllActivePartnersData?apiKey=${DEMO_KEY}&limit=1`)
    ).json()) as { pagination: { totalItems: number } };
    expect(d.checks[2].detail).toMatch(
      new RegExp(
        `^HTTP 200 within \\d+ ms \\(both paths asked at once\\): 1 record, pagination totalItems ${page.pagination.totalItems.toLocaleString('en-US')}, totalPages [\\d,]+, currentPage 1, pageSize 1$`,
      ),
    );
    expect(d.report).toMatch(/^Investor Data diagnostics\nTime: .+\nAuthorization mode: FULL\n/);
    expect(d.report).toContain(`…${DEMO_KEY.slice(-4)}`);
    expect(d.report).toContain(`${svc.url} (document properties)`);
    expect(d.report).toContain('Triggers: 0 of yours in this spreadsheet');
    expect(d.report).toContain('URL fetches today');
    // The two list-path probes and the per-id one all go through the quota guard, which counted them.
    expect(d.report).toMatch(
      /URL fetches today: 3 of 20,000 counted by the add-in for you since .+; it stops asking at 18,000\./,
    );
    expect(d.report).toMatch(/Summary: 9 ok, 0 warnings, 0 failed, 0 skipped\./);
    // probes leave nothing behind
    expect([...emu.store('document').keys()]).toEqual(['INVESTOR_DATA_BASE_URL']);
    expect([...emu.store(`user:${emu.owner}`).keys()]).toEqual(['INVESTOR_DATA_API_KEY', 'INVESTOR_DATA_KEY_ADDRESS']);
  });

  test("the day's fetch count is the quota guard's: a formula's fetches show, with the window and the stop", () => {
    const { emu, cell } = addin(svc.url);
    expect(cell('FUND_GET', [[fundId(1)], [fundId(2)], [fundId(3)]], 'id').run.ledger.fetches).toBe(3);
    const d = diagnose(emu);
    // The formula's 3 and Diagnostics' own three probes (the two list paths, one id).
    expect(d.checks.find((c) => c.name === 'URL fetches today')).toEqual({
      name: 'URL fetches today',
      status: 'INFO',
      detail: expect.stringMatching(
        /^6 of 20,000 counted by the add-in for you since [A-Z][a-z]{2} \d+, \d\d:\d\d UTC \(the count resets by [A-Z][a-z]{2} \d+, \d\d:\d\d UTC\); it stops asking at 18,000\. Google's own count also holds your other scripts' fetches$/,
      ),
    });
  });

  test('the menu item shows the report in a dialog, as escaped text ready to copy', () => {
    const { emu } = addin(svc.url);
    const run = emu.run('showDiagnostics', [], { kind: 'menu' });
    expect(run.error).toBeUndefined();
    expect(run.ledger.dialogs).toHaveLength(1);
    const { title, html, modal } = run.ledger.dialogs[0];
    expect([title, modal]).toEqual(['Investor Data diagnostics', true]);
    const text = /<textarea[^>]*>([\s\S]*)<\/textarea>/.exec(html)?.[1] ?? '';
    expect(text).toContain('Authorization mode: FULL');
    expect(text).toContain('OK    API key');
    expect(text).not.toMatch(/<|>/);
  });

  test('no key, then no address: each is named as the failure, and the service is not asked', () => {
    const keyless = addin(svc.url, null).emu;
    const noKey = diagnose(keyless);
    expect(keyless.history.at(-1)?.fetches).toBe(0);
    expect(statusOf(noKey, 'API key')).toBe('FAIL');
    expect(noKey.report).toContain('FAIL  API key: none saved: open Extensions ▸ Investor Data ▸ Settings');
    expect(noKey.checks.find((c) => c.name === 'Service')).toEqual({
      name: 'Service',
      status: 'SKIP',
      detail: 'needs a saved API key and a service address',
    });
    const emu = new Emulator();
    emu.store(`user:${emu.owner}`).set('INVESTOR_DATA_API_KEY', DEMO_KEY);
    const noAddress = diagnose(emu);
    expect(statusOf(noAddress, 'Service address')).toBe('FAIL');
    expect(noAddress.report).toContain('not set (there is no default)');
    expect(noAddress.report).not.toContain(DEMO_KEY);
  });

  test('one list path missing is a warning (the add-in falls back); a dead service fails both with the reason', async () => {
    await svc.config({ quirks: { listPaths: 'listed' } });
    const one = diagnose(addin(svc.url).emu);
    expect([statusOf(one, LISTED), statusOf(one, SAMPLE), statusOf(one, 'Per-id')]).toEqual(['OK', 'WARN', 'OK']);
    expect(one.checks.find((c) => c.name === SAMPLE)?.detail).toMatch(/HTTP 404.*\(the add-in uses the other path\)$/);
    const dead = diagnose(addin('http://127.0.0.1:9').emu);
    expect([statusOf(dead, LISTED), statusOf(dead, SAMPLE), statusOf(dead, 'Per-id')]).toEqual([
      'FAIL',
      'FAIL',
      'SKIP',
    ]);
    expect(dead.checks.find((c) => c.name === LISTED)?.detail).toMatch(/^not reached: /);
  });

  test("an address outside the add-on manifest's urlFetchWhitelist fails both list paths with Google's refusal, key redacted", () => {
    const { emu } = addin(svc.url, DEMO_KEY, { urlFetchWhitelist: ['https://data.your-provider.example/'] });
    const d = diagnose(emu);
    expect([statusOf(d, LISTED), statusOf(d, SAMPLE), statusOf(d, 'Per-id')]).toEqual(['FAIL', 'FAIL', 'SKIP']);
    expect(d.checks.find((c) => c.name === LISTED)?.detail).toContain(
      `not reached: Could not reach the data service: Exception: Request to ${svc.url}/api/active-partners-data/getAllActivePartnersData?page=1&limit=1&apiKey=*** failed because the URL has not been whitelisted`,
    );
  });

  test("the trigger count is this user's in this spreadsheet, against the add-on's one per user and document", () => {
    const { emu } = addin(svc.url);
    const trigger = (id: string, user: string, documentId: string) =>
      emu.triggers.triggers.push({
        id,
        handler: 'runScheduledImports',
        user,
        documentId,
        periodMs: 3_600_000,
        nextRunAt: Date.UTC(2030, 0, 1),
        oneOff: false,
      });
    trigger('mine', emu.owner, emu.documentId);
    trigger('other user', 'someone@example.com', emu.documentId);
    trigger('other document', emu.owner, 'another-document');
    const check = () => diagnose(emu).checks.find((c) => c.name === 'Triggers');
    expect(check()).toEqual({
      name: 'Triggers',
      status: 'OK',
      detail:
        '1 of yours in this spreadsheet, of the 1 an add-on may have per user and document (runScheduledImports ×1)',
    });
    trigger('second', emu.owner, emu.documentId);
    expect(check()).toMatchObject({ status: 'FAIL', detail: expect.stringMatching(/^2 of yours in this spreadsheet/) });
  });

  test('AuthMode.LIMITED: settings, cache and properties are checked; requests and triggers are skipped, not failed', () => {
    const d = diagnose(addin(svc.url).emu, 'LIMITED');
    expect(d.authMode).toBe('LIMITED');
    expect(d.checks.filter((c) => c.status === 'FAIL')).toEqual([]);
    expect([
      statusOf(d, 'API key'),
      statusOf(d, 'Cache'),
      statusOf(d, 'User properties'),
      statusOf(d, 'Triggers'),
    ]).toEqual(['OK', 'OK', 'OK', 'SKIP']);
    expect(d.checks.find((c) => c.name.startsWith('List path'))?.detail).toMatch(
      /^not allowed in this authorization mode \(Exception: You do not have permission to call UrlFetchApp\.fetch(All)?\. Required permissions: https:\/\/www.googleapis.com\/auth\/script.external_request\)/,
    );
    expect(d.report).toContain('Authorization mode: LIMITED');
  });

  test('AuthMode.NONE: a report still comes back, every check skipped', () => {
    const d = diagnose(addin(svc.url).emu, 'NONE');
    expect(d.authMode).toBe('NONE');
    expect(d.checks.filter((c) => c.status !== 'SKIP' && c.status !== 'INFO')).toEqual([]);
    expect(d.report).toContain('Authorization mode: NONE');
  });
});

/** A service that echoes the key it is sent: in a record id, a field, and an error message. */
const ECHO_SERVICE = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  const key = u.searchParams.get('apiKey') || '';
  const send = (status, body) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
  if (u.pathname.endsWith('/getAllActivePartnersData')) return send(200, { data: [{ id: 'lp-' + key }], pagination: { totalItems: 1, totalPages: 1, currentPage: 1, pageSize: 1 } });
  if (u.pathname.endsWith('/getAllActiveLimitedPartners')) return send(403, { statusCode: 403, error: 'Forbidden', message: 'key ' + key.slice(3, 15) + ' / ' + encodeURIComponent(key) + ' refused' });
  if (u.pathname.endsWith('/getLimitedPartnerById')) return send(200, { data: [{ id: 'lp-' + key.slice(0, 9) + 'x', fullName: key }] });
  send(404, { statusCode: 404, error: 'Not Found', message: 'no ' + key });
});
server.listen(0, '127.0.0.1', () => console.log('ECHO_URL=http://127.0.0.1:' + server.address().port));
`;

describe('Diagnostics never reveal the key', () => {
  let echo: ChildProcess;
  let echoUrl: string;
  beforeAll(async () => {
    echo = spawn(process.execPath, ['-e', ECHO_SERVICE], { stdio: ['ignore', 'pipe', 'inherit'] });
    echoUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('echo service did not start')), 10000);
      let out = '';
      echo.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /ECHO_URL=(\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
  });
  afterAll(() => {
    echo.kill();
  });

  test.each(['Sup3r-s3cret_KEY.0123456789abcdef', 'k~ey+with/odd=chars&more!xyz789'])(
    'key %#: neither it nor any 8-character run of it (raw or URL-encoded) is in the report, its checks or the dialog',
    (key) => {
      const emu = new Emulator();
      emu.store('document').set('INVESTOR_DATA_BASE_URL', echoUrl);
      emu.store(`user:${emu.owner}`).set('INVESTOR_DATA_API_KEY', key);
      const d = diagnose(emu);
      const dialog = emu.run('showDiagnostics', [], { kind: 'menu' }).ledger.dialogs[0].html;
      expect(d.checks.map((c) => c.status)).toContain('FAIL'); // the echo service's refusal is reported
      expect(d.report).toContain(`…${key.slice(-4)}`);
      const everything = [d.report, JSON.stringify(d.checks), dialog, ...emu.history.flatMap((l) => l.logs)].join('\n');
      const leaks: string[] = [];
      for (const form of [key, encodeURIComponent(key)]) {
        for (let i = 0; i + 8 <= form.length; i++)
          if (everything.includes(form.slice(i, i + 8))) leaks.push(form.slice(i, i + 8));
      }
      expect(leaks).toEqual([]);
    },
  );
});
