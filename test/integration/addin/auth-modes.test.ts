/**
 * Authorization modes: the emulator refuses, with Google's wording, what AuthMode.NONE, LIMITED
 * and FULL (with the manifest's scopes) may not call, and the add-in's onOpen/onInstall build
 * the same add-on menu in every mode while touching nothing but the Ui.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Emulator } from '../../../dev/emulator/runtime';
import { ownCalls } from '../../helpers/addin';

const DIST = join(__dirname, '../../../dist');

/** A script that tries one service call per entry and reports, per call, 'ok' or the error's message. */
const PROBE = `
function attempt(fn) { try { fn(); return 'ok'; } catch (e) { return String(e && e.message || e); } }
function probe(e) {
  return {
    isNone: e.authMode === ScriptApp.AuthMode.NONE,
    mode: String(e.authMode),
    menu: attempt(function () { SpreadsheetApp.getUi().createAddonMenu().addItem('Go', 'probe').addToUi(); }),
    properties: attempt(function () { PropertiesService.getDocumentProperties().getProperty('x'); }),
    cache: attempt(function () { CacheService.getScriptCache().get('x'); }),
    document: attempt(function () { SpreadsheetApp.getActiveSpreadsheet().getSheets(); }),
    fetch: attempt(function () { UrlFetchApp.fetch('http://127.0.0.1:9/'); }),
    trigger: attempt(function () { ScriptApp.getProjectTriggers(); }),
    sidebar: attempt(function () { SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutput('<p>x</p>')); }),
    dialog: attempt(function () { SpreadsheetApp.getUi().showModalDialog(HtmlService.createHtmlOutput('<p>x</p>'), 'T'); }),
    utilities: attempt(function () { Utilities.getUuid(); }),
  };
}`;

const refused = (member: string, scope?: string) =>
  scope
    ? `Exception: You do not have permission to call ${member}. Required permissions: ${scope}`
    : `Exception: You do not have permission to call ${member}`;
const DOC_SCOPES =
  '(https://www.googleapis.com/auth/spreadsheets.currentonly || https://www.googleapis.com/auth/spreadsheets)';
const FETCH_SCOPE = 'https://www.googleapis.com/auth/script.external_request';
const UI_SCOPE = 'https://www.googleapis.com/auth/script.container.ui';

function probeIn(mode: string, options: ConstructorParameters<typeof Emulator>[0] = {}) {
  const emu = new Emulator({ code: PROBE, ...options });
  return emu.run<Record<string, unknown>>('probe', [{ authMode: mode }], {
    kind: mode === 'FULL' ? 'menu' : 'simple-trigger',
  }).value as Record<string, unknown>;
}

describe('the emulator models authorization modes', () => {
  test('AuthMode.NONE: menus and utilities only; properties, caches, the document, fetches, triggers and sidebars are refused', () => {
    const r = probeIn('NONE');
    expect(r).toEqual({
      isNone: true,
      mode: 'NONE',
      menu: 'ok',
      utilities: 'ok',
      properties: refused('PropertiesService.getDocumentProperties'),
      cache: refused('CacheService.getScriptCache'),
      document: refused('SpreadsheetApp.getActiveSpreadsheet', DOC_SCOPES),
      fetch: refused('UrlFetchApp.fetch', FETCH_SCOPE),
      trigger: refused('ScriptApp.getProjectTriggers', 'https://www.googleapis.com/auth/script.scriptapp'),
      sidebar: refused('Ui.showSidebar', UI_SCOPE),
      dialog: refused('Ui.showModalDialog', UI_SCOPE),
    });
  });

  test('AuthMode.LIMITED: the document, properties and caches; nothing that needs another scope', () => {
    const r = probeIn('LIMITED');
    expect(r).toMatchObject({
      isNone: false,
      mode: 'LIMITED',
      menu: 'ok',
      properties: 'ok',
      cache: 'ok',
      document: 'ok',
      utilities: 'ok',
    });
    expect(r.fetch).toBe(refused('UrlFetchApp.fetch', FETCH_SCOPE));
    expect(r.trigger).toBe(refused('ScriptApp.getProjectTriggers', 'https://www.googleapis.com/auth/script.scriptapp'));
    expect(r.sidebar).toBe(refused('Ui.showSidebar', UI_SCOPE));
  });

  test('AuthMode.FULL: everything, within the scopes the manifest grants', () => {
    const all = probeIn('FULL');
    expect(all).toMatchObject({
      mode: 'FULL',
      properties: 'ok',
      cache: 'ok',
      document: 'ok',
      trigger: 'ok',
      sidebar: 'ok',
      dialog: 'ok',
    });
    expect(all.fetch).toBe('Exception: Address unavailable: http://127.0.0.1:9/'); // allowed: it went out, and nothing listens on port 9
    const narrow = probeIn('FULL', { oauthScopes: ['https://www.googleapis.com/auth/spreadsheets.currentonly'] });
    expect(narrow).toMatchObject({
      document: 'ok',
      properties: 'ok',
      fetch: refused('UrlFetchApp.fetch', FETCH_SCOPE),
      sidebar: refused('Ui.showSidebar', UI_SCOPE),
    });
  });

  test('a simple trigger without an event runs in LIMITED; a menu or sidebar execution in FULL', () => {
    const emu = new Emulator({
      code: `${PROBE}\nfunction mode() { return PropertiesService.getScriptProperties() && attempt(function () { UrlFetchApp.fetch('http://127.0.0.1:9/'); }); }`,
    });
    expect(emu.run('mode', [], { kind: 'simple-trigger' }).value).toBe(refused('UrlFetchApp.fetch', FETCH_SCOPE));
    expect(emu.run('mode', [], { kind: 'simple-trigger' }).ledger.authMode).toBe('LIMITED');
    expect(emu.run('mode', [], { kind: 'sidebar' }).ledger.authMode).toBe('FULL');
  });
});

describe("the add-in's onOpen and onInstall in each mode", () => {
  const code = readFileSync(join(DIST, 'Code.js'), 'utf8');

  test.each(['NONE', 'LIMITED', 'FULL'])('onOpen in AuthMode.%s builds the add-on menu from the Ui alone', (mode) => {
    const emu = new Emulator();
    const run = emu.run('onOpen', [{ authMode: mode }], { kind: 'simple-trigger' });
    expect(run.error).toBeUndefined();
    expect(run.ledger.authMode).toBe(mode);
    expect(Object.keys(ownCalls(run.ledger)).sort()).toEqual(['SpreadsheetApp.getUi', 'Ui.createAddonMenu']);
    const items = emu.workbook.menus.get('Investor Data') ?? [];
    expect(items.map((i) => i.caption)).toEqual([
      'Open sidebar',
      'Settings',
      '—',
      'Refresh all formulas',
      'Diagnostics',
    ]);
    for (const item of items)
      if (item.functionName) expect(code).toMatch(new RegExp(`^function ${item.functionName}\\(`, 'm'));
  });

  test('onInstall (AuthMode.FULL) adds the same menu', () => {
    const emu = new Emulator();
    expect(emu.run('onInstall', [{ authMode: 'FULL' }], { kind: 'simple-trigger' }).error).toBeUndefined();
    expect(emu.workbook.menus.get('Investor Data')?.map((i) => i.functionName)).toEqual([
      'showSidebar',
      'showSidebar',
      undefined,
      'refreshAllFormulas',
      'showDiagnostics',
    ]);
  });

  test('the deployed manifest grants every scope the add-in uses: the sidebar opens in FULL, and is refused in LIMITED', () => {
    const emu = new Emulator();
    expect(emu.run('showSidebar', [], { kind: 'menu' }).error).toBeUndefined();
    expect(emu.workbook.sidebar?.title).toBe('Investor Data');
    expect(emu.run('showSidebar', [], { kind: 'simple-trigger' }).error).toBe(refused('Ui.showSidebar', UI_SCOPE));
  });
});
