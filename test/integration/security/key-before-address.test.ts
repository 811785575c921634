/**
 * A key saved before the spreadsheet has any service address is bound to no address: when an
 * editor later points the document at their own server, none of the owner's executions (a
 * formula, the connection test, an import from the sidebar, a scheduled run, Diagnostics) sends
 * the owner's key there. Only once the owner confirms that address themselves does anything go to
 * it, which also shows the server was reachable all along.
 */
import { addin } from '../../helpers/addin';
import { call, callUnchecked, saveImport } from '../../helpers/imports';
import { DEMO_KEY, type RunningService, servicesForThisFile } from '../../helpers/service';

const EDITOR = 'editor@example.com';
const services = servicesForThisFile(1, ['--partners', '30', '--funds', '2']);
let editors: RunningService;
beforeAll(() => {
  [editors] = services;
});

test("a key saved before any service address goes nowhere when an editor sets the address: the editor's server receives nothing", async () => {
  const a = addin(editors.url, null);
  a.emu.store('document').clear();
  const user = a.emu.store(`user:${a.emu.owner}`);
  const saved = callUnchecked(a.emu, 'saveApiKey', [DEMO_KEY]);
  // Saving may be refused until there is an address; either way the key must not travel later.
  if (saved.ok) expect(user.get('INVESTOR_DATA_API_KEY')).toBe(DEMO_KEY);
  else user.set('INVESTOR_DATA_API_KEY', DEMO_KEY);
  expect(user.get('INVESTOR_DATA_KEY_ADDRESS') ?? '').toBe('');

  const edit = a.emu.run('saveServiceUrl', [editors.url], { kind: 'sidebar', user: EDITOR });
  expect(edit.value).toMatchObject({ ok: true, baseUrl: editors.url });
  await editors.resetStats();

  const cell = a.cell('LP_GET', 'lp_0000a', 'id');
  expect(cell.value).toBeUndefined();
  expect(cell.run.ledger.fetches).toBe(0);
  expect(callUnchecked(a.emu, 'testConnection', []).ok).toBe(false);
  const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id'] });
  expect(callUnchecked(a.emu, 'startImport', [id])).not.toMatchObject({ ok: true, status: 'done' });
  call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]);
  a.emu.advance(2 * 3_600_000);
  callUnchecked(a.emu, 'getDiagnostics', []);
  expect(a.emu.history.reduce((n, l) => n + l.fetches, 0)).toBe(0);
  expect((await editors.stats()).requests).toBe(0);

  // The owner confirms the address (and saves the key again where the add-in asks for that): now it is used.
  call(a.emu, 'saveServiceUrl', [editors.url]);
  if (user.get('INVESTOR_DATA_KEY_ADDRESS') !== editors.url) callUnchecked(a.emu, 'saveApiKey', [DEMO_KEY]);
  expect(a.cell('LP_GET', 'lp_0000a', 'id').value).toBe('lp_0000a');
  expect((await editors.stats()).requests).toBeGreaterThan(0);
});
