/**
 * The sidebar's behaviour. Everything that came from the service or the server is put on the
 * page as text (textContent), never as HTML. The connection card also shows the day's URL
 * fetches beside the daily limit, re-read after a connection test and whenever the imports list
 * is refreshed (a run spends fetches).
 */
import { startImports } from './imports';
import { type Answer, call, type SidebarState as State } from './rpc';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function say(text: string, kind: 'ok' | 'error' | '' = ''): void {
  const el = $('message');
  el.textContent = text;
  el.className = kind;
}

const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "Fetches today: N of 20,000", with where the quota guard stops and when the count resets. */
function showFetches(f: State['fetches']): void {
  const reset = f.resetsAt === undefined ? '' : `; the count resets ${new Date(f.resetsAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  $('fetch-count').textContent = `Fetches today: ${grouped(f.used)} of ${grouped(f.dailyLimit)} (the add-in stops at ${grouped(f.allowed)}${reset}).`;
  $('fetch-count').className = f.used >= f.allowed ? 'hint warning' : 'hint';
}

async function refreshFetches(): Promise<void> {
  const state = await call('getSidebarState');
  if (state.ok) showFetches(state.fetches);
}

function show(state: State): void {
  showFetches(state.fetches);
  const moved = state.hasKey && !state.addressConfirmed
    ? ` This spreadsheet's service address is now ${state.baseUrl || '(none)'}, but your key is sent only to ${state.keyAddress || 'the address you confirm'}: if the new address is right, Save settings to confirm it.`
    : '';
  $('key-status').textContent = state.hasKey ? `A key ending ${state.keyHint} is saved.${moved}` : 'No API key saved yet.';
  $('key-status').className = moved ? 'hint warning' : 'hint';
  $<HTMLInputElement>('base-url').value = state.baseUrl;
  $<HTMLInputElement>('cache-ttl').value = String(state.ttlSeconds);
  $<HTMLButtonElement>('remove-key').disabled = !state.hasKey;
  $<HTMLButtonElement>('test-connection').disabled = !state.hasKey;
}

async function busy<T extends object>(button: string, work: () => Promise<Answer<T>>, done: (a: { ok: true } & T) => void): Promise<void> {
  const el = $<HTMLButtonElement>(button);
  el.disabled = true;
  try {
    const result = await work();
    if (result.ok) done(result);
    else say(result.message, 'error');
  } finally {
    el.disabled = false;
  }
}

function wire(): void {
  $('save-key').addEventListener('click', () => busy('save-key', () => call('saveApiKey', $<HTMLInputElement>('api-key').value), (s) => {
    $<HTMLInputElement>('api-key').value = '';
    show(s);
    say('Key saved.', 'ok');
  }));
  $('remove-key').addEventListener('click', () => busy('remove-key', () => call('removeApiKey'), (s) => {
    show(s);
    say('Key removed.', 'ok');
  }));
  $('test-connection').addEventListener('click', () => busy('test-connection', () => call('testConnection'), (r) => {
    say(r.message, 'ok');
    void refreshFetches();
  }));
  document.addEventListener('investor-data:fetched', () => void refreshFetches());
  $('save-settings').addEventListener('click', () => busy('save-settings', async () => {
    const url = await call('saveServiceUrl', $<HTMLInputElement>('base-url').value);
    if (!url.ok) return url;
    return call('saveCacheTtl', Number($<HTMLInputElement>('cache-ttl').value));
  }, (s) => {
    show(s);
    say('Settings saved.', 'ok');
  }));
  $('refresh-all').addEventListener('click', () => busy('refresh-all', () => call('refreshFormulas'), (r) => say(r.count === r.found ? `Refreshed ${r.count} formulas.` : `Refreshed ${r.count} of ${r.found} formulas before the time limit: click Refresh all formulas again for the rest.`, r.count === r.found ? 'ok' : 'error')));
}

async function start(): Promise<void> {
  wire();
  const state = await call('getSidebarState');
  if (state.ok) show(state);
  else say(state.message, 'error');
  await startImports();
}

void start();
