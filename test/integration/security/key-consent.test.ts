/**
 * A key goes only to the address its owner confirmed by name. On a shared spreadsheet an editor
 * points the document at their own server on 127.0.0.1; then the owner does what owners do:
 * Save key (to rotate it), Save settings (to change the cache lifetime), formulas, an import,
 * Test connection, Diagnostics. The editor's server must receive nothing, until the owner answers
 * "Send my key to <host>?" for that host, in the same action. A key saved before the document had
 * any address is bound to none. Also here: a key is checked with one request when it is saved,
 * and settings are saved all or nothing, never coerced.
 */
import type { Emulator } from '../../../dev/emulator/runtime';
import type { Answer, KeySaved, SidebarState } from '../../../src/contract';
import { addin } from '../../helpers/addin';
import { call, saveImport } from '../../helpers/imports';
import { DEMO_KEY, type RunningService, servicesForThisFile, startService } from '../../helpers/service';

const EDITOR = 'editor@example.com';
const ROTATED = 'demo-key-rotated-4321';
const services = servicesForThisFile(2, ['--partners', '60']);
let svc: RunningService;
let editors: RunningService;
beforeAll(async () => {
  [svc, editors] = services;
});
beforeEach(async () => {
  await editors.resetStats();
});

const user = (emu: Emulator) => emu.store(`user:${emu.owner}`);
/** What an editor does: saves their own server as the document's address in their sidebar. */
function editorPointsAt(emu: Emulator, url: string): void {
  const r = emu.run<Answer<SidebarState>>('saveSettings', [{ baseUrl: url }], { kind: 'sidebar', user: EDITOR });
  expect(r.value).toMatchObject({ ok: true, baseUrl: url });
}

/** Everything the owner can make the add-in send: a formula, an import, Test connection, Diagnostics. */
function ownerUsesTheAddin(a: ReturnType<typeof addin>): void {
  a.cell('LP_GET', 'lp_0000a', 'id');
  const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id'] });
  for (let step = call(a.emu, 'startImport', [id]), n = 0; step.ok && step.status === 'running' && n < 50; n++)
    step = call(a.emu, 'continueImport', [id]);
  call(a.emu, 'testConnection', []);
  call(a.emu, 'getDiagnostics', []);
}

describe("an editor's address gets no key from the owner's buttons", () => {
  test("Save key keeps the address the owner confirmed before: the editor's server receives nothing", async () => {
    const a = addin(svc.url);
    editorPointsAt(a.emu, editors.url);
    const saved = call(a.emu, 'saveApiKey', [ROTATED]);
    expect(saved).toMatchObject({ ok: true, keyAddress: svc.url, addressConfirmed: false, check: 'unchecked' });
    expect(saved.ok && saved.note).toMatch(
      /^Key saved, not checked: it is sent nowhere until you confirm this spreadsheet's service address for it \(it is bound to 127\.0\.0\.1:\d+, not to this spreadsheet's 127\.0\.0\.1:\d+\)\.$/,
    );
    ownerUsesTheAddin(a);
    expect((await editors.stats()).requests).toBe(0);
    expect(user(a.emu).get('INVESTOR_DATA_KEY_ADDRESS')).toBe(svc.url);
  });

  test('Save settings with only the cache lifetime changed binds nothing; nor does sending the address as it is', async () => {
    const a = addin(svc.url);
    editorPointsAt(a.emu, editors.url);
    expect(call(a.emu, 'saveSettings', [{ ttlSeconds: 600 }])).toMatchObject({
      ok: true,
      ttlSeconds: 600,
      addressConfirmed: false,
    });
    expect(call(a.emu, 'saveSettings', [{ baseUrl: editors.url, ttlSeconds: 900 }])).toMatchObject({
      ok: true,
      ttlSeconds: 900,
      addressConfirmed: false,
      keyAddress: svc.url,
    });
    ownerUsesTheAddin(a);
    expect((await editors.stats()).requests).toBe(0);
  });

  test('a key saved before any service address is bound to none: it never goes to the address the document gets later', async () => {
    const a = addin('', null);
    a.emu.store('document').delete('INVESTOR_DATA_BASE_URL');
    const first = call(a.emu, 'saveApiKey', [DEMO_KEY]);
    expect(first).toMatchObject({ ok: true, hasKey: true, keyAddress: '', check: 'unchecked' });
    expect(first.ok && first.note).toContain('this spreadsheet has no service address yet');
    expect(user(a.emu).get('INVESTOR_DATA_KEY_ADDRESS')).toBeUndefined();
    editorPointsAt(a.emu, editors.url);
    expect(call(a.emu, 'saveApiKey', [DEMO_KEY])).toMatchObject({
      ok: true,
      keyAddress: '',
      addressConfirmed: false,
      check: 'unchecked',
    });
    call(a.emu, 'saveSettings', [{ ttlSeconds: 60 }]);
    ownerUsesTheAddin(a);
    expect(a.cell('LP_GET', 'lp_0000b', 'id').error).toMatch(
      /but the API key was saved before any service address; the key is not sent\./,
    );
    expect((await editors.stats()).requests).toBe(0);
  });

  test('a key stored with no address at all (as an older version kept it) is sent nowhere', async () => {
    const a = addin(editors.url, null);
    user(a.emu).set('INVESTOR_DATA_API_KEY', DEMO_KEY);
    call(a.emu, 'saveSettings', [{ ttlSeconds: 60 }]);
    ownerUsesTheAddin(a);
    expect(call(a.emu, 'getSidebarState', [])).toMatchObject({
      ok: true,
      hasKey: true,
      addressConfirmed: false,
      keyAddress: '',
    });
    expect((await editors.stats()).requests).toBe(0);
  });
});

describe('consent names the host, in the same action', () => {
  test('"Send my key to <host>?" answered for the document\'s address binds the key there; the next formula is served', async () => {
    const a = addin(svc.url);
    editorPointsAt(a.emu, editors.url);
    expect(call(a.emu, 'sendKeyTo', [editors.url])).toMatchObject({
      ok: true,
      keyAddress: editors.url,
      addressConfirmed: true,
    });
    expect(a.cell('LP_GET', 'lp_0000b', 'id').value).toBe('lp_0000b');
    expect((await editors.stats()).requests).toBe(1);
  });

  test("a consent naming another address than the document's (it changed meanwhile) is refused: nothing saved, nothing sent", async () => {
    const a = addin(svc.url);
    editorPointsAt(a.emu, editors.url);
    const r = call(a.emu, 'saveApiKey', [ROTATED, svc.url]);
    expect(r).toMatchObject({ ok: false, code: 'BAD_INPUT', field: 'baseUrl' });
    expect(!r.ok && r.message).toMatch(
      /^This spreadsheet is now 127\.0\.0\.1:\d+, not 127\.0\.0\.1:\d+: nothing was sent, saved or changed\./,
    );
    expect(user(a.emu).get('INVESTOR_DATA_API_KEY')).toBe(DEMO_KEY);
    expect(call(a.emu, 'sendKeyTo', [svc.url])).toMatchObject({ ok: false, field: 'baseUrl' });
    expect((await editors.stats()).requests).toBe(0);
  });

  test('saving a key with consent sends it there once, to check it, counted by the quota guard', async () => {
    const a = addin(editors.url, null);
    const before = call(a.emu, 'getSidebarState', []);
    const r = a.emu.run<Answer<KeySaved>>('saveApiKey', [DEMO_KEY, editors.url], { kind: 'sidebar' });
    expect(r.value).toMatchObject({ ok: true, keyAddress: editors.url, addressConfirmed: true, check: 'accepted' });
    expect(r.value?.ok && r.value.note).toMatch(/^Key saved and accepted by 127\.0\.0\.1:\d+\.$/);
    expect(r.ledger.fetches).toBe(1);
    expect((await editors.stats()).requests).toBe(1);
    const after = call(a.emu, 'getSidebarState', []);
    expect(before.ok && after.ok && after.fetches.used - before.fetches.used).toBe(1);
  });
});

describe('a key is checked when it is saved', () => {
  test('a key the service refuses is not saved: the key saved before stays, and the answer is about the key field', async () => {
    const a = addin(editors.url);
    const r = a.emu.run<Answer<KeySaved>>('saveApiKey', ['not-the-right-key'], { kind: 'sidebar' });
    expect(r.value).toMatchObject({ ok: false, code: 'AUTH', field: 'apiKey' });
    expect(r.value && !r.value.ok && r.value.message).toMatch(
      /^The service at 127\.0\.0\.1:\d+ refused this key \(HTTP 403\), so it was not saved\. Check the key and paste it again\.$/,
    );
    expect(r.ledger.fetches).toBe(1);
    expect(user(a.emu).get('INVESTOR_DATA_API_KEY')).toBe(DEMO_KEY);
    expect(JSON.stringify(r.value)).not.toContain('not-the-right-key');
  });

  test('an unreachable service: the key is saved, with a warning that says it could not be checked; one attempt, no key in the text', async () => {
    const gone = await startService(['--partners', '5']);
    await gone.stop();
    const a = addin(gone.url, null);
    const r = a.emu.run<Answer<KeySaved>>('saveApiKey', [DEMO_KEY, gone.url], { kind: 'sidebar' });
    expect(r.value).toMatchObject({ ok: true, hasKey: true, check: 'unchecked', keyAddress: gone.url });
    expect(r.value?.ok && r.value.note).toMatch(
      /^Key saved, but it could not be checked: Could not reach the data service/,
    );
    expect(r.ledger.fetches).toBe(1);
    expect(JSON.stringify(r.value)).not.toContain(DEMO_KEY);
  });
});

describe('settings are saved all or nothing, never coerced', () => {
  test.each([
    [{ ttlSeconds: '' }],
    [{ ttlSeconds: '600' }],
    [{ ttlSeconds: -1 }],
    [{ ttlSeconds: 1.5 }],
    [{ ttlSeconds: null }],
  ])('%j is refused, about the cache lifetime field', (change) => {
    const a = addin(svc.url);
    const r = a.emu.run<Answer>('saveSettings', [{ baseUrl: 'https://data.example.com', ...change }], {
      kind: 'sidebar',
    }).value;
    expect(r).toMatchObject({
      ok: false,
      code: 'BAD_INPUT',
      field: 'ttlSeconds',
      message: 'Cache lifetime must be a whole number of seconds from 0 to 21600.',
    });
    expect(call(a.emu, 'getSidebarState', [])).toMatchObject({ ok: true, baseUrl: svc.url, ttlSeconds: 3600 });
  });

  test('a bad address is refused, about the address field; nothing else is saved', () => {
    const a = addin(svc.url);
    const r = a.emu.run<Answer>('saveSettings', [{ baseUrl: 'http://data.example.com', ttlSeconds: 60 }], {
      kind: 'sidebar',
    }).value;
    expect(r).toMatchObject({ ok: false, code: 'BAD_INPUT', field: 'baseUrl' });
    expect(call(a.emu, 'getSidebarState', [])).toMatchObject({ ok: true, baseUrl: svc.url, ttlSeconds: 3600 });
  });
});

describe('an address that differs only in its path is named with its path', () => {
  test("the refusal names the editor's path, and the owner's Send my key to that path is a new consent", async () => {
    const a = addin(`${svc.url}/v1`);
    editorPointsAt(a.emu, `${editors.url.replace(/:\d+$/, `:${new URL(svc.url).port}`)}/tenant-of-editor`);
    const r = a.cell('LP_GET', 'lp_0000a', 'id');
    expect(r.error).toContain(
      `is 127.0.0.1:${new URL(svc.url).port}/tenant-of-editor, but the API key was saved for 127.0.0.1:${new URL(svc.url).port}/v1`,
    );
    const state = call(a.emu, 'getSidebarState', []);
    expect(state).toMatchObject({ ok: true, addressConfirmed: false });
  });
});

describe('an address that imitates another host is never named, nor confirmed, as that host', () => {
  const IMITATIONS = [
    ['a Cyrillic а (U+0430)', 'https://\u0430pi.example.com', '<U+0430>pi.example.com'],
    [
      'a zero-width space (U+200B)',
      'https://api.example.com\u200b.evil.example',
      'api.example.com<U+200B>.evil.example',
    ],
    [
      'a right-to-left override (U+202E)',
      'https://evil.example/\u202emoc.elpmaxe.ipa',
      'evil.example/<U+202E>moc.elpmaxe.ipa',
    ],
  ];

  test.each(IMITATIONS)('an editor cannot save an address with %s', (_, address) => {
    const a = addin(svc.url);
    const r = a.emu.run<Answer<SidebarState>>('saveSettings', [{ baseUrl: address }], {
      kind: 'sidebar',
      user: EDITOR,
    });
    expect(r.value).toMatchObject({ ok: false, code: 'BAD_INPUT', field: 'baseUrl' });
    expect(!r.value?.ok && r.value?.message).toMatch(/not plain ASCII|invisible or control character/);
    expect(call(a.emu, 'getSidebarState', [])).toMatchObject({ ok: true, baseUrl: svc.url, addressProblem: '' });
  });

  test.each(IMITATIONS)(
    'written behind the add-in (%s): the sidebar is told why instead of being asked, messages show the code, consent is refused',
    async (_, address, shown) => {
      const a = addin(svc.url);
      a.emu.store('document').set('INVESTOR_DATA_BASE_URL', address);
      const state = call(a.emu, 'getSidebarState', []);
      expect(state).toMatchObject({ ok: true, addressConfirmed: false });
      expect(state.ok && state.addressProblem).toContain(`"https://${shown}"`);
      const cell = a.cell('LP_GET', 'lp_0000a', 'id');
      expect(cell.error).toContain(`The service address of this spreadsheet is ${shown}, but the API key`);
      for (const r of [call(a.emu, 'sendKeyTo', [address]), call(a.emu, 'saveApiKey', [ROTATED, address])]) {
        expect(r).toMatchObject({ ok: false, code: 'BAD_INPUT', field: 'baseUrl' });
        expect(!r.ok && r.message).toContain(shown);
      }
      // The state carries the address itself for the settings field; every text about it shows the codes.
      const texts = JSON.stringify([state.ok && state.addressProblem, cell.error]);
      expect(texts).not.toContain(address.replace('https://', ''));
      expect(user(a.emu).get('INVESTOR_DATA_KEY_ADDRESS')).toBe(svc.url);
      expect(user(a.emu).get('INVESTOR_DATA_API_KEY')).toBe(DEMO_KEY);
    },
  );

  test('an internationalised domain written as punycode is an address like any other, named as written', () => {
    const a = addin(svc.url);
    const puny = 'https://xn--pi-8kc.example.com';
    expect(call(a.emu, 'saveSettings', [{ baseUrl: puny }])).toMatchObject({
      ok: true,
      baseUrl: puny,
      addressProblem: '',
    });
    expect(a.cell('LP_GET', 'lp_0000a', 'id').error).toContain(
      'The service address of this spreadsheet is xn--pi-8kc.example.com,',
    );
  });
});
