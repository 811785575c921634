/**
 * The sidebar's behaviour. Everything that came from the service or the server is put on the
 * page as text (textContent), never as HTML.
 */
import { startImports } from './imports';
import { type Answer, call, type SidebarState as State } from './rpc';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function say(text: string, kind: 'ok' | 'error' | '' = ''): void {
  const el = $('message');
  el.textContent = text;
  el.className = kind;
}

function show(state: State): void {
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
  $('test-connection').addEventListener('click', () => busy('test-connection', () => call('testConnection'), (r) => say(r.message, 'ok')));
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
