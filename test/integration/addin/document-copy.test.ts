/**
 * The document cache's copy of the document's settings (src/gas/settings.ts): a warm formula
 * learns the service address and "refreshed at" from the cache read that finds its answer, so it
 * makes one properties call instead of two. The copy must never change what a formula shows or
 * where a key goes: an editor's new address still makes the owner's formulas refuse at once,
 * "Refresh all formulas" still makes them ask again, and properties changed behind the add-in's
 * back still send the key only to the address its holder confirmed.
 */
import { addin } from '../../helpers/addin';
import { call } from '../../helpers/imports';
import { type RunningService, servicesForThisFile } from '../../helpers/service';

const EDITOR = 'editor@example.com';
const services = servicesForThisFile(2, ['--partners', '300']);
/** The owner's service, and the one an editor points the spreadsheet at. */
const svc = (): RunningService => services[0];
const other = (): RunningService => services[1];

const documentReads = (calls: Record<string, number>) => calls['DocumentProperties.getProperties'] ?? 0;

test('once the sidebar has opened, a warm formula reads no document properties; without the copy it reads them; both show the same', () => {
  const plain = addin(svc().url);
  plain.cell('LP_GET', 'lp_0000a', 'firm');
  const without = plain.cell('LP_GET', 'lp_0000a', 'firm');
  expect(without.run.ledger.fetches).toBe(0);
  expect(documentReads(without.run.ledger.calls)).toBe(1);

  const a = addin(svc().url);
  expect(call(a.emu, 'getSidebarState', [])).toMatchObject({ ok: true, baseUrl: svc().url });
  a.cell('LP_GET', 'lp_0000a', 'firm');
  const warm = a.cell('LP_GET', 'lp_0000a', 'firm');
  expect(warm.run.ledger.fetches).toBe(0);
  expect(documentReads(warm.run.ledger.calls)).toBe(0);
  expect(warm.run.ledger.calls['DocumentCache.getAll']).toBe(1);
  expect(warm.value).toEqual(without.value);
});

test("an editor's new address, saved in the sidebar, makes the owner's warm formula refuse at once, with no request", async () => {
  const a = addin(svc().url);
  call(a.emu, 'getSidebarState', []);
  expect(a.cell('LP_GET', 'lp_0000a', 'id').value).toBe('lp_0000a');
  await other().resetStats();
  expect(a.emu.run('saveSettings', [{ baseUrl: other().url }], { kind: 'sidebar', user: EDITOR }).value).toMatchObject({
    ok: true,
    baseUrl: other().url,
  });
  const warm = a.cell('LP_GET', 'lp_0000a', 'id');
  expect(warm.error).toMatch(
    /^The service address of this spreadsheet is 127\.0\.0\.1:\d+, but the API key was saved for 127\.0\.0\.1:\d+; the key is not sent\./,
  );
  expect(warm.run.ledger.fetches).toBe(0);
  expect(documentReads(warm.run.ledger.calls)).toBe(0);
  expect((await other().stats()).requests).toBe(0);
});

test('"Refresh all formulas" moves the copy\'s "refreshed at": the warm formula asks the service again', () => {
  const a = addin(svc().url);
  call(a.emu, 'getSidebarState', []);
  a.cell('LP_GET', 'lp_0000a', 'firm');
  expect(a.cell('LP_GET', 'lp_0000a', 'firm').run.ledger.fetches).toBe(0);
  a.emu.advance(1000);
  expect(a.emu.run('refreshAllFormulas', [], { kind: 'menu' }).error).toBeUndefined();
  const after = a.cell('LP_GET', 'lp_0000a', 'firm');
  expect(after.run.ledger.fetches).toBe(1);
  expect(documentReads(after.run.ledger.calls)).toBe(0);
});

test("document properties changed behind the add-in's back: the key still goes only to the confirmed address, and once the copy is gone the formula refuses", async () => {
  const a = addin(svc().url);
  call(a.emu, 'getSidebarState', []);
  await Promise.all([svc().resetStats(), other().resetStats()]);
  a.emu.store('document').set('INVESTOR_DATA_BASE_URL', other().url);
  const cold = a.cell('LP_GET', 'lp_0000c', 'id');
  expect(cold.value).toBe('lp_0000c');
  expect((await svc().stats()).requests).toBe(1);
  expect((await other().stats()).requests).toBe(0);
  // The copy lives 6 hours at most; then the properties are read and the formula refuses.
  a.emu.advance(6 * 3_600_000 + 1000);
  const later = a.cell('LP_GET', 'lp_0000d', 'id');
  expect(later.error).toMatch(
    /^The service address of this spreadsheet is 127\.0\.0\.1:\d+, but the API key was saved for/,
  );
  expect(later.run.ledger.fetches).toBe(0);
  expect((await other().stats()).requests).toBe(0);
});

test("the sidebar opening puts the copy right: after a change behind the add-in's back, the next formula refuses", async () => {
  const a = addin(svc().url);
  call(a.emu, 'getSidebarState', []);
  a.emu.store('document').set('INVESTOR_DATA_BASE_URL', other().url);
  expect(a.emu.run('getSidebarState', [], { kind: 'sidebar', user: EDITOR }).value).toMatchObject({
    ok: true,
    baseUrl: other().url,
  });
  await other().resetStats();
  const next = a.cell('LP_GET', 'lp_0000a', 'id');
  expect(next.error).toMatch(
    /^The service address of this spreadsheet is 127\.0\.0\.1:\d+, but the API key was saved for/,
  );
  expect(next.run.ledger.fetches).toBe(0);
  expect((await other().stats()).requests).toBe(0);
});
