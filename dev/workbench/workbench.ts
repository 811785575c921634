/**
 * The workbench's state: one emulator running the deployed bundle against a workbook that
 * survives restarts (saved as JSON under a git-ignored folder; a file that cannot be read is set
 * aside with a message and never blocks the start), the formula engine for the add-in's
 * functions (formulas typed in the page and formulas a script wrote alike), an undo stack of the
 * page's edits, a simulated clock that never runs behind the wall clock, and the actions the page
 * and the sidebar take on it.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptRunHost } from '../emulator/hosts';
import { Emulator } from '../emulator/runtime';
import type { SentMail } from '../emulator/mail';
import type { TriggerRecord } from '../emulator/script-app';
import { type CellValue, columnLetters, interpretInput, parseA1, type SheetData, Workbook } from '../emulator/workbook';
import { CUSTOM_FUNCTION_NAMES } from '../../src/table/names';
import { every } from '../../src/api/numbers';
import { FormulaEngine, isAddinFormula, type SpillOwner } from './formulas';
import { cellView } from './display';

export interface WorkbenchOptions {
  serviceUrl: string;
  stateDir: string;
  /** Let the add-in fetch from another machine (when --service-url points elsewhere). */
  allowRemoteHosts?: boolean;
  distDir?: string;
}

interface Saved {
  workbook: unknown;
  properties: Array<[string, Array<[string, string]>]>;
  triggers: { triggers: TriggerRecord[]; nextId: number };
  owners: SpillOwner[];
  clock: number;
  /** Mail the add-in sent (the mail panel). */
  mail?: SentMail[];
}

/** What a cell held before an edit of the page, for Ctrl-Z. */
interface Edit {
  sheet: string;
  row: number;
  col: number;
  value: CellValue;
  formula?: string;
}

const MAX_UNDO = 100;
/** Rows of cells one snapshot sends at most: the page asks for the window it shows (and its frozen rows). */
export const MAX_WINDOW_ROWS = 500;

/** Reads the saved state; a file that cannot be read is renamed aside and reported, never fatal. */
function loadState(file: string): { saved?: Saved; workbook?: Workbook; notice?: string } {
  if (!existsSync(file)) return {};
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Saved;
    const workbook = Workbook.fromJSON(saved.workbook);
    const stores =
      Array.isArray(saved.properties) &&
      saved.properties.every((p) => Array.isArray(p) && typeof p[0] === 'string' && Array.isArray(p[1]));
    if (!workbook.sheets.length || !stores || !Array.isArray(saved.triggers?.triggers))
      throw new Error('parts of it are missing');
    return { saved, workbook };
  } catch (e) {
    const aside = `${file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, aside);
    return {
      notice: `The saved workbench state could not be read (${(e as Error).message}); it was set aside as ${aside} and the workbench starts with an empty workbook. Your key is in that file's user properties if you need it.`,
    };
  }
}

export class Workbench {
  readonly emu: Emulator;
  readonly engine: FormulaEngine;
  readonly host: ScriptRunHost;
  /** Set when the saved state could not be read (the CLI prints it). */
  readonly notice: string | undefined;
  private readonly file: string;
  private readonly undo: Edit[] = [];
  /** The dialog the add-in last showed (Ui.showModalDialog), until the page closes it; `id` tells a new one. */
  dialog: { id: number; title: string; html: string } | undefined;
  private dialogs = 0;

  constructor(readonly options: WorkbenchOptions) {
    this.file = join(options.stateDir, 'state.json');
    const { saved, workbook, notice } = loadState(this.file);
    this.notice = notice;
    const book = workbook ?? new Workbook('workbench', 'Investor Data workbench');
    this.emu = new Emulator({
      distDir: options.distDir,
      workbook: book,
      // The same document across restarts, so the saved triggers are this document's.
      documentId: book.id,
      startTime: Math.max(saved?.clock ?? 0, Date.now()),
      allowRemoteHosts: options.allowRemoteHosts,
    });
    // Executions move the simulated clock by their simulated costs; between them it must still keep up with real time.
    const clock = this.emu.clock;
    clock.now = () => {
      clock.nowMs = Math.max(clock.nowMs, Date.now());
      return clock.nowMs;
    };
    if (saved) {
      for (const [scope, entries] of saved.properties) this.emu.properties.set(scope, new Map(entries));
      Object.assign(this.emu.triggers, saved.triggers);
      // State saved before triggers named their document: the workbench has only this one.
      for (const t of this.emu.triggers.triggers) t.documentId ??= this.emu.documentId;
      if (Array.isArray(saved.mail)) this.emu.mail.sent.push(...saved.mail);
    }
    this.engine = new FormulaEngine(this.emu, CUSTOM_FUNCTION_NAMES);
    for (const o of saved?.owners ?? []) this.engine.owners.set(`${o.sheet}!${o.row},${o.col}`, o);
    this.host = new ScriptRunHost(this.emu);
    this.emu.store('document').set('INVESTOR_DATA_BASE_URL', options.serviceUrl);
    // Starting the workbench on a service is its one user confirming that address for their saved key.
    for (const [scope, store] of this.emu.properties)
      if (scope.startsWith('user:') && store.has('INVESTOR_DATA_API_KEY'))
        store.set('INVESTOR_DATA_KEY_ADDRESS', options.serviceUrl);
    this.open();
  }

  /** What Sheets does when the spreadsheet opens: the onOpen simple trigger builds the menu. */
  open(): void {
    this.emu.workbook.menus.clear();
    this.emu.run('onOpen', [{ authMode: 'LIMITED' }], { kind: 'simple-trigger' });
  }

  /**
   * Written to a temporary file first, so a crash mid-write never leaves half a file; readable by
   * its owner only (it holds the API key, as user properties would), in a folder only they can open.
   */
  save(): void {
    mkdirSync(this.options.stateDir, { recursive: true, mode: 0o700 });
    const saved: Saved = {
      workbook: this.emu.workbook.toJSON(),
      properties: [...this.emu.properties].map(([scope, m]) => [scope, [...m]]),
      triggers: { triggers: this.emu.triggers.triggers, nextId: this.emu.triggers.nextId },
      owners: [...this.engine.owners.values()],
      clock: this.emu.clock.now(),
      mail: this.emu.mail.sent.slice(-MAX_MAIL_SHOWN),
    };
    writeFileSync(`${this.file}.tmp`, JSON.stringify(saved), { mode: 0o600 });
    chmodSync(`${this.file}.tmp`, 0o600);
    renameSync(`${this.file}.tmp`, this.file);
  }

  private sheet(name: string): SheetData {
    const s = this.emu.workbook.byName(name);
    if (!s) throw new Error(`No sheet named ${name}`);
    return s;
  }

  /** A single cell of the sheet, or an error that says why not. */
  private cell(s: SheetData, a1: string): { row: number; col: number } {
    let p: ReturnType<typeof parseA1>;
    try {
      p = parseA1(a1);
    } catch {
      throw new Error(`${a1} is not a cell address (like B3).`);
    }
    if (p.r1 < 1 || p.c1 < 1 || p.r1 > s.maxRows || p.c1 > s.maxCols)
      throw new Error(`${a1} is outside the sheet (${s.maxRows} rows, columns A to ${columnLetters(s.maxCols)}).`);
    return { row: p.r1 - 1, col: p.c1 - 1 };
  }

  /** Puts a value or a formula in a cell as the page does, then recomputes what depends on it. */
  private put(sheetName: string, row: number, col: number, value: CellValue, formula?: string): string | undefined {
    const s = this.sheet(sheetName);
    this.engine.release(sheetName, row, col);
    let error: string | undefined;
    if (formula) error = this.engine.evaluate(sheetName, row, col, formula)?.error;
    else {
      const key = `${sheetName}!${row},${col}`;
      const owner = this.engine.owners.get(key);
      if (owner) {
        for (const [r, c] of owner.cells) s.set(r, c, '');
        this.engine.owners.delete(key);
      }
      s.set(row, col, value);
    }
    this.engine.recomputeAfterEdit(sheetName, row, col);
    return error;
  }

  /** Types into a cell, as in Sheets: `=` starts a formula, anything else is a value. Returns the formula's error, if any. */
  setCell(sheetName: string, a1: string, input: string): { error?: string } {
    const s = this.sheet(sheetName);
    const { row, col } = this.cell(s, a1);
    const parsed = interpretInput(input);
    const key = `${row},${col}`;
    const spilled = [...this.engine.owners.values()].some(
      (o) =>
        o.sheet === sheetName && (o.row !== row || o.col !== col) && o.cells.some(([r, c]) => r === row && c === col),
    );
    this.undo.push({ sheet: sheetName, row, col, value: spilled ? '' : s.get(row, col), formula: s.formulas.get(key) });
    if (this.undo.length > MAX_UNDO) this.undo.shift();
    const error = this.put(sheetName, row, col, parsed.value, parsed.formula);
    this.save();
    return error ? { error } : {};
  }

  /** Ctrl-Z: puts back what the last edit of the page replaced. */
  undoLast(): { sheet?: string; a1?: string } {
    const edit = this.undo.pop();
    if (!edit || !this.emu.workbook.byName(edit.sheet)) return {};
    this.put(edit.sheet, edit.row, edit.col, edit.value, edit.formula);
    this.save();
    return { sheet: edit.sheet, a1: `${columnLetters(edit.col + 1)}${edit.row + 1}` };
  }

  /** Runs the bundle with every sheet noting what it writes, then evaluates the add-in formulas the script wrote, as Sheets would. */
  private withScript<T>(run: () => T): T {
    for (const s of this.emu.workbook.sheets) s.written = new Set();
    const since = this.emu.history.length;
    try {
      return run();
    } finally {
      this.afterScript(since);
    }
  }

  /** What executions since `since` left for the page: the last dialog one showed, the formulas they wrote evaluated. */
  private afterScript(since: number): void {
    const shown = this.emu.history
      .slice(since)
      .flatMap((ledger) => ledger.dialogs)
      .pop();
    if (shown) this.dialog = { id: ++this.dialogs, title: shown.title, html: shown.html };
    const written = new Map<string, Set<string>>();
    for (const s of this.emu.workbook.sheets) {
      if (s.written) written.set(s.name, s.written);
      s.written = undefined;
    }
    this.engine.prune(written);
    for (const s of this.emu.workbook.sheets) {
      const w = written.get(s.name);
      for (const [key, formula] of [...s.formulas]) {
        if (!isAddinFormula(formula, CUSTOM_FUNCTION_NAMES)) continue;
        const owner = this.engine.owners.get(`${s.name}!${key}`);
        if (owner?.formula === formula && !w?.has(key)) continue;
        const [row, col] = key.split(',').map(Number);
        this.engine.evaluate(s.name, row, col, formula);
      }
    }
    this.save();
  }

  runMenu(functionName: string): { error?: string } {
    const r = this.withScript(() => this.emu.run(functionName, [], { kind: 'menu' }));
    return r.error ? { error: r.error } : {};
  }

  async scriptRun(name: string, args: unknown[]): Promise<unknown> {
    for (const s of this.emu.workbook.sheets) s.written ??= new Set();
    const since = this.emu.history.length;
    try {
      return await this.host.call(name, args);
    } finally {
      this.afterScript(since);
    }
  }

  /** Fires one trigger now, as Google would when it falls due; says what ran and how it ended. */
  fireTrigger(id: string): { error?: string; message: string } {
    const t = this.emu.triggers.triggers.find((x) => x.id === id);
    if (!t) return { error: `No trigger ${id}`, message: `No trigger ${id}: it was removed meanwhile.` };
    if (t.oneOff) this.emu.triggers.triggers = this.emu.triggers.triggers.filter((x) => x !== t);
    else t.nextRunAt = this.emu.clock.now() + (t.periodMs as number);
    const r = this.withScript(() =>
      this.emu.run(t.handler, [{ triggerUid: t.id, authMode: 'FULL' }], { kind: 'trigger', user: t.user }),
    );
    return {
      ...(r.error ? { error: r.error } : {}),
      message: ranText([{ handler: t.handler, error: r.error }], this.emu.clock.now()),
    };
  }

  /**
   * One step of moving the simulated clock to `until` (as Google would fire triggers over that
   * time): the triggers that fall due first on the way run, each as its own execution, or, when
   * none is left before `until`, the clock moves there. The page asks step after step, so it can
   * show each run as it ends instead of one wait for them all.
   */
  advanceStep(until: number): { message: string; ran: number; failed: number; done: boolean } {
    const dueBy = (t: number) =>
      this.emu.triggers.triggers.filter((x) => x.documentId === this.emu.documentId && x.nextRunAt <= t);
    const first = Math.min(...dueBy(until).map((t) => t.nextRunAt));
    const runs: Array<{ handler: string; error?: string }> = [];
    if (Number.isFinite(first)) {
      this.withScript(() => {
        for (const r of this.emu.advance(Math.max(0, first - this.emu.clock.now())))
          runs.push({ handler: r.ledger.name, error: r.error });
      });
    }
    const done = dueBy(until).length === 0;
    if (done && this.emu.clock.now() < until) this.emu.advance(until - this.emu.clock.now());
    return {
      message: ranText(runs, this.emu.clock.now()),
      ran: runs.length,
      failed: runs.filter((r) => r.error).length,
      done,
    };
  }

  addSheet(name: string): void {
    if (this.emu.workbook.byName(name)) throw new Error(`A sheet named "${name}" already exists.`);
    this.emu.workbook.addSheet(name);
    this.emu.workbook.active = this.emu.workbook.sheets.length - 1;
    this.save();
  }

  /**
   * The page's view of the active sheet: its cells as displayed (by type and number format), what
   * each holds (kind, and the text to edit where it differs from the display), formulas' errors,
   * plus tabs, menus, sidebar, toasts and triggers. The sheet's extent is its data and a few
   * columns and rows beyond (at least `want` rows and columns when the page asks for them), every
   * row of it scrollable; the cells sent are those of the page's window (`from`, `count` rows),
   * keyed by row, and of the frozen rows, which the page keeps in view.
   */
  snapshot(
    sheetIndex?: number,
    want: { rows?: number; cols?: number; from?: number; count?: number } = {},
  ): Record<string, unknown> {
    const wb = this.emu.workbook;
    if (sheetIndex !== undefined && sheetIndex >= 0 && sheetIndex < wb.sheets.length) wb.active = sheetIndex;
    const s = wb.sheets[wb.active];
    const rows = s.lastRow();
    const cols = Math.min(s.maxCols, Math.max(s.lastColumn() + 3, DEFAULT_VIEW_COLS, want.cols ?? 0));
    const shown = Math.min(s.maxRows, Math.max(rows + 20, DEFAULT_VIEW_ROWS, want.rows ?? 0));
    const from = Math.max(0, Math.min(Math.floor(want.from ?? 0), shown - 1));
    const to = Math.min(
      shown,
      from + Math.max(1, Math.min(Math.floor(want.count ?? FIRST_WINDOW_ROWS), MAX_WINDOW_ROWS)),
    );
    const frozen = Math.min(s.frozenRows, shown);
    const errors: Record<string, string> = {};
    for (const o of this.engine.owners.values())
      if (o.sheet === s.name && o.error) errors[`${o.row},${o.col}`] = o.error;
    const cells: Record<number, string[]> = {};
    const kinds: Record<number, string> = {};
    const inputs: Record<string, string> = {};
    const sent = [
      ...Array.from({ length: frozen }, (_, r) => r),
      ...Array.from({ length: to - from }, (_, i) => from + i).filter((r) => r >= frozen),
    ];
    for (const r of sent) {
      const texts: string[] = [];
      let kind = '';
      for (let c = 0; c < cols; c++) {
        const key = `${r},${c}`;
        const formula = s.formulas.get(key);
        const v = cellView(
          s.get(r, c),
          s.formats.get(key),
          formula,
          !!formula && !this.engine.owners.has(`${s.name}!${key}`),
        );
        texts.push(v.text);
        kind += v.kind;
        if (v.input !== v.text) inputs[key] = v.input;
      }
      cells[r] = texts;
      kinds[r] = kind;
    }
    return {
      sheets: wb.sheets.map((x) => ({ name: x.name, hidden: x.hidden })),
      active: wb.active,
      rows,
      shownRows: shown,
      from,
      to,
      maxRows: s.maxRows,
      maxCols: s.maxCols,
      frozenRows: frozen,
      columns: Array.from({ length: cols }, (_, c) => columnLetters(c + 1)),
      cells,
      kinds,
      inputs,
      errors,
      protections: s.protections.map((p) => ({
        r: p.r,
        c: p.c,
        rows: p.sheet ? s.maxRows : p.rows,
        cols: p.sheet ? s.maxCols : p.cols,
        description: p.description,
        warningOnly: p.warningOnly,
      })),
      menus: Object.fromEntries(wb.menus),
      sidebar: wb.sidebar ? { title: wb.sidebar.title } : null,
      dialog: this.dialog ? { id: this.dialog.id, title: this.dialog.title } : null,
      toasts: wb.toasts.slice(-3),
      triggers: this.emu.triggers.triggers.map((t) => ({
        id: t.id,
        handler: t.handler,
        nextRunAt: t.nextRunAt,
        every: t.periodMs ? period(t.periodMs) : 'once',
      })),
      clock: this.emu.clock.now(),
      mail: this.emu.mail.sent
        .slice(-MAX_MAIL_SHOWN)
        .reverse()
        .map((m) => ({
          at: m.at,
          from: m.from,
          to: [...m.to, ...m.cc, ...m.bcc].join(', '),
          subject: m.subject,
          body: m.body,
          html: m.htmlBody ?? '',
        })),
      notice: this.notice ?? null,
    };
  }
}

/** A trigger's period as people say it: `every hour`, `every 6 hours`, `every 30 minutes`. */
function period(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes % (24 * 60) === 0) return every(minutes / (24 * 60), 'day');
  return minutes % 60 === 0 ? every(minutes / 60, 'hour') : every(minutes, 'minute');
}

/** What a trigger run (or a clock move) did, for the triggers panel: each handler that ran and how it ended. */
function ranText(runs: ReadonlyArray<{ handler: string; error?: string }>, now: number): string {
  const at = new Date(now).toISOString().slice(0, 16).replace('T', ' ');
  if (!runs.length) return `Clock at ${at} UTC: no trigger fell due.`;
  return `Clock at ${at} UTC: ${runs.map((r) => (r.error ? `${r.handler} failed (${r.error})` : `${r.handler} ran`)).join('; ')}.`;
}

const DEFAULT_VIEW_COLS = 26;
const DEFAULT_VIEW_ROWS = 100;
/** Sent mail kept and shown (newest first). */
const MAX_MAIL_SHOWN = 50;
/** Rows of cells sent when the page names no window (its first load). */
const FIRST_WINDOW_ROWS = 200;
