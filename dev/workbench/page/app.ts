/**
 * The workbench page: a grid with sheet tabs and a formula bar, the add-in's menus (built by its
 * onOpen), the real sidebar in a 300 px panel, and the triggers panel. The grid behaves like
 * Sheets for the basics: typing replaces the selected cell, Enter/Tab/arrows move, Enter or F2 or
 * a double-click edits, Escape cancels, Delete clears, Ctrl-Z undoes the last edit, the name box
 * goes to any A1 address (or says why it cannot). An error of the last action stays in the status
 * bar until the next action. Protected ranges are drawn as Sheets draws them, and editing one
 * asks first when its protection is warning-only (refused otherwise), as Sheets does. It redraws from /api/state after every action, when the sidebar
 * reports a call, and every 1.5 seconds; every POST carries the token the page was served with.
 */

interface MenuItem {
  caption: string;
  functionName?: string;
}
interface State {
  sheets: Array<{ name: string; hidden: boolean }>;
  active: number;
  rows: number;
  /** Rows the grid scrolls through (the data and some beyond); only the window's cells are sent. */
  shownRows: number;
  /** The window of rows whose cells were sent: from (inclusive) to (exclusive); frozen rows are always sent. */
  from: number;
  to: number;
  maxRows: number;
  maxCols: number;
  frozenRows: number;
  columns: string[];
  /** The displayed text of the sent rows, by row. */
  cells: Record<number, string[]>;
  /** One character per cell of the sent rows, by row: n number, d date, b boolean, s text, e error, f formula kept as text, . empty. */
  kinds: Record<number, string>;
  /** The text to edit, where it differs from the display ("r,c"). */
  inputs: Record<string, string>;
  errors: Record<string, string>;
  /** The active sheet's protected ranges (0-based), with their description. */
  protections: Array<{ r: number; c: number; rows: number; cols: number; description: string; warningOnly: boolean }>;
  menus: Record<string, MenuItem[]>;
  sidebar: { title: string } | null;
  /** The dialog the add-in showed (Diagnostics' report), until it is closed; a new id is a new dialog. */
  dialog: { id: number; title: string } | null;
  toasts: Array<{ message: string; title: string }>;
  triggers: Array<{ id: string; handler: string; nextRunAt: number; every: string }>;
  /** The simulated clock (ms). */
  clock: number;
  /** Mail the add-in sent, newest first. */
  mail: Array<{ at: number; from: string; to: string; subject: string; body: string; html: string }>;
  /** Why the saved state was set aside at start, if it was. */
  notice: string | null;
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const TOKEN = document.querySelector<HTMLMetaElement>('meta[name="workbench-token"]')?.content ?? '';
const KIND_CLASS: Record<string, string> = {
  n: 'number',
  d: 'number',
  b: 'boolean',
  e: 'error-value',
  f: 'formula-text',
};
let state: State | undefined;
let selected = { r: 0, c: 0 };
/** Where each sheet's selection was, so a tab switch comes back to it. */
const selections = new Map<string, { r: number; c: number }>();
/** Rows and columns the page wants drawn (the name box may go past the data). */
let want = { rows: 0, cols: 0 };
/**
 * The grid draws only the rows in view (and some around them), at a fixed row height, with spacer
 * rows for the others, so a sheet of any length scrolls: the window of rows asked of the server.
 */
const WINDOW = 200;
const ROW_PX = 22;
let view = { from: 0, count: WINDOW };
let sidebarLoaded = false;
/** The error of the last action; shown until the next one. */
let sticky = '';
let refreshes = 0;
const drawn: Record<string, string> = {};

/** An edit in progress: in the cell (typed over it, or opened with Enter/F2/double-click) or in the formula bar. */
let editing: { r: number; c: number; original: string; typed: boolean; where: 'cell' | 'bar' } | undefined;

/** Redraws a part only when its data changed, so an open menu or a focused button survives polling. */
function changed(part: string, data: unknown): boolean {
  const text = JSON.stringify(data);
  if (drawn[part] === text) return false;
  drawn[part] = text;
  return true;
}

async function post(
  path: string,
  data: unknown,
): Promise<{ ok: boolean; error?: string; sheet?: string; a1?: string }> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-workbench-token': TOKEN },
    body: JSON.stringify(data),
  });
  return res.json();
}

function letters(c: number): string {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
const a1 = (r: number, c: number) => `${letters(c)}${r + 1}`;
/** A time as the triggers panel shows it: UTC, to the minute. */
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
const sheetName = () => (state ? state.sheets[state.active].name : '');
const cellInput = (r: number, c: number) => state?.inputs[`${r},${c}`] ?? state?.cells[r]?.[c] ?? '';
const td = (r: number, c: number) => document.querySelector<HTMLTableCellElement>(`#grid td[data-cell="${a1(r, c)}"]`);

/** A spacer row standing for `n` rows the window does not draw (its row-number cell keeps that column whole). */
function spacer(n: number, cols: number): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.className = 'spacer';
  const cell = Object.assign(document.createElement('td'), { colSpan: cols });
  const row = Object.assign(document.createElement('th'), { className: 'row' });
  for (const el of [row, cell]) el.style.height = `${n * ROW_PX}px`;
  tr.append(row, cell);
  return tr;
}

function renderGrid(s: State): void {
  const grid = $<HTMLTableElement>('grid');
  const head = document.createElement('tr');
  head.append(Object.assign(document.createElement('th'), { className: 'row' }));
  for (const col of s.columns) head.append(Object.assign(document.createElement('th'), { textContent: col }));
  const drawn = [
    ...Array.from({ length: s.frozenRows }, (_, r) => r),
    ...Array.from({ length: s.to - s.from }, (_, i) => s.from + i).filter((r) => r >= s.frozenRows),
  ];
  const before = Math.max(0, s.from - s.frozenRows);
  const after = Math.max(0, s.shownRows - Math.max(s.to, s.frozenRows));
  const rows = drawn.map((r) => {
    const cells = s.cells[r] ?? [];
    const tr = document.createElement('tr');
    if (r < s.frozenRows) tr.className = 'frozen';
    tr.append(Object.assign(document.createElement('th'), { className: 'row', textContent: String(r + 1) }));
    cells.forEach((text, c) => {
      const cell = document.createElement('td');
      cell.textContent = text;
      cell.dataset.cell = `${s.columns[c]}${r + 1}`;
      const kind = s.kinds[r]?.[c] ?? '.';
      cell.dataset.kind = kind;
      if (KIND_CLASS[kind]) cell.classList.add(KIND_CLASS[kind]);
      const error = s.errors[`${r},${c}`];
      if (error) {
        cell.classList.add('error');
        cell.title = error;
      } else if (text.length > 30) cell.title = text.slice(0, 500);
      const guard = protectionAt(s, r, c);
      if (guard) {
        cell.classList.add('protected');
        cell.title ||= guard.description;
      }
      if (r === selected.r && c === selected.c) cell.classList.add('selected');
      tr.append(cell);
    });
    return tr;
  });
  const frozen = rows.slice(0, Math.min(s.frozenRows, rows.length));
  grid.replaceChildren(
    head,
    ...frozen,
    ...(before ? [spacer(before, s.columns.length)] : []),
    ...rows.slice(frozen.length),
    ...(after ? [spacer(after, s.columns.length)] : []),
  );
  // Frozen rows stay under the column letters as the grid scrolls (each one row lower than the last).
  frozen.forEach((tr, i) => {
    for (const cell of tr.children) (cell as HTMLElement).style.top = `${(i + 1) * ROW_PX}px`;
  });
  spill(rows);
}

/** Kinds of cell whose text runs on to the right, as Sheets shows left-aligned text. */
const SPILLS = new Set(['s', 'f']);

/**
 * Text wider than its cell runs on over the empty cells to its right, as in Sheets, up to the next
 * cell with content (where it is cut): the text is drawn over the row, out of the column's width,
 * so the column keeps its width and the cells beside it stay empty.
 */
function spill(rows: HTMLTableRowElement[]): void {
  const spilt: Array<{ td: HTMLTableCellElement; span: HTMLSpanElement; next: HTMLTableCellElement[] }> = [];
  for (const tr of rows) {
    const cells = [...tr.querySelectorAll<HTMLTableCellElement>('td[data-cell]')];
    cells.forEach((td, i) => {
      if (!SPILLS.has(td.dataset.kind ?? '') || cells[i + 1]?.textContent !== '') return;
      const next: HTMLTableCellElement[] = [];
      for (let j = i + 1; j < cells.length && cells[j].textContent === ''; j++) next.push(cells[j]);
      const span = Object.assign(document.createElement('span'), { className: 'spill', textContent: td.textContent });
      td.replaceChildren(span);
      td.classList.add('spilling');
      spilt.push({ td, span, next });
    });
  }
  // Measured once every cell is laid out: the room is the cell's own and its empty neighbours'.
  for (const { td, span, next } of spilt)
    span.style.width = `${td.clientWidth - 12 + next.reduce((w, n) => w + n.offsetWidth, 0)}px`;
}

/** The name box, the formula bar and the status bar for the selected cell (fields being typed in are left alone). */
function showSelection(): void {
  if (!state) return;
  const { r, c } = selected;
  if (document.activeElement !== $('name-box')) $<HTMLInputElement>('name-box').value = a1(r, c);
  if (!editing) $<HTMLInputElement>('formula-input').value = cellInput(r, c);
  const status = sticky || state.errors[`${r},${c}`] || '';
  $('cell-error').textContent = status;
  $('cell-error').title = status;
}

function select(r: number, c: number, focusGrid = true): void {
  if (!state) return;
  selected = { r: Math.max(0, Math.min(r, state.maxRows - 1)), c: Math.max(0, Math.min(c, state.maxCols - 1)) };
  selections.set(sheetName(), selected);
  document.querySelectorAll('#grid td.selected').forEach((el) => el.classList.remove('selected'));
  const cell = td(selected.r, selected.c);
  if (cell) {
    cell.classList.add('selected');
    cell.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  } else {
    // Not drawn (past the grid, or outside the window): draw up to it and around it, as Sheets scrolls to it.
    if (selected.r >= state.shownRows || selected.c >= state.columns.length)
      want = { rows: Math.max(want.rows, selected.r + 20), cols: Math.max(want.cols, selected.c + 3) };
    view = { from: Math.max(0, selected.r - WINDOW / 2), count: WINDOW };
    void refresh().then(() => td(selected.r, selected.c)?.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
  }
  if (focusGrid) $('grid').focus({ preventScroll: true });
  showSelection();
}

/** Opens the in-cell editor over the selected cell. */
function startEdit(text: string, typed: boolean): void {
  const cell = td(selected.r, selected.c);
  if (!cell) return;
  const editor = $<HTMLInputElement>('cell-editor');
  editing = { ...selected, original: cellInput(selected.r, selected.c), typed, where: 'cell' };
  Object.assign(editor.style, {
    top: `${cell.offsetTop}px`,
    left: `${cell.offsetLeft}px`,
    minWidth: `${cell.offsetWidth}px`,
    height: `${cell.offsetHeight}px`,
  });
  editor.hidden = false;
  editor.value = text;
  $<HTMLInputElement>('formula-input').value = text;
  editor.focus();
  editor.setSelectionRange(text.length, text.length);
}

function closeEditor(): void {
  editing = undefined;
  $('cell-editor').hidden = true;
}

/** Writes what was typed (unless nothing changed) and moves the selection by (dr, dc). */
async function commit(input: string, dr: number, dc: number): Promise<void> {
  const target = editing ?? { ...selected, original: cellInput(selected.r, selected.c) };
  closeEditor();
  select(target.r + dr, target.c + dc);
  if (input === target.original || !state) return;
  await write(target.r, target.c, input);
}

function protectionAt(s: State, r: number, c: number): State['protections'][number] | undefined {
  return s.protections.find((p) => r >= p.r && r < p.r + p.rows && c >= p.c && c < p.c + p.cols);
}

async function write(r: number, c: number, input: string): Promise<void> {
  const guard = state && protectionAt(state, r, c);
  if (guard && !guard.warningOnly) {
    sticky = `This cell is protected${guard.description ? ` (${guard.description})` : ''}.`;
    showSelection();
    return;
  }
  if (
    guard &&
    !window.confirm(
      `Heads up! You're trying to edit part of this sheet that shouldn't be changed accidentally.\n\n${guard.description}\n\nEdit anyway?`,
    )
  )
    return;
  const res = await post('/api/cell', { sheet: sheetName(), a1: a1(r, c), input });
  if (!res.ok || res.error) sticky = res.error ?? 'Could not set the cell.';
  await refresh();
}

function cancelEdit(): void {
  closeEditor();
  select(selected.r, selected.c);
}

/** Keys on the grid (no edit open): move, edit, type over, clear, undo. */
async function onGridKey(e: KeyboardEvent): Promise<void> {
  if (!state || editing) return;
  const { r, c } = selected;
  const ctrl = e.ctrlKey || e.metaKey;
  const move: Record<string, [number, number]> = {
    ArrowUp: [-1, 0],
    ArrowDown: [1, 0],
    ArrowLeft: [0, -1],
    ArrowRight: [0, 1],
  };
  if (ctrl && e.key.toLowerCase() === 'z') {
    e.preventDefault();
    sticky = '';
    const res = await post('/api/undo', {});
    await refresh();
    if (res.a1 && res.sheet === sheetName()) {
      const m = /^([A-Z]+)(\d+)$/.exec(res.a1) as RegExpExecArray;
      select(Number(m[2]) - 1, [...m[1]].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1);
    }
    return;
  }
  if (ctrl || e.altKey) return;
  sticky = '';
  if (move[e.key]) {
    e.preventDefault();
    select(r + move[e.key][0], c + move[e.key][1]);
  } else if (e.key === 'Tab') {
    e.preventDefault();
    select(r, c + (e.shiftKey ? -1 : 1));
  } else if (e.key === 'Enter' || e.key === 'F2') {
    e.preventDefault();
    startEdit(cellInput(r, c), false);
  } else if (e.key === 'Delete' || e.key === 'Backspace') {
    e.preventDefault();
    showSelection();
    if (cellInput(r, c) !== '') await write(r, c, '');
  } else if (e.key.length === 1) {
    e.preventDefault();
    startEdit(e.key, true);
  } else showSelection();
}

/** Keys in the in-cell editor or the formula bar: Enter, Tab, Escape; arrows commit a cell typed over, as in Sheets. */
function onEditKey(e: KeyboardEvent, field: HTMLInputElement, where: 'cell' | 'bar'): void {
  if (!state) return;
  if (where === 'bar' && !editing)
    editing = { ...selected, original: cellInput(selected.r, selected.c), typed: false, where };
  const moves: Record<string, [number, number]> = { Enter: [e.shiftKey ? -1 : 1, 0], Tab: [0, e.shiftKey ? -1 : 1] };
  if (editing?.typed && !field.value.startsWith('='))
    Object.assign(moves, { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] });
  if (moves[e.key]) {
    e.preventDefault();
    sticky = '';
    void commit(field.value, ...moves[e.key]);
  } else if (e.key === 'Escape') {
    e.preventDefault();
    cancelEdit();
  }
}

async function goTo(): Promise<void> {
  if (!state) return;
  const text = $<HTMLInputElement>('name-box').value.trim();
  sticky = '';
  const m = /^(?:(?:'((?:[^']|'')+)'|([^!]+))!)?\$?([A-Z]{1,3})\$?(\d{1,7})(?::\$?[A-Z]{1,3}\$?\d{1,7})?$/i.exec(text);
  const sheet = m ? (m[1]?.replace(/''/g, "'") ?? m[2]) : undefined;
  const index =
    sheet === undefined ? state.active : state.sheets.findIndex((s) => s.name.toLowerCase() === sheet.toLowerCase());
  if (!m || index < 0) {
    sticky = !m
      ? `Cannot go to "${text}": type a cell address like B3 or Sheet1!B3.`
      : `Cannot go to "${text}": there is no sheet named "${sheet}".`;
    select(selected.r, selected.c);
    return;
  }
  if (index !== state.active) await refresh(index);
  const col = [...m[3].toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
  const row = Number(m[4]) - 1;
  const s = state as State;
  if (row < 0 || row >= s.maxRows || col >= s.maxCols) {
    sticky = `Cannot go to ${m[3].toUpperCase()}${m[4]}: the sheet has ${s.maxRows} rows and columns A to ${letters(s.maxCols - 1)}.`;
    select(selected.r, selected.c);
    return;
  }
  select(row, col);
}

function renderMenus(s: State): void {
  const bar = $('menubar');
  bar.replaceChildren(
    ...Object.entries(s.menus).map(([caption, items]) => {
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
            sticky = '';
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
    }),
  );
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
  $('trigger-list').replaceChildren(
    ...s.triggers.map((t) => {
      const tr = document.createElement('tr');
      for (const text of [t.handler, t.every, `next ${utc(t.nextRunAt)}`])
        tr.append(Object.assign(document.createElement('td'), { textContent: text }));
      const run = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Run now' });
      run.onclick = async () => {
        $('trigger-status').textContent = `${t.handler} running…`;
        const res = (await post('/api/trigger', { id: t.id })) as { message?: string; error?: string };
        $('trigger-status').textContent = res.message ?? res.error ?? '';
        await refresh();
      };
      const cell = document.createElement('td');
      cell.append(run);
      tr.append(cell);
      return tr;
    }),
  );
  $('mail-list').replaceChildren(
    ...s.mail.map((m) => {
      const li = document.createElement('li');
      const head = Object.assign(document.createElement('div'), {
        textContent: `${utc(m.at)} UTC · to ${m.to} · from ${m.from}`,
      });
      const subject = Object.assign(document.createElement('strong'), { textContent: m.subject });
      li.append(subject, head);
      if (m.html) {
        // The HTML body as a mail client shows it: in a sandbox, no scripts, no way out to the page.
        const frame = Object.assign(document.createElement('iframe'), { title: `Mail: ${m.subject}`, srcdoc: m.html });
        frame.setAttribute('sandbox', '');
        li.append(frame);
      } else li.append(Object.assign(document.createElement('pre'), { textContent: m.body }));
      return li;
    }),
  );
  const toast = s.toasts[s.toasts.length - 1];
  if (toast) {
    $('toast').textContent = toast.message;
    $('toast').title = toast.message;
  }
}

/** The add-in's modal dialog over the page, its HTML served at /dialog (loaded again for a new dialog). */
function renderDialog(s: State): void {
  $('dialog').hidden = !s.dialog;
  if (!s.dialog) return;
  $('dialog-title').textContent = s.dialog.title;
  $<HTMLIFrameElement>('dialog-frame').src = `/dialog?id=${s.dialog.id}`;
}

async function closeDialog(): Promise<void> {
  await post('/api/dialog/close', {});
  await refresh();
}

function renderTabs(s: State): void {
  $('tabs').replaceChildren(
    ...s.sheets.map((sheet, i) => {
      const b = Object.assign(document.createElement('button'), {
        type: 'button',
        textContent: sheet.name,
        className: `tab${i === s.active ? ' active' : ''}`,
      });
      b.setAttribute('role', 'tab');
      b.hidden = sheet.hidden;
      b.onclick = () => {
        sticky = '';
        if (editing) closeEditor();
        void refresh(i);
      };
      return b;
    }),
  );
}

interface ClockStep {
  ok: boolean;
  error?: string;
  until?: number;
  message?: string;
  ran?: number;
  failed?: number;
  done?: boolean;
}

/**
 * Moves the clock `hours` ahead one trigger run at a time, as the server steps it: the status line
 * says each run as it ends, with the count so far, and the sheet redraws after each.
 */
async function advance(hours: number): Promise<void> {
  const buttons = [$<HTMLButtonElement>('advance-hour'), $<HTMLButtonElement>('advance-day')];
  for (const b of buttons) b.disabled = true;
  const status = $('trigger-status');
  status.textContent = `Advancing the clock ${hours === 1 ? '1 hour' : `${hours} hours`}…`;
  let until: number | undefined;
  let runs = 0;
  let failed = 0;
  try {
    for (;;) {
      const step = (await post('/api/clock', until === undefined ? { hours } : { until })) as ClockStep;
      if (!step.ok || step.error || step.until === undefined) {
        status.textContent = step.error ?? 'Could not move the clock.';
        break;
      }
      until = step.until;
      runs += step.ran ?? 0;
      failed += step.failed ?? 0;
      const count = `${runs} trigger run${runs === 1 ? '' : 's'}${failed ? `, ${failed} failed` : ''}`;
      status.textContent = step.done
        ? `${step.message} Done: ${count}.`
        : `Run ${runs} (${failed ? `${failed} failed so far` : 'none failed so far'}): ${step.message}`;
      await refresh();
      if (step.done) break;
    }
  } finally {
    for (const b of buttons) b.disabled = false;
  }
}

async function refresh(sheet?: number): Promise<void> {
  const before = state ? sheetName() : undefined;
  if (sheet !== undefined) want = { rows: 0, cols: 0 };
  const query = new URLSearchParams();
  if (sheet !== undefined) query.set('sheet', String(sheet));
  if (sheet !== undefined && before !== undefined && state?.sheets[sheet]?.name !== before)
    view = { from: 0, count: WINDOW };
  query.set('from', String(view.from));
  query.set('count', String(view.count));
  if (want.rows) query.set('rows', String(want.rows));
  if (want.cols) query.set('cols', String(want.cols));
  const res = await fetch(`/api/state?${query}`);
  state = (await res.json()) as State;
  if (
    changed('grid', [
      state.active,
      state.cells,
      state.kinds,
      state.errors,
      state.frozenRows,
      state.rows,
      state.shownRows,
      state.from,
      state.to,
      state.protections,
    ])
  )
    renderGrid(state);
  if (changed('menus', state.menus)) renderMenus(state);
  if (changed('side', [state.sidebar, state.triggers, state.toasts, state.mail])) renderSide(state);
  $('clock-time').textContent = utc(state.clock);
  if (changed('tabs', [state.sheets, state.active])) renderTabs(state);
  if (changed('dialog', state.dialog)) renderDialog(state);
  $('notice').hidden = !state.notice;
  $('notice').textContent = state.notice ?? '';
  if (sheetName() !== before) {
    // Another sheet: back to where its selection was, with the formula bar showing that cell.
    const back = selections.get(sheetName()) ?? { r: 0, c: 0 };
    select(back.r, back.c, document.activeElement === document.body || document.activeElement === $('grid'));
  } else showSelection();
  document.body.dataset.refreshes = String(++refreshes);
}

function wire(): void {
  const grid = $('grid');
  // Focusable, so keys typed on the grid reach it (set here: the static page lints tabindex on a table).
  grid.tabIndex = 0;
  grid.addEventListener('keydown', (e) => {
    if (e.target === grid) void onGridKey(e);
  });
  $('grid').addEventListener('mousedown', (e) => {
    const cell = (e.target as HTMLElement).closest('td');
    if (!cell || !state) return;
    e.preventDefault();
    const m = /^([A-Z]+)(\d+)$/.exec(cell.dataset.cell ?? '') as RegExpExecArray;
    const c = state.columns.indexOf(m[1]);
    const r = Number(m[2]) - 1;
    const open = editing;
    if (open)
      void commit(
        open.where === 'cell' ? $<HTMLInputElement>('cell-editor').value : $<HTMLInputElement>('formula-input').value,
        0,
        0,
      );
    sticky = '';
    select(r, c);
  });
  $('grid').addEventListener('dblclick', (e) => {
    if ((e.target as HTMLElement).closest('td')) startEdit(cellInput(selected.r, selected.c), false);
  });
  const editor = $<HTMLInputElement>('cell-editor');
  editor.addEventListener('keydown', (e) => onEditKey(e, editor, 'cell'));
  editor.addEventListener('input', () => {
    $<HTMLInputElement>('formula-input').value = editor.value;
  });
  const bar = $<HTMLInputElement>('formula-input');
  bar.addEventListener('keydown', (e) => onEditKey(e, bar, 'bar'));
  bar.addEventListener('focus', () => {
    if (editing?.where === 'cell') closeEditor();
    editing = { ...selected, original: cellInput(selected.r, selected.c), typed: false, where: 'bar' };
  });
  bar.addEventListener('blur', () => {
    if (editing?.where === 'bar') editing = undefined;
  });
  $('name-box').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void goTo();
    } else if (e.key === 'Escape') select(selected.r, selected.c);
  });
  // Scrolling past the drawn window asks for the rows now in view (and as many around them).
  let pending = false;
  $('grid-wrap').addEventListener('scroll', () => {
    if (pending || !state) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      const wrap = $('grid-wrap');
      const first = Math.floor(wrap.scrollTop / ROW_PX);
      const last = first + Math.ceil(wrap.clientHeight / ROW_PX);
      if (!state || (first >= state.from && last <= state.to) || (state.to >= state.shownRows && first >= state.from))
        return;
      view = { from: Math.max(0, first - WINDOW / 4), count: WINDOW };
      void refresh();
    });
  });
  $('close-sidebar').addEventListener('click', async () => {
    await post('/api/sidebar/close', {});
    await refresh();
  });
  $('close-dialog').addEventListener('click', () => void closeDialog());
  $('dialog').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') void closeDialog();
  });
  for (const [id, hours] of [
    ['advance-hour', 1],
    ['advance-day', 24],
  ] as const) {
    $(id).addEventListener('click', () => void advance(hours));
  }
  $('triggers-button').addEventListener('click', () => {
    $('triggers').hidden = !$('triggers').hidden;
  });
  $('add-sheet').addEventListener('click', async () => {
    const name = prompt('Sheet name');
    // A refused name (one that exists) says why in the status bar, as Sheets does, instead of nothing happening.
    const res = name ? await post('/api/sheet', { name }) : { ok: true };
    sticky = res.ok ? '' : (res.error ?? 'Could not add the sheet.');
    await refresh();
    showSelection();
  });
  window.addEventListener('message', (e) => {
    if (e.data?.type === 'workbench:changed') void refresh();
    const fromDialog = e.source === $<HTMLIFrameElement>('dialog-frame').contentWindow;
    if (e.data?.type === 'workbench:close-sidebar')
      void (fromDialog ? closeDialog() : post('/api/sidebar/close', {}).then(() => refresh()));
  });
  setInterval(() => void refresh(), 1500);
}

wire();
void refresh().then(() => select(0, 0));
