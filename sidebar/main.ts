/**
 * The sidebar's connection card: the key, the service address it is sent to, the cache lifetime,
 * the connection test and "refresh all formulas"; then the import card (sidebar/imports.ts).
 *
 * The key is bound to a service address only when its owner answers "Send my key to <host>?"
 * for that host: when they save a key that is not yet bound to this spreadsheet's address, or
 * with the standing question shown while the spreadsheet's address is not the one their key is
 * bound to (another editor changed it). Save settings sends only the fields the user changed, so
 * an address another editor put there is never sent back as if the owner had chosen it. The card
 * also shows the day's URL fetches beside the daily limit, re-read after a connection test and
 * whenever the imports list is refreshed (a run spends fetches). Interaction rules: sidebar/ui.ts.
 */
import { refresh as refreshImports, setAlertsOff, startImports } from './imports';
import { type Answer, call, type SettingsChange, type SidebarOpened, type SidebarState as State } from './rpc';
import {
  $,
  ask,
  busy,
  clearFieldErrors,
  fieldError,
  focusFirstError,
  grouped,
  type Question,
  say,
  showFailure,
} from './ui';

/** A service address as the consent question names it: host, port and path, so a changed path is a changed question. */
const shownAddress = (address: string): string => address.replace(/^https?:\/\//, '').replace(/\/+$/, '');

/** The longest cache lifetime (the server says the same: src/api/memo.ts). */
const MAX_TTL = 21600;

let current: State | undefined;
/** The settings fields as last loaded: what differs from them is what the user changed. */
const loaded = { baseUrl: '', ttl: '' };

/** "Fetches today: N of 20,000", with where the quota guard stops and when the count resets. */
function showFetches(f: State['fetches']): void {
  const reset =
    f.resetsAt === undefined
      ? ''
      : `; the count resets ${new Date(f.resetsAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  $('fetch-count').textContent =
    `Fetches today: ${grouped(f.used)} of ${grouped(f.dailyLimit)} (the add-in stops at ${grouped(f.allowed)}${reset}).`;
  $('fetch-count').className = f.used >= f.allowed ? 'hint warning' : 'hint';
}

async function refreshFetches(): Promise<void> {
  const state = await call('getSidebarState');
  if (state.ok) {
    showFetches(state.fetches);
    showOpened(state);
  }
}

const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** What the sidebar knows only when it opens: the user's hourly trigger, and whether alerts are off for them and why. */
function showOpened(s: SidebarOpened): void {
  const t = s.timer;
  $('timer-status').textContent = !t.work
    ? 'No hourly run of yours in this spreadsheet: nothing of yours is scheduled or unfinished.'
    : t.rearmed
      ? `Your hourly run had stopped${t.ranAt ? ` (last ran ${utc(t.ranAt)})` : ''}: it is set up again, for ${t.work}.`
      : `Your hourly run looks after ${t.work}${t.ranAt ? `; it last ran ${utc(t.ranAt)}` : ''}.`;
  $('timer-status').className = t.rearmed ? 'hint warning' : 'hint';
  $('alerts-off').hidden = !s.alertsOff;
  $('alerts-off-text').textContent = s.alertsOff;
  setAlertsOff(s.alertsOff);
}

/** Where the saved key goes, in words. */
function keyText(s: State): string {
  if (!s.hasKey) return 'No API key saved yet.';
  const saved = `A key ending ${s.keyHint} is saved`;
  if (s.addressConfirmed) return `${saved} and sent to ${shownAddress(s.keyAddress)}.`;
  if (!s.baseUrl) return `${saved}. This spreadsheet has no service address yet: enter it below.`;
  // An address the server refuses is never named as if it were a host: only the server's reason, unusual characters made visible.
  if (s.addressProblem) return `${saved}. It is not sent to this spreadsheet's service address: ${s.addressProblem}`;
  if (s.keyAddress)
    return `${saved} for ${shownAddress(s.keyAddress)}. This spreadsheet's service address is now ${shownAddress(s.baseUrl)}: your key is not sent there.`;
  return `${saved}. It is sent nowhere until you confirm this spreadsheet's service address for it.`;
}

/** Puts a loaded value in a field unless the user has changed the field since it was last loaded. */
function sync(input: string, before: string, now: string): void {
  const field = $<HTMLInputElement>(input);
  if (field.value === before) field.value = now;
}

function show(s: State): void {
  current = s;
  showFetches(s.fetches);
  $('key-status').textContent = keyText(s);
  $('key-status').className = s.hasKey && !s.addressConfirmed ? 'hint warning' : 'hint';
  const asking = s.hasKey && !s.addressConfirmed && !!s.baseUrl && !s.addressProblem;
  $('consent').hidden = !asking;
  const host = asking ? shownAddress(s.baseUrl) : '';
  $('consent-question').textContent = `Send my key to ${host}?`;
  $('consent-yes').textContent = `Send my key to ${host}`;
  sync('base-url', loaded.baseUrl, s.baseUrl);
  sync('cache-ttl', loaded.ttl, String(s.ttlSeconds));
  loaded.baseUrl = s.baseUrl;
  loaded.ttl = String(s.ttlSeconds);
  for (const id of ['remove-key', 'test-connection']) {
    const b = $<HTMLButtonElement>(id);
    const focused = document.activeElement === b;
    b.disabled = !s.hasKey;
    // A button that just went away gives focus to the key field, where the next step is.
    if (focused && b.disabled) $('api-key').focus();
  }
}

const consentQuestion = (host: string, no: string, after: HTMLElement): Question => ({
  after,
  text: `Send my key to ${host}?`,
  yes: `Send my key to ${host}`,
  no,
  // The same warning as the standing question's.
  detail: $('consent-detail').textContent ?? '',
});

/** A key answer refused: shown at its field; when the address changed meanwhile, the card shows the new one. */
async function failed(r: Extract<Answer, { ok: false }>): Promise<void> {
  showFailure(r, 'key-message');
  if (r.field !== 'baseUrl') return;
  const now = await call('getSidebarState');
  if (now.ok) {
    show(now);
    showOpened(now);
  }
}

async function saveKey(): Promise<void> {
  clearFieldErrors('api-key');
  const key = $<HTMLInputElement>('api-key').value.trim();
  if (!key) {
    fieldError('api-key', 'Paste your API key first.');
    $('api-key').focus();
    return;
  }
  const s = current;
  let sendTo: string | null = null;
  // A key not yet bound to this spreadsheet's address is sent there only if its owner says so now.
  if (s?.baseUrl && !s.addressProblem && s.keyAddress !== s.baseUrl) {
    $('consent').hidden = true;
    const yes = await ask(consentQuestion(shownAddress(s.baseUrl), 'Save it without sending', $('key-actions')));
    $('consent').hidden = !(s.hasKey && !s.addressConfirmed);
    $('save-key').focus();
    if (yes) sendTo = s.baseUrl;
  }
  say('key-message', 'Saving your key…');
  const r = await call('saveApiKey', key, sendTo);
  if (!r.ok) return failed(r);
  $<HTMLInputElement>('api-key').value = '';
  show(r);
  say('key-message', r.note, r.check === 'accepted' ? 'ok' : 'warning');
  if (r.addressConfirmed) await recover();
  await refreshImports();
}

async function confirmAddress(): Promise<void> {
  const address = current?.baseUrl ?? '';
  const r = await call('sendKeyTo', address);
  if (!r.ok) return failed(r);
  show(r);
  say('key-message', `Your key is now sent to ${shownAddress(address)}.`, 'ok');
  // The question is gone with the button that had focus: the next step is to test the connection.
  $('test-connection').focus();
  await recover();
  await refreshImports();
}

async function removeKey(): Promise<void> {
  const yes = await ask({
    after: $('key-actions'),
    text: 'Remove your saved API key?',
    yes: 'Remove my key',
    no: 'Keep it',
    detail: 'Formulas and scheduled imports that use it stop until a key is saved again.',
  });
  $('remove-key').focus();
  if (!yes) return;
  const r = await call('removeApiKey');
  if (!r.ok) return showFailure(r, 'key-message');
  show(r);
  say('key-message', 'Key removed.', 'ok');
  // A schedule of yours names the key it runs with: its item says so at once.
  void refreshImports();
}

async function testConnection(): Promise<void> {
  clearFieldErrors('api-key');
  say('key-message', 'Testing the connection…');
  const r = await call('testConnection');
  if (!r.ok) return showFailure(r, 'key-message');
  say('key-message', r.message, 'ok');
  void refreshFetches();
}

/** Only what the user changed, checked here first: every field at fault is marked, focus goes to the first. */
function settingsChange(): SettingsChange | undefined {
  clearFieldErrors('base-url', 'cache-ttl');
  const change: SettingsChange = {};
  const address = $<HTMLInputElement>('base-url').value.trim();
  if (address !== loaded.baseUrl) {
    if (address) change.baseUrl = address;
    else fieldError('base-url', 'Enter the service address, e.g. https://data.example.com.');
  }
  const ttl = $<HTMLInputElement>('cache-ttl').value.trim();
  if (ttl !== loaded.ttl) {
    if (/^\d{1,5}$/.test(ttl) && Number(ttl) <= MAX_TTL) change.ttlSeconds = Number(ttl);
    else fieldError('cache-ttl', `Cache lifetime must be a whole number of seconds from 0 to ${MAX_TTL}.`);
  }
  return focusFirstError('base-url', 'cache-ttl') ? undefined : change;
}

async function saveSettings(): Promise<void> {
  const change = settingsChange();
  if (!change) return say('message', 'Nothing was saved: correct the fields marked above.', 'error');
  if (Object.keys(change).length === 0) return say('message', 'Nothing to save: no setting was changed.');
  const r = await call('saveSettings', change);
  if (!r.ok) return showFailure(r, 'message');
  $<HTMLInputElement>('base-url').value = r.baseUrl;
  $<HTMLInputElement>('cache-ttl').value = String(r.ttlSeconds);
  show(r);
  const unsent =
    r.hasKey && !r.addressConfirmed && r.baseUrl && !r.addressProblem
      ? ` Your key is not sent to ${shownAddress(r.baseUrl)} until you confirm it above.`
      : '';
  say('message', `Settings saved.${unsent}`, unsent ? 'warning' : 'ok');
}

/**
 * The key is usable again (saved, or sent to the spreadsheet's address): formulas that failed
 * without it ("No API key…") are recalculated at once, and the line beside Refresh all formulas
 * says so. Sheets keeps a custom function's answer until its formula is written again.
 */
async function recover(): Promise<void> {
  const r = await call('refreshFormulas');
  if (!r.ok) return showFailure(r, 'message');
  if (r.found === 0) return;
  say(
    'message',
    r.count === r.found
      ? `Refreshed ${grouped(r.count)} formula${r.count === 1 ? '' : 's'} with your key.`
      : `Refreshed ${grouped(r.count)} of ${grouped(r.found)} formulas with your key before the time limit: press Refresh all formulas for the rest.`,
    r.count === r.found ? 'ok' : 'warning',
  );
}

async function refreshAll(): Promise<void> {
  say('message', 'Refreshing formulas…');
  const r = await call('refreshFormulas');
  if (!r.ok) return showFailure(r, 'message');
  const all = r.count === r.found;
  say(
    'message',
    all
      ? `Refreshed ${r.count} formulas.`
      : `Refreshed ${r.count} of ${r.found} formulas before the time limit: press Refresh all formulas again for the rest.`,
    all ? 'ok' : 'warning',
  );
}

function wire(): void {
  const on = (id: string, work: () => Promise<void>) => $(id).addEventListener('click', () => void busy($(id), work));
  on('save-key', saveKey);
  on('consent-yes', confirmAddress);
  on('remove-key', removeKey);
  on('test-connection', testConnection);
  on('save-settings', saveSettings);
  on('refresh-all', refreshAll);
  $('api-key').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    // Consumed here: the same key press must not also answer the question Save key may ask.
    e.preventDefault();
    $('save-key').click();
  });
  document.addEventListener('investor-data:fetched', () => void refreshFetches());
  $('allow-alerts').addEventListener('click', () => void allowAlerts());
}

async function allowAlerts(): Promise<void> {
  await busy($('allow-alerts'), async () => {
    const r = await call('allowAlerts');
    if (r.ok) showOpened(r);
    else say('alerts-message', r.message, 'error');
  });
}

async function start(): Promise<void> {
  wire();
  const state = await call('getSidebarState');
  if (state.ok) {
    show(state);
    showOpened(state);
  } else say('key-message', state.message, 'error');
  // The sidebar takes focus where the first step is: the key field without a key, the address question when the key is not sent.
  if (state.ok && !state.hasKey) $('api-key').focus();
  else if (state.ok && !$('consent').hidden) $('consent-yes').focus();
  else $('app-title').focus();
  await startImports();
}

void start();
