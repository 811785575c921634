/**
 * The owner's key on a shared spreadsheet, through the real sidebar: an editor points the
 * document at their own server on 127.0.0.1; the owner then presses Save key, or changes only
 * the cache lifetime and presses Save settings. That server must receive nothing: Save settings
 * sends only what the owner changed, and Save key asks "Send my key to <host>?" naming the
 * editor's host, where "Save it without sending" keeps the key bound where it was.
 */
import type { Browser } from 'playwright-core';
import { addin } from '../helpers/addin';
import { launch } from '../helpers/browser';
import { call } from '../helpers/imports';
import { DEMO_KEY, type RunningService, servicesForThisFile } from '../helpers/service';
import { focused, openSidebar, type SidebarPage } from '../helpers/sidebar-page';

const EDITOR = 'editor@example.com';
const services = servicesForThisFile(2, ['--partners', '40']);
let svc: RunningService;
let editors: RunningService;
let browser: Browser;
let open: SidebarPage | undefined;

beforeAll(async () => {
  [svc, editors] = services;
  browser = await launch();
}, 60_000);
afterEach(async () => {
  await open?.close();
  open = undefined;
});
afterAll(async () => {
  await browser?.close();
});

/** The owner's spreadsheet after an editor saved their own server as its address. */
async function afterEditorsChange() {
  const a = addin(svc.url);
  expect(a.emu.run('saveSettings', [{ baseUrl: editors.url }], { kind: 'sidebar', user: EDITOR }).value).toMatchObject({
    ok: true,
  });
  await editors.resetStats();
  open = await openSidebar(browser, a.emu);
  await open.page.locator('#key-status:has-text("your key is not sent there")').waitFor();
  return { a, s: open };
}

test("Save settings with only the cache lifetime changed sends only that: the editor's server receives no key", async () => {
  const { a, s } = await afterEditorsChange();
  await s.page.locator('#cache-ttl').fill('600');
  await s.page.locator('#save-settings').click();
  await s.page.locator('#message:has-text("Settings saved.")').waitFor();
  expect(s.calls.filter((c) => c.name === 'saveSettings').map((c) => c.args)).toEqual([[{ ttlSeconds: 600 }]]);
  a.cell('LP_GET', 'lp_0000a', 'id');
  call(a.emu, 'testConnection', []);
  expect((await editors.stats()).requests).toBe(0);
  expect(call(a.emu, 'getSidebarState', [])).toMatchObject({ ok: true, keyAddress: svc.url, ttlSeconds: 600 });
});

test('Save key asks "Send my key to <editor\'s host>?"; "Save it without sending" keeps the key home', async () => {
  const { a, s } = await afterEditorsChange();
  const host = editors.url.replace('http://', '');
  await s.page.locator('#api-key').fill(DEMO_KEY);
  await s.page.locator('#api-key').press('Enter');
  await s.page
    .getByRole('group', { name: `Send my key to ${host}?` })
    .getByRole('button', { name: 'Save it without sending' })
    .waitFor();
  // Focus is on the safe answer: the Enter that pressed Save key did not also answer yes.
  expect(await focused(s.page)).toEqual({ role: 'button', name: 'Save it without sending' });
  await s.page.keyboard.press('Enter');
  await s.page.locator('#key-message:has-text("Key saved, not checked")').waitFor();
  expect(await focused(s.page)).toEqual({ role: 'button', name: 'Save key' });
  a.cell('LP_GET', 'lp_0000a', 'id');
  expect((await editors.stats()).requests).toBe(0);
  expect(call(a.emu, 'getSidebarState', [])).toMatchObject({ ok: true, keyAddress: svc.url, addressConfirmed: false });
});

test('answering yes for the host named sends the key there, once, to check it', async () => {
  const { a, s } = await afterEditorsChange();
  const host = editors.url.replace('http://', '');
  await s.page.getByRole('button', { name: `Send my key to ${host}` }).click();
  await s.page.locator('#key-message:has-text("Your key is now sent to")').waitFor();
  expect(await focused(s.page)).toEqual({ role: 'button', name: 'Test connection' });
  expect(call(a.emu, 'getSidebarState', [])).toMatchObject({
    ok: true,
    keyAddress: editors.url,
    addressConfirmed: true,
  });
  expect((await editors.stats()).requests).toBe(0);
});

test('a yes for a host that is no longer the address (changed while the question was open) is refused at the address field; nothing is sent', async () => {
  const { a, s } = await afterEditorsChange();
  const host = editors.url.replace('http://', '');
  await s.page.getByRole('button', { name: `Send my key to ${host}` }).waitFor();
  a.emu.run('saveSettings', [{ baseUrl: 'https://data.example.com' }], { kind: 'sidebar', user: EDITOR });
  await s.page.getByRole('button', { name: `Send my key to ${host}` }).click();
  await s.page.locator('#base-url-error:has-text("nothing was sent")').waitFor();
  expect(await s.page.locator('#base-url-error').textContent()).toBe(
    `This spreadsheet is now data.example.com, not ${host}: nothing was sent, saved or changed. Check the service address and confirm it again.`,
  );
  expect(await focused(s.page)).toEqual({ role: 'textbox', name: 'Service address' });
  await s.page.getByRole('button', { name: 'Send my key to data.example.com' }).waitFor();
  expect(await s.page.locator('#base-url').inputValue()).toBe('https://data.example.com');
  expect(call(a.emu, 'getSidebarState', [])).toMatchObject({ ok: true, keyAddress: svc.url, addressConfirmed: false });
  expect((await editors.stats()).requests).toBe(0);
});

test.each([
  ['a Cyrillic а (U+0430)', 'https://\u0430pi.example.com', '<U+0430>pi.example.com'],
  [
    'a right-to-left override (U+202E)',
    'https://evil.example/\u202emoc.elpmaxe.ipa',
    'evil.example/<U+202E>moc.elpmaxe.ipa',
  ],
])(
  'an address with %s written behind the add-in is not asked about: the sidebar says why, with the code shown, and Save key asks nothing',
  async (_, address, shown) => {
    const a = addin(svc.url);
    a.emu.store('document').set('INVESTOR_DATA_BASE_URL', address);
    open = await openSidebar(browser, a.emu);
    const s = open;
    await s.page.locator(`#key-status:has-text("It is not sent to this spreadsheet's service address")`).waitFor();
    expect(await s.page.locator('#key-status').textContent()).toContain(`"https://${shown}"`);
    expect(await s.page.locator('#consent').isHidden()).toBe(true);
    expect(await s.page.getByRole('button', { name: /^Send my key to/ }).count()).toBe(0);
    // Nowhere on the page is the address named as a host: not in the text, nor in a hidden question.
    expect(await s.page.locator('body').textContent()).not.toContain(address.replace('https://', ''));
    await s.page.locator('#api-key').fill(DEMO_KEY);
    await s.page.locator('#api-key').press('Enter');
    await s.page.locator('#key-message:has-text("Key saved, not checked")').waitFor();
    expect(s.calls.filter((c) => c.name === 'saveApiKey').map((c) => c.args)).toEqual([[DEMO_KEY, null]]);
    expect(call(a.emu, 'getSidebarState', [])).toMatchObject({
      ok: true,
      keyAddress: svc.url,
      addressConfirmed: false,
    });
  },
);
