/**
 * The import part of the sidebar: the column chooser, the import form, the progress bar that a
 * step-by-step run moves ("page k of n · rows r of total"), Cancel, and the saved imports with
 * Run now, Schedule and Delete (and, after a refused replace, its explicit choices). A run in
 * progress when the sidebar opens is picked up again.
 * Everything from the server is shown with textContent.
 */
import { type Answer, call, type ImportView, type RunSummary as Summary, type Schedule } from './rpc';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text = ''): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
};

const KINDS: Array<[string, string]> = [['none', 'Not scheduled'], ['hours', 'Every N hours'], ['day', 'Daily'], ['week', 'Weekly']];
const EVERY_HOURS = [1, 2, 4, 6, 8, 12];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function options(select: HTMLSelectElement, items: Array<[string, string]>, chosen: string): void {
  select.replaceChildren(...items.map(([value, label]) => {
    const o = el('option', label);
    o.value = value;
    o.selected = value === chosen;
    return o;
  }));
}

/** Schedule pickers (kind, then hours or hour of day, then weekday); any change saves the schedule. */
function scheduleControls(v: ImportView): HTMLElement {
  const box = el('span');
  const kind = el('select');
  const n = el('select');
  const day = el('select');
  kind.setAttribute('aria-label', `Schedule for ${v.sheetName}`);
  n.setAttribute('aria-label', `Hours for ${v.sheetName}`);
  day.setAttribute('aria-label', `Weekday for ${v.sheetName}`);
  const s = v.schedule;
  options(kind, KINDS, s?.every ?? 'none');
  const fill = () => {
    if (kind.value === 'hours') options(n, EVERY_HOURS.map((h) => [String(h), `${h} h`]), String(s?.hours ?? 6));
    else options(n, Array.from({ length: 24 }, (_, h) => [String(h), `at ${String(h).padStart(2, '0')}:00 UTC`]), String(s?.atHour ?? 6));
    options(day, DAYS.map((d, i) => [String(i), d]), String(s?.weekday ?? 1));
    n.hidden = kind.value === 'none';
    day.hidden = kind.value !== 'week';
  };
  fill();
  const save = async () => {
    const k = kind.value;
    const schedule: Schedule | null = k === 'none' ? null : k === 'hours' ? { every: 'hours', hours: Number(n.value) } : k === 'day' ? { every: 'day', atHour: Number(n.value) } : { every: 'week', weekday: Number(day.value), atHour: Number(n.value) };
    const r = await call('scheduleImport', v.id, schedule);
    say(r.ok ? `Schedule saved for "${v.sheetName}".` : r.message, r.ok ? 'ok' : 'error');
    await refresh();
  };
  kind.onchange = () => {
    fill();
    void save();
  };
  n.onchange = () => void save();
  day.onchange = () => void save();
  box.append(kind, n, day);
  return box;
}

let allFields: string[] = [];
let defaults: string[] = [];
let chosen: string[] = [];
let cancelled = false;

function say(text: string, kind: 'ok' | 'error' | '' = ''): void {
  const m = $('import-message');
  m.textContent = text;
  m.className = kind;
}

function renderColumns(): void {
  const list = $('column-list');
  list.replaceChildren(...chosen.map((name, i) => {
    const li = el('li');
    li.append(el('span', name));
    const up = el('button', '↑');
    up.type = 'button';
    up.title = `Move ${name} up`;
    up.disabled = i === 0;
    up.onclick = () => {
      [chosen[i - 1], chosen[i]] = [chosen[i], chosen[i - 1]];
      renderColumns();
    };
    const remove = el('button', '×');
    remove.type = 'button';
    remove.title = `Remove ${name}`;
    remove.disabled = name === 'id';
    remove.onclick = () => {
      chosen.splice(i, 1);
      renderColumns();
    };
    li.append(up, remove);
    return li;
  }));
  const add = $<HTMLSelectElement>('add-column');
  add.replaceChildren(...allFields.filter((f) => !chosen.includes(f)).map((f) => {
    const o = el('option', f);
    o.value = f;
    return o;
  }));
}

function showProgress(s: Summary): void {
  $('progress-box').hidden = false;
  const bar = $<HTMLProgressElement>('progress');
  bar.max = Math.max(1, s.totalItems);
  bar.value = s.status === 'done' ? bar.max : Math.min(s.rows, bar.max);
  $('progress-text').textContent = s.totalPages ? `page ${s.page} of ${s.totalPages} · rows ${s.rows} of ${s.totalItems}` : 'starting…';
}

/** Shows a run as started the moment the user asks for it (the first step can take 20 s): button off, Cancel on, "starting…". */
function begin(): void {
  cancelled = false;
  $('cancel-import').hidden = false;
  $<HTMLButtonElement>('import').disabled = true;
  say('');
  showProgress({ importId: '', status: 'running', page: 0, totalPages: 0, rows: 0, totalItems: 0, message: '' });
}

function end(): void {
  $('cancel-import').hidden = true;
  $<HTMLButtonElement>('import').disabled = false;
}

/** Drives a run to its end, one server step at a time; its progress is shown once, in the progress bar's line. */
async function drive(id: string, first: Answer<Summary>): Promise<void> {
  let a = first;
  try {
    for (;;) {
      if (!a.ok) {
        say(a.message, 'error');
        return;
      }
      showProgress(a);
      if (a.status !== 'running') {
        say(a.message, a.status === 'done' ? 'ok' : 'error');
        return;
      }
      if (cancelled) {
        a = await call('cancelImport', id);
        continue;
      }
      a = await call('continueImport', id);
    }
  } finally {
    end();
    await refresh();
  }
}

function lastRunText(v: ImportView): string {
  if (!v.last) return 'never';
  return new Date(v.last.at).toLocaleString();
}

/**
 * The explicit choices a refused replace offers (src/import/replace.ts): let the import own a
 * table it did not write, or Replace anyway, for this run or (ticked) for every run of the import.
 */
function ownershipChoices(v: ImportView): HTMLElement[] {
  const why = v.last?.status === 'failed' ? v.last.message : '';
  if (!/Replace stopped|holds a table the import did not write/.test(why)) return [];
  const button = (label: string, act: () => Promise<Answer<Summary>>) => {
    const b = el('button', label);
    b.type = 'button';
    b.onclick = async () => {
      begin();
      await drive(v.id, await act());
    };
    return b;
  };
  const out: HTMLElement[] = [];
  if (/did not write/.test(why)) out.push(button('Let the import own this table', async () => {
    const adopted = await call('adoptTable', v.id);
    return adopted.ok ? call('startImport', v.id) : adopted;
  }));
  if (v.mode === 'replace') {
    const keep = el('input') as HTMLInputElement;
    keep.type = 'checkbox';
    const label = el('label', ' always');
    label.prepend(keep);
    out.push(button('Replace anyway', () => call('replaceAnyway', v.id, keep.checked)), label);
  }
  return out;
}

function renderImports(imports: ImportView[]): void {
  $('no-imports').hidden = imports.length > 0;
  $('imports').hidden = imports.length === 0;
  const body = $('imports').querySelector('tbody') as HTMLTableSectionElement;
  body.replaceChildren(...imports.flatMap((v) => {
    const row = el('tr');
    const status = el('td', v.run.status === 'running' ? 'running' : (v.last?.status ?? '–'));
    status.className = `status-${v.last?.status ?? ''}`;
    status.title = v.last?.message ?? '';
    row.append(el('td', v.sheetName), el('td', lastRunText(v)), el('td', String(v.last?.rows ?? '')), status);
    const actions = el('tr');
    actions.className = 'actions';
    const cell = el('td');
    cell.colSpan = 4;
    const run = el('button', 'Run now');
    run.type = 'button';
    run.onclick = async () => {
      begin();
      await drive(v.id, await call('startImport', v.id));
    };
    const schedule = scheduleControls(v);
    const del = el('button', 'Delete');
    del.type = 'button';
    del.onclick = async () => {
      const r = await call('deleteImport', v.id);
      say(r.ok ? `Deleted the import into "${v.sheetName}" (the sheet stays).` : r.message, r.ok ? 'ok' : 'error');
      await refresh();
    };
    cell.append(run, schedule, del, ...ownershipChoices(v));
    actions.append(cell);
    return [row, actions];
  }));
}

export async function refresh(): Promise<ImportView[]> {
  const r = await call('listImports');
  if (!r.ok) {
    say(r.message, 'error');
    return [];
  }
  if (allFields.length === 0) {
    allFields = r.fields;
    defaults = r.defaultFields;
    chosen = [...defaults];
    renderColumns();
  }
  renderImports(r.imports);
  // Runs spend fetches: the connection card re-reads the day's count (sidebar/main.ts).
  document.dispatchEvent(new Event('investor-data:fetched'));
  return r.imports;
}

export async function startImports(): Promise<void> {
  $('add-column-button').addEventListener('click', () => {
    const name = $<HTMLSelectElement>('add-column').value;
    if (name && !chosen.includes(name)) chosen.push(name);
    renderColumns();
  });
  $('default-columns').addEventListener('click', () => {
    chosen = [...defaults];
    renderColumns();
  });
  $('cancel-import').addEventListener('click', () => {
    cancelled = true;
    say('Cancelling…');
  });
  $('import').addEventListener('click', async () => {
    begin();
    const mode = (document.querySelector('input[name="mode"]:checked') as HTMLInputElement).value === 'merge' ? 'merge' : 'replace';
    const imports = await refresh();
    const sheetName = $<HTMLInputElement>('sheet-name').value;
    const same = imports.find((i) => i.sheetName.toLowerCase() === sheetName.trim().toLowerCase());
    const saved = await call('saveImport', { id: same?.id ?? null, sheetName, fields: chosen, mode });
    if (!saved.ok) {
      end();
      $('progress-box').hidden = true;
      say(saved.message, 'error');
      return;
    }
    await drive(saved.import.id, await call('startImport', saved.import.id));
  });
  const imports = await refresh();
  const running = imports.find((i) => i.run.status === 'running');
  if (running) {
    begin();
    await drive(running.id, { ok: true, ...running.run });
  }
}
