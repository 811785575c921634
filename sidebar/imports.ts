/**
 * The import part of the sidebar: the column chooser, the import form, the progress bar that a
 * run moves ("page k of n · rows r of total", asked for every second while a step runs), Cancel
 * (which reaches a step in flight), and the saved imports, each
 * with Run now, a schedule that is chosen and then saved, and Delete (which asks first), and after
 * a refused replace its explicit choices. A run in progress when the sidebar opens is picked up again.
 *
 * Keyboard and screen reader rules (sidebar/ui.ts has the shared ones): every control names its
 * action and its object ("Move fullName down", "Run now: import into Partners"); a redraw keeps
 * focus on the control acted on (each control carries a `data-focus` key, found again after the
 * redraw), or moves it to the nearest one when that control is gone; the column list is a named
 * list whose changes are announced in one sentence by a status region beside it; progress is a
 * named progress bar with value text and a polite status line.
 */
import { type Answer, call, type ImportInput, type ImportView, type RunSummary as Summary, type Schedule } from './rpc';
import { currentFilters, currentFit, currentSort, showShape, startFilters } from './filters';
import { $, ask, busy, button, clearFieldErrors, el, fieldError, grouped, say as sayIn } from './ui';

const KINDS: Array<[string, string]> = [
  ['none', 'Not scheduled'],
  ['hours', 'Every N hours'],
  ['day', 'Daily'],
  ['week', 'Weekly'],
];
const EVERY_HOURS = [1, 2, 4, 6, 8, 12];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

let allFields: string[] = [];
let defaults: string[] = [];
let chosen: string[] = [];
let cancelled = false;
/** The run this sidebar drives now, by its import and the id this sidebar gave it: Cancel is sent to it at once. */
let driving: { id: string; run: string } | undefined;
/** How often the progress of a step in flight is asked for (importStatus): the bar moves within a step. */
const STATUS_MS = 1000;
/** The saved import the form is editing (its Edit settings pressed), or none: the form makes a new one. */
let editing: ImportView | undefined;
/** The user's address, as the server knows it: an alert of another address is not theirs to change. */
let myAddress = '';
/** Why alerts are off for this user ('' when they are on): src/gas/scopes.ts. */
let alertsOff = '';
/** The last stamp of the saved imports and their runs seen (importsStamp): a new one means something changed. */
let stamp = '';
/** How often an open sidebar looks for what it did not do itself (a scheduled run, another editor's save). */
const POLL_MS = 10_000;

const say = (text: string, tone: Parameters<typeof sayIn>[2] = ''): void => sayIn('import-message', text, tone);
/** Times as the schedules are: UTC. */
const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The control that has focus, by its `data-focus` key ('' when none has one). */
const focusKey = (): string =>
  document.activeElement instanceof HTMLElement ? (document.activeElement.dataset.focus ?? '') : '';

/** Focuses the first enabled control with one of these keys; true when there was one. */
function refocus(...keys: string[]): boolean {
  for (const key of keys) {
    const target = document.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
    if (target && !(target as HTMLButtonElement).disabled && !target.hidden) {
      target.focus();
      return true;
    }
  }
  return false;
}

function keyed<T extends HTMLElement>(node: T, key: string): T {
  node.dataset.focus = key;
  return node;
}

function options(select: HTMLSelectElement, items: Array<[string, string]>, picked: string): void {
  select.replaceChildren(
    ...items.map(([value, label]) => {
      const o = el('option', label);
      o.value = value;
      o.selected = value === picked;
      return o;
    }),
  );
}

function labelled(text: string, control: HTMLSelectElement, id: string): HTMLElement {
  const wrap = el('div');
  wrap.className = 'pick';
  const label = el('label', text);
  control.id = id;
  label.htmlFor = id;
  wrap.append(label, control);
  return wrap;
}

/** Schedule picks not yet saved, by import id: a redraw (the poll's included) shows them again. */
const drafts = new Map<string, { kind: string; n: string; day: string }>();

/** The schedule picked in the controls (not yet saved). */
function picked(kind: string, n: string, day: string): Schedule | null {
  if (kind === 'none') return null;
  if (kind === 'hours') return { every: 'hours', hours: Number(n) };
  if (kind === 'day') return { every: 'day', atHour: Number(n) };
  return { every: 'week', weekday: Number(day), atHour: Number(n) };
}

/** Schedule pickers (kind, then every-N-hours or hour of day, then weekday), saved only by their button. */
function scheduleControls(v: ImportView, index: number): HTMLElement {
  const box = el('fieldset');
  box.className = 'schedule';
  box.append(el('legend', `Schedule for ${v.sheetName}`));
  const kind = keyed(el('select'), `kind:${v.id}`);
  const n = keyed(el('select'), `n:${v.id}`);
  const day = keyed(el('select'), `day:${v.id}`);
  const s = v.schedule;
  options(kind, KINDS, drafts.get(v.id)?.kind ?? s?.every ?? 'none');
  const kindBox = labelled('Repeat', kind, `schedule-kind-${index}`);
  const nBox = labelled('', n, `schedule-n-${index}`);
  const nLabel = nBox.querySelector('label') as HTMLLabelElement;
  const dayBox = labelled('On', day, `schedule-day-${index}`);
  const fill = () => {
    // A draft's hour and day stand while its kind is the one shown.
    const draft = drafts.get(v.id)?.kind === kind.value ? drafts.get(v.id) : undefined;
    if (kind.value === 'hours') {
      nLabel.textContent = 'Every';
      options(
        n,
        EVERY_HOURS.map((h) => [String(h), h === 1 ? '1 hour' : `${h} hours`]),
        draft?.n ?? String(s?.hours ?? 6),
      );
    } else {
      nLabel.textContent = 'At (UTC)';
      options(
        n,
        Array.from({ length: 24 }, (_, h) => [String(h), `${String(h).padStart(2, '0')}:00`]),
        draft?.n ?? String(s?.atHour ?? 6),
      );
    }
    options(
      day,
      DAYS.map((d, i) => [String(i), d]),
      draft?.day ?? String(s?.weekday ?? 1),
    );
    nBox.hidden = kind.value === 'none';
    dayBox.hidden = kind.value !== 'week';
  };
  fill();
  // Choosing only changes what is shown, and is kept as a draft: arrow keys through the options save nothing.
  const remember = () => drafts.set(v.id, { kind: kind.value, n: n.value, day: day.value });
  kind.onchange = () => {
    fill();
    remember();
  };
  n.onchange = remember;
  day.onchange = remember;
  const save = keyed(button('Save schedule'), `save-schedule:${v.id}`);
  save.setAttribute('aria-label', `Save schedule: import into ${v.sheetName}`);
  save.onclick = () =>
    void busy(save, async () => {
      const r = await call('scheduleImport', v.id, picked(kind.value, n.value, day.value));
      if (r.ok) drafts.delete(v.id);
      // Announced once the list is redrawn and focus is back, so the message marks the end of the action.
      await refresh();
      say(
        r.ok ? `Schedule saved for "${v.sheetName}": ${describe(r.import.schedule)}.` : r.message,
        r.ok ? 'ok' : 'error',
      );
    });
  const row = el('div');
  row.className = 'row';
  row.append(save);
  box.append(kindBox, nBox, dayBox, row);
  return box;
}

function describe(s: Schedule | undefined): string {
  if (!s) return 'not scheduled';
  const at = `${String(s.atHour ?? 0).padStart(2, '0')}:00 UTC`;
  if (s.every === 'hours') return s.hours === 1 ? 'every hour' : `every ${s.hours} hours`;
  if (s.every === 'day') return `daily at ${at}`;
  return `weekly on ${DAYS[s.weekday ?? 0]} at ${at}`;
}

/** Moves a column by `by` places and says so; focus stays on the button pressed, or its partner when that one is now disabled. */
function move(i: number, by: -1 | 1): void {
  const name = chosen[i];
  const j = i + by;
  [chosen[i], chosen[j]] = [chosen[j], chosen[i]];
  const [key, other] = by < 0 ? ['up', 'down'] : ['down', 'up'];
  renderColumns(`${name} moved ${key}: ${j + 1} of ${chosen.length}.`, [`${key}:${name}`, `${other}:${name}`]);
}

function remove(i: number): void {
  const name = chosen[i];
  chosen.splice(i, 1);
  // Focus goes to the same button of the column that took its place, else of the one before, else to the Add picker.
  const next = chosen[i] ?? chosen[i - 1];
  renderColumns(
    `${name} removed: ${chosen.length} columns.`,
    next ? [`remove:${next}`, `up:${next}`, `down:${next}`] : [],
    'add-column',
  );
}

/** Redraws the column list; `news` is announced; focus goes to the first of `focus` (or to the element with id `fallback`). */
function renderColumns(news = '', focus: string[] = [], fallback = ''): void {
  const list = $('column-list');
  list.replaceChildren(
    ...chosen.map((name, i) => {
      const li = el('li');
      const label = el('span', name);
      label.className = 'column-name';
      const up = keyed(button('↑'), `up:${name}`);
      up.setAttribute('aria-label', `Move ${name} up`);
      up.disabled = i === 0;
      up.onclick = () => move(i, -1);
      const down = keyed(button('↓'), `down:${name}`);
      down.setAttribute('aria-label', `Move ${name} down`);
      down.disabled = i === chosen.length - 1;
      down.onclick = () => move(i, 1);
      const drop = keyed(button('×'), `remove:${name}`);
      drop.setAttribute('aria-label', `Remove ${name}`);
      drop.disabled = name === 'id';
      drop.onclick = () => remove(i);
      for (const b of [up, down, drop]) b.className = 'icon';
      li.append(label, up, down, drop);
      return li;
    }),
  );
  const add = $<HTMLSelectElement>('add-column');
  add.replaceChildren(
    ...allFields
      .filter((f) => !chosen.includes(f))
      .map((f) => {
        const o = el('option', f);
        o.value = f;
        return o;
      }),
  );
  $<HTMLButtonElement>('add-column-button').disabled = add.options.length === 0;
  if (news) $('column-news').textContent = news;
  if (focus.length && !refocus(...focus) && fallback) $(fallback).focus();
  else if (!focus.length && fallback) $(fallback).focus();
}

function showProgress(s: Summary): void {
  $('progress-box').hidden = false;
  const bar = $<HTMLProgressElement>('progress');
  bar.max = Math.max(1, s.totalItems);
  bar.value = s.status === 'done' ? bar.max : Math.min(s.rows, bar.max);
  const where = s.totalPages
    ? `page ${grouped(s.page)} of ${grouped(s.totalPages)} · rows ${grouped(s.rows)} of ${grouped(s.totalItems)}`
    : 'starting…';
  // A run that ended early says so once, and where; its message (shown below) says why.
  const at = s.totalPages ? ` at ${where}` : ' before the first page';
  const text = s.status === 'failed' ? `Failed${at}.` : s.status === 'cancelled' ? `Cancelled${at}.` : where;
  bar.setAttribute('aria-valuetext', text);
  $('progress-text').textContent = text;
}

/** Shows a run as started the moment the user asks for it (its first page can take seconds): Import busy, Cancel on, "starting…". */
function begin(): void {
  cancelled = false;
  $('cancel-import').hidden = false;
  $('import').setAttribute('aria-disabled', 'true');
  say('');
  showProgress({ importId: '', status: 'running', page: 0, totalPages: 0, rows: 0, totalItems: 0, message: '' });
}

/** Whether a run is being driven now (Import stays busy from begin to end). */
const running = (): boolean => $('import').getAttribute('aria-disabled') === 'true';

function end(): void {
  const cancelHadFocus = document.activeElement === $('cancel-import');
  $('cancel-import').hidden = true;
  $('import').removeAttribute('aria-disabled');
  // Cancel is gone: focus goes back to Import, where it was before.
  if (cancelHadFocus) $('import').focus();
}

/**
 * A step's call, with the run's progress asked for every STATUS_MS while it is in flight: a step runs
 * for as long as its time allows, and shows what it has read in its live record (importStatus).
 */
async function shown(id: string, step: Promise<Answer<Summary>>): Promise<Answer<Summary>> {
  let inFlight = true;
  void (async () => {
    for (;;) {
      await new Promise((wake) => setTimeout(wake, STATUS_MS));
      if (!inFlight) return;
      const s = await call('importStatus', id);
      // Once the step has read a page: before that, "starting…" stands.
      if (inFlight && !cancelled && s.ok && s.status === 'running' && s.page > 0) showProgress(s);
    }
  })();
  try {
    return await step;
  } finally {
    inFlight = false;
  }
}

/**
 * A new id for a run this sidebar starts (src/entry/imports.ts takes 8 to 64 letters, digits, - and _): named
 * before it starts, Cancel reaches the run even when it comes before the run is saved.
 */
function runName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `sidebar-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Drives a run to its end, one server step at a time, its progress shown once, in the progress bar's line. `start`
 * begins the run with the id this sidebar gives it (or carries on a run begun elsewhere, which ignores it).
 */
async function drive(id: string, start: (run: string) => Promise<Answer<Summary>>): Promise<void> {
  const run = runName();
  driving = { id, run };
  // Cancel pressed before the run could start (while the import was saved): the run stops at once.
  if (cancelled) void call('cancelImport', id, run);
  try {
    let a = await shown(id, start(run));
    for (;;) {
      if (!a.ok) {
        $('progress-text').textContent = 'The import stopped.';
        say(a.message, 'error');
        return;
      }
      showProgress(a);
      if (a.status !== 'running') {
        say(a.message, a.status === 'done' ? 'ok' : 'error');
        return;
      }
      // Once the step in flight has stopped, Cancel ends the run (sent again until it can: another execution may hold the spreadsheet).
      a = await shown(id, cancelled ? call('cancelImport', id, run) : call('continueImport', id));
    }
  } finally {
    driving = undefined;
    // The saved imports show how the run ended before Import is offered again.
    await refresh();
    end();
  }
}

function importItem(v: ImportView, index: number): HTMLLIElement {
  const item = el('li');
  item.className = 'import';
  const title = el('h3', v.sheetName);
  const facts = el('dl');
  const status = v.run.status === 'running' ? 'running' : (v.last?.status ?? 'never run');
  const fact = (term: string, value: string, className = '') => {
    const dd = el('dd', value);
    if (className) dd.className = className;
    facts.append(el('dt', term), dd);
  };
  fact('Last run', v.last ? utc(v.last.at) : 'never');
  fact('Rows', v.last ? grouped(v.last.rows) : '–');
  fact('Status', v.last?.message ? `${status}: ${v.last.message}` : status, `status-${v.last?.status ?? ''}`);
  fact(
    'Schedule',
    v.schedule ? `${describe(v.schedule)}, by ${v.scheduledBy}, with ${v.runsWith}` : describe(v.schedule),
  );
  if (v.shaped) fact('Rows kept', v.shaped);
  fact(
    'History',
    v.history ? `last ${v.history.keep} run${v.history.keep === 1 ? '' : 's'} in "${v.historySheet}"` : 'off',
  );
  fact(
    'Alert',
    v.alert
      ? `email to ${v.alert.owner} when partners are ${v.alert.on.join(', ')}${v.alert.fields ? ` (fields: ${v.alert.fields.join(', ')})` : ''}`
      : 'off',
  );
  if (v.replaceAnyway)
    fact('Replace anyway', 'on every run: each run overwrites cells of its sheet that are not as the import left them');
  const run = keyed(button('Run now', 'action'), `run:${v.id}`);
  run.setAttribute('aria-label', `Run now: import into ${v.sheetName}`);
  run.onclick = () =>
    void busy(run, async () => {
      if (running()) return say('An import is already running: wait for it to end, or cancel it.', 'warning');
      begin();
      await drive(v.id, (name) => call('startImport', v.id, name));
    });
  const del = keyed(button('Delete'), `delete:${v.id}`);
  del.setAttribute('aria-label', `Delete: import into ${v.sheetName}`);
  del.onclick = () =>
    void busy(del, async () => {
      const yes = await ask({
        after: del.parentElement as HTMLElement,
        text: `Delete the import into "${v.sheetName}"?`,
        yes: 'Delete it',
        no: 'Keep it',
        detail: 'The sheet and its rows stay; its schedule stops.',
      });
      if (!yes) {
        del.focus();
        return;
      }
      const r = await call('deleteImport', v.id);
      const left = await refresh();
      // The item is gone: focus goes to the next import's Run now, else the previous one's, else the heading.
      const near = left[index] ?? left[index - 1];
      if (!r.ok) del.focus();
      else if (!near || !refocus(`run:${near.id}`)) $('saved-title').focus();
      say(r.ok ? `Deleted the import into "${v.sheetName}" (the sheet stays).` : r.message, r.ok ? 'ok' : 'error');
    });
  const edit = keyed(button('Edit settings'), `edit:${v.id}`);
  edit.setAttribute('aria-label', `Edit settings: import into ${v.sheetName}`);
  edit.onclick = () => editImport(v);
  const actions = el('div');
  actions.className = 'row';
  actions.append(run, edit, del, ...ownershipChoices(v), ...(v.replaceAnyway ? [stopReplacing(v)] : []));
  item.append(title, facts, actions, scheduleControls(v, index));
  return item;
}

/** Turns Replace anyway on every run off: a later run that finds cells not as the import left them stops again. */
function stopReplacing(v: ImportView): HTMLButtonElement {
  const b = keyed(button('Stop replacing anyway'), `stop-force:${v.id}`);
  b.setAttribute('aria-label', `Stop replacing anyway: import into ${v.sheetName}`);
  b.onclick = () =>
    void busy(b, async () => {
      const r = await call('saveImport', { id: v.id, replaceAnyway: null });
      await refresh();
      if (r.ok) refocus(`run:${v.id}`);
      say(
        r.ok
          ? `Replace anyway is off for "${v.sheetName}": a run that finds cells not as the import left them stops and names them.`
          : r.message,
        r.ok ? 'ok' : 'error',
      );
    });
  return b;
}

/**
 * The explicit choices a refused run offers, as the run recorded them (LastRun.offers): let the
 * import own a table it did not write, or Replace anyway, for this run or (ticked) for every run.
 */
function ownershipChoices(v: ImportView): HTMLElement[] {
  const offers = v.last?.status === 'failed' ? (v.last.offers ?? []) : [];
  const choice = (label: string, key: string, act: (run: string) => Promise<Answer<Summary>>) => {
    const b = keyed(button(label), `${key}:${v.id}`);
    b.setAttribute('aria-label', `${label}: import into ${v.sheetName}`);
    b.onclick = () =>
      void busy(b, async () => {
        begin();
        await drive(v.id, act);
      });
    return b;
  };
  const out: HTMLElement[] = [];
  if (offers.includes('adopt'))
    out.push(
      choice('Let the import own this table', 'adopt', async (run) => {
        const adopted = await call('adoptTable', v.id);
        return adopted.ok ? call('startImport', v.id, run) : adopted;
      }),
    );
  if (offers.includes('force')) {
    const keep = keyed(el('input'), `force-always:${v.id}`);
    keep.type = 'checkbox';
    keep.setAttribute('aria-label', `Replace anyway on every run: import into ${v.sheetName}`);
    const label = el('label', ' on every run');
    label.className = 'inline';
    label.prepend(keep);
    out.push(
      choice('Replace anyway', 'force', (run) => call('replaceAnyway', v.id, keep.checked, run)),
      label,
    );
  }
  return out;
}

function renderImports(imports: ImportView[]): void {
  const had = focusKey();
  $('no-imports').hidden = imports.length > 0;
  $('imports').hidden = imports.length === 0;
  $('imports').replaceChildren(...imports.map(importItem));
  // A choice that is gone once acted on (Replace anyway, Let the import own this table) gives focus to its item's Run now.
  if (had && !refocus(had)) refocus(`run:${had.slice(had.indexOf(':') + 1)}`);
}

export async function refresh(): Promise<ImportView[]> {
  const r = await call('listImports');
  if (!r.ok) {
    say(r.message, 'error');
    return [];
  }
  myAddress = r.me;
  // What this sidebar shows now: the poll redraws only for a change made elsewhere.
  stamp = r.stamp;
  if (allFields.length === 0) {
    allFields = r.fields;
    defaults = r.defaultFields;
    chosen = [...defaults];
    renderColumns();
    startFilters(r.filterFields);
  }
  renderImports(r.imports);
  if (editing) editing = r.imports.find((i) => i.id === editing?.id);
  showEditing();
  // Runs spend fetches: the connection card re-reads the day's count (sidebar/main.ts).
  document.dispatchEvent(new Event('investor-data:fetched'));
  return r.imports;
}

/** The alert's controls: locked, with the reason beside them, when this user may not change the alert. */
function showAlertLock(): void {
  const owner = editing?.alert?.owner;
  const other = owner && owner.toLowerCase() !== myAddress.toLowerCase() ? owner : '';
  const why = other
    ? `This alert is ${other}'s: only they can change or remove it (and what it watches: its fields, the filters, the sort by fit, the schedule, the sheet).`
    : alertsOff;
  const note = $('alert-note');
  note.textContent = why;
  note.hidden = !why;
  for (const c of document.querySelectorAll<HTMLInputElement>('#alert-box input')) c.disabled = !!why;
}

/** The line saying which import the form edits, and the way back to a new import. */
function showEditing(): void {
  $('editing').hidden = !editing;
  $('new-import').hidden = !editing;
  $('editing').textContent = editing
    ? `Editing the saved import into "${editing.sheetName}": Save without running keeps these settings; Import saves and runs it.`
    : '';
  showAlertLock();
}

/** The history and alert controls set to `v`'s (cleared for none). */
function showWatch(v: Pick<ImportView, 'history' | 'alert'> | undefined): void {
  $<HTMLInputElement>('history-on').checked = !!v?.history;
  $<HTMLInputElement>('history-keep').value = String(v?.history?.keep ?? 10);
  for (const c of document.querySelectorAll<HTMLInputElement>('input[name="alert-on"]'))
    c.checked = !!v?.alert?.on.includes(c.value as never);
  $<HTMLInputElement>('alert-fields').value = v?.alert?.fields?.join(', ') ?? '';
}

/** Edit settings: the form shows every setting of `v`, to change and save (or run) again. */
function editImport(v: ImportView): void {
  editing = v;
  clearFieldErrors('sheet-name', 'history-keep', 'alert-fields');
  $<HTMLInputElement>('sheet-name').value = v.sheetName;
  chosen = [...v.fields];
  renderColumns();
  for (const r of document.querySelectorAll<HTMLInputElement>('input[name="mode"]')) r.checked = r.value === v.mode;
  showShape(v.filters ?? [], v.sort ?? [], v.fit ?? null);
  showWatch(v);
  showEditing();
  $('sheet-name').focus();
  say(`Editing the import into "${v.sheetName}".`);
}

function newImport(): void {
  editing = undefined;
  clearFieldErrors('sheet-name', 'history-keep', 'alert-fields');
  $<HTMLInputElement>('sheet-name').value = 'Limited partners';
  chosen = [...defaults];
  renderColumns();
  for (const r of document.querySelectorAll<HTMLInputElement>('input[name="mode"]')) r.checked = r.value === 'replace';
  showShape([], [], null);
  showWatch(undefined);
  showEditing();
  $('sheet-name').focus();
  say('A new import: choose its settings, then Import.');
}

/** History as the form says it: { keep } or null (off); undefined when the number is refused (marked at its field). */
function formHistory(): { keep: number } | null | undefined {
  if (!$<HTMLInputElement>('history-on').checked) return null;
  const keep = $<HTMLInputElement>('history-keep').value.trim();
  if (/^\d{1,3}$/.test(keep) && Number(keep) >= 1 && Number(keep) <= 100) return { keep: Number(keep) };
  fieldError('history-keep', 'History keeps 1 to 100 runs: type a whole number.');
  return undefined;
}

/** The alert as the form says it: null (off), or the kinds and fields; undefined when its controls are locked (kept). */
function formAlert(): ImportInput['alert'] {
  if ($<HTMLInputElement>('alert-fields').disabled) return undefined;
  const on = [...document.querySelectorAll<HTMLInputElement>('input[name="alert-on"]:checked')].map(
    (c) => c.value as 'added' | 'removed' | 'changed',
  );
  const fields = $<HTMLInputElement>('alert-fields')
    .value.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (!on.length) return fields.length ? { on, fields } : null;
  return fields.length ? { on, fields } : { on };
}

/** Saves the form (every setting shown); the saved import, or undefined when refused (said at the field at fault). */
async function saveForm(): Promise<ImportView | undefined> {
  clearFieldErrors('sheet-name', 'history-keep', 'alert-fields');
  const sheetName = $<HTMLInputElement>('sheet-name').value;
  if (!sheetName.trim()) {
    fieldError('sheet-name', 'Name the sheet to import into.');
    $('sheet-name').focus();
    return undefined;
  }
  const history = formHistory();
  if (history === undefined) {
    $('history-keep').focus();
    return undefined;
  }
  const mode =
    (document.querySelector('input[name="mode"]:checked') as HTMLInputElement).value === 'merge' ? 'merge' : 'replace';
  const imports = await refresh();
  const same = editing ?? imports.find((i) => i.sheetName.toLowerCase() === sheetName.trim().toLowerCase());
  const saved = await call('saveImport', {
    id: same?.id ?? null,
    sheetName,
    fields: chosen,
    mode,
    filters: currentFilters(),
    sort: currentSort(),
    fit: currentFit(),
    // Shown in the form only while editing: otherwise an import of the same sheet keeps them as saved.
    ...(editing || !same ? { history, alert: formAlert() } : {}),
  });
  if (!saved.ok) {
    // A refusal about the alert shows under the alert's controls, focus on its first box; any other under the sheet's name.
    if (saved.field === 'alert') {
      fieldError('alert-fields', saved.message);
      $('alert-box').querySelector<HTMLElement>('input')?.focus();
    } else {
      fieldError('sheet-name', saved.message);
      $('sheet-name').focus();
    }
    return undefined;
  }
  editing = saved.import;
  await refresh();
  return saved.import;
}

async function startNew(): Promise<void> {
  begin();
  const saved = await saveForm();
  if (!saved) {
    end();
    $('progress-box').hidden = true;
    return;
  }
  await drive(saved.id, (run) => call('startImport', saved.id, run));
}

async function saveOnly(): Promise<void> {
  if (running())
    return say('An import is running: wait for it to end, or cancel it, before changing its settings.', 'warning');
  const saved = await saveForm();
  if (saved) say(`Saved the settings of the import into "${saved.sheetName}".`, 'ok');
}

/** Sets the form's alert controls for a user whose alerts are off (why) or on (''): called by the connection card. */
export function setAlertsOff(why: string): void {
  alertsOff = why;
  showAlertLock();
}

/**
 * Looks for what this sidebar did not do (a scheduled run that ended, a save by another editor or
 * from elsewhere): a new stamp redraws the saved imports. Not while this sidebar drives a run.
 */
async function poll(): Promise<void> {
  if (document.hidden || running()) return;
  const r = await call('importsStamp');
  if (r.ok && r.stamp !== stamp && !running()) await refresh();
}

export async function startImports(): Promise<void> {
  $('add-column-button').addEventListener('click', () => {
    const name = $<HTMLSelectElement>('add-column').value;
    if (!name || chosen.includes(name)) return;
    chosen.push(name);
    renderColumns(`${name} added: ${chosen.length} of ${chosen.length}.`, [], 'add-column');
  });
  $('default-columns').addEventListener('click', () => {
    chosen = [...defaults];
    renderColumns(`Columns set to the ${chosen.length} default columns.`);
  });
  $('cancel-import').addEventListener('click', () => {
    if (cancelled) return;
    cancelled = true;
    say('Cancelling…');
    // Sent now, not after the step in flight, which stops at its next round; the drive then ends the run.
    if (driving) void call('cancelImport', driving.id, driving.run);
  });
  $('import').addEventListener('click', () => void busy($('import'), startNew));
  $('save-import').addEventListener('click', () => void busy($('save-import'), saveOnly));
  $('new-import').addEventListener('click', newImport);
  const imports = await refresh();
  setInterval(() => void poll(), POLL_MS);
  const running = imports.find((i) => i.run.status === 'running');
  if (running) {
    begin();
    await drive(running.id, () => Promise.resolve({ ok: true, ...running.run }));
  }
}
