/**
 * The workbench page: a grid with sheet tabs and a formula bar, the add-in's menus (built by its
 * onOpen), the real sidebar in a 300 px panel, and the triggers panel. It redraws from
 * /api/state after every action, when the sidebar reports a call, and every second.
 */

interface MenuItem { caption: string; functionName?: string }
interface State {
  sheets: Array<{ name: string; hidden: boolean }>;
  active: number;
  rows: number;
  shownRows: number;
  frozenRows: number;
  columns: string[];
  cells: string[][];
  formulas: Record<string, string>;
  errors: Record<string, string>;
  menus: Record<string, MenuItem[]>;
  sidebar: { title: string } | null;
  toasts: Array<{ message: string; title: string }>;
  triggers: Array<{ id: string; handler: string; nextRunAt: number; every: string }>;
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
let state: State | undefined;
let selected = { r: 0, c: 0 };
let sidebarLoaded = false;
const drawn: Record<string, string> = {};

/** Redraws a part only when its data changed, so an open menu or a focused button survives polling. */
function changed(part: string, data: unknown): boolean {
  const text = JSON.stringify(data);
  if (drawn[part] === text) return false;
  drawn[part] = text;
  return true;
}

async function post(path: string, data: unknown): Promise<{ ok: boolean; error?: string }> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) });
  return res.json();
}

const a1 = (r: number, c: number) => `${state?.columns[c] ?? 'A'}${r + 1}`;

function renderGrid(s: State): void {
  const grid = $<HTMLTableElement>('grid');
  const head = document.createElement('tr');
  head.append(Object.assign(document.createElement('th'), { className: 'row' }));
  for (const col of s.columns) head.append(Object.assign(document.createElement('th'), { textContent: col }));
  const rows = s.cells.map((cells, r) => {
    const tr = document.createElement('tr');
    if (r < s.frozenRows) tr.className = 'frozen';
    tr.append(Object.assign(document.createElement('th'), { className: 'row', textContent: String(r + 1) }));
    cells.forEach((text, c) => {
      const td = document.createElement('td');
      td.textContent = text;
      td.dataset.cell = `${s.columns[c]}${r + 1}`;
      const error = s.errors[`${r},${c}`];
      if (error) {
        td.classList.add('error');
        td.title = error;
      } else if (text.length > 30) td.title = text.slice(0, 500);
      if (text !== '' && !Number.isNaN(Number(text))) td.classList.add('number');
      if (r === selected.r && c === selected.c) td.classList.add('selected');
      td.onclick = () => select(r, c);
      td.ondblclick = () => {
        select(r, c);
        $('formula-input').focus();
      };
      tr.append(td);
    });
    return tr;
  });
  grid.replaceChildren(head, ...rows);
  $('more-rows').textContent = s.rows > s.shownRows ? `Showing ${s.shownRows} of ${s.rows} rows (export to .xlsx for all).` : '';
}

function select(r: number, c: number): void {
  selected = { r, c };
  if (!state) return;
  $<HTMLInputElement>('name-box').value = a1(r, c);
  $<HTMLInputElement>('formula-input').value = state.formulas[`${r},${c}`] ?? state.cells[r]?.[c] ?? '';
  $('cell-error').textContent = state.errors[`${r},${c}`] ?? '';
  document.querySelectorAll('#grid td.selected').forEach((el) => el.classList.remove('selected'));
  document.querySelector(`#grid td[data-cell="${a1(r, c)}"]`)?.classList.add('selected');
}

function renderMenus(s: State): void {
  const bar = $('menubar');
  bar.replaceChildren(...Object.entries(s.menus).map(([caption, items]) => {
    const menu = document.createElement('div');
    menu.className = 'menu';
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: caption });
    button.id = `menu-${caption.toLowerCase().replace(/\W+/g, '-')}`;
    button.onclick = () => menu.classList.toggle('open');
    const list = document.createElement('ul');
    for (const item of items) {
      const li = document.createElement('li');
      if (!item.functionName) li.className = 'sep';
      else {
        const b = Object.assign(document.createElement('button'), { type: 'button', textContent: item.caption });
        b.onclick = async () => {
          menu.classList.remove('open');
          const r = await post('/api/menu', { functionName: item.functionName });
          if (r.error) $('toast').textContent = r.error;
          await refresh();
        };
        li.append(b);
      }
      list.append(li);
    }
    menu.append(button, list);
    return menu;
  }));
}

function renderSide(s: State): void {
  const open = !!s.sidebar;
  $('sidebar').hidden = !open;
  if (open && !sidebarLoaded) {
    $<HTMLIFrameElement>('sidebar-frame').src = '/sidebar';
    $('sidebar-title').textContent = s.sidebar?.title ?? 'Sidebar';
    sidebarLoaded = true;
  }
  if (!open) sidebarLoaded = false;
  $('trigger-list').replaceChildren(...s.triggers.map((t) => {
    const tr = document.createElement('tr');
    for (const text of [t.handler, t.every, new Date(t.nextRunAt).toLocaleString()]) tr.append(Object.assign(document.createElement('td'), { textContent: text }));
    const run = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Run now' });
    run.onclick = async () => {
      await post('/api/trigger', { id: t.id });
      await refresh();
    };
    const td = document.createElement('td');
    td.append(run);
    tr.append(td);
    return tr;
  }));
  const toast = s.toasts[s.toasts.length - 1];
  if (toast) $('toast').textContent = toast.message;
}

function renderTabs(s: State): void {
  $('tabs').replaceChildren(...s.sheets.map((sheet, i) => {
    const b = Object.assign(document.createElement('button'), { type: 'button', textContent: sheet.name, className: `tab${i === s.active ? ' active' : ''}` });
    b.setAttribute('role', 'tab');
    b.hidden = sheet.hidden;
    b.onclick = () => refresh(i);
    return b;
  }));
}

async function refresh(sheet?: number): Promise<void> {
  const res = await fetch(`/api/state${sheet === undefined ? '' : `?sheet=${sheet}`}`);
  state = (await res.json()) as State;
  if (changed('grid', [state.cells, state.errors, state.frozenRows, state.rows])) renderGrid(state);
  if (changed('menus', state.menus)) renderMenus(state);
  if (changed('side', [state.sidebar, state.triggers, state.toasts])) renderSide(state);
  if (changed('tabs', [state.sheets, state.active])) renderTabs(state);
}

function wire(): void {
  $('formula-input').addEventListener('keydown', async (e) => {
    if ((e as KeyboardEvent).key !== 'Enter' || !state) return;
    const input = $<HTMLInputElement>('formula-input').value;
    const target = { ...selected };
    const r = await post('/api/cell', { sheet: state.sheets[state.active].name, a1: a1(target.r, target.c), input });
    if (!r.ok) $('cell-error').textContent = r.error ?? 'Could not set the cell.';
    await refresh();
    // Move down as Sheets does, unless the user has already gone elsewhere meanwhile.
    if (selected.r === target.r && selected.c === target.c) select(Math.min(target.r + 1, (state?.cells.length ?? 1) - 1), target.c);
  });
  const goTo = () => {
    const m = /^([A-Z]+)(\d+)$/i.exec($<HTMLInputElement>('name-box').value.trim());
    if (!m || !state) return;
    const col = state.columns.indexOf(m[1].toUpperCase());
    if (col >= 0) select(Number(m[2]) - 1, col);
  };
  $('name-box').addEventListener('change', goTo);
  $('name-box').addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key === 'Enter') goTo();
  });
  $('close-sidebar').addEventListener('click', async () => {
    await post('/api/sidebar/close', {});
    await refresh();
  });
  $('triggers-button').addEventListener('click', () => {
    $('triggers').hidden = !$('triggers').hidden;
  });
  $('add-sheet').addEventListener('click', async () => {
    const name = prompt('Sheet name');
    if (name) await post('/api/sheet', { name });
    await refresh();
  });
  window.addEventListener('message', (e) => {
    if (e.data?.type === 'workbench:changed') void refresh();
    if (e.data?.type === 'workbench:close-sidebar') void post('/api/sidebar/close', {}).then(() => refresh());
  });
  setInterval(() => void refresh(), 1500);
}

wire();
void refresh().then(() => select(0, 0));
