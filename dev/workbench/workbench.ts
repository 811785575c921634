/**
 * The workbench's state: one emulator running the deployed bundle against a workbook that
 * survives restarts (saved as JSON under a git-ignored folder), the formula engine for the
 * add-in's functions, and the actions the page and the sidebar take on it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptRunHost } from '../emulator/hosts';
import { isDate } from '../emulator/realm';
import { Emulator } from '../emulator/runtime';
import type { TriggerRecord } from '../emulator/script-app';
import { columnLetters, interpretInput, parseA1, Workbook } from '../emulator/workbook';
import { CUSTOM_FUNCTION_NAMES } from '../../src/table/names';
import { FormulaEngine, type SpillOwner } from './formulas';

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
}


export function display(v: unknown): string {
  if (isDate(v)) return v.toISOString().replace('T', ' ').slice(0, 16);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return v === undefined || v === null ? '' : String(v);
}

export class Workbench {
  readonly emu: Emulator;
  readonly engine: FormulaEngine;
  readonly host: ScriptRunHost;
  private readonly file: string;

  constructor(readonly options: WorkbenchOptions) {
    this.file = join(options.stateDir, 'state.json');
    const saved = existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Saved) : undefined;
    this.emu = new Emulator({
      distDir: options.distDir,
      workbook: saved ? Workbook.fromJSON(saved.workbook) : new Workbook('workbench', 'Investor Data workbench'),
      startTime: saved?.clock ?? Date.now(),
      allowRemoteHosts: options.allowRemoteHosts,
    });
    if (saved) {
      for (const [scope, entries] of saved.properties) this.emu.properties.set(scope, new Map(entries));
      Object.assign(this.emu.triggers, saved.triggers);
    }
    this.engine = new FormulaEngine(this.emu, CUSTOM_FUNCTION_NAMES);
    for (const o of saved?.owners ?? []) this.engine.owners.set(`${o.sheet}!${o.row},${o.col}`, o);
    this.host = new ScriptRunHost(this.emu);
    this.emu.store('document').set('INVESTOR_DATA_BASE_URL', options.serviceUrl);
    // Starting the workbench on a service is its one user confirming that address for their saved key.
    for (const [scope, store] of this.emu.properties) if (scope.startsWith('user:') && store.has('INVESTOR_DATA_API_KEY')) store.set('INVESTOR_DATA_KEY_ADDRESS', options.serviceUrl);
    this.open();
  }

  /** What Sheets does when the spreadsheet opens: the onOpen simple trigger builds the menu. */
  open(): void {
    this.emu.workbook.menus.clear();
    this.emu.run('onOpen', [{ authMode: 'LIMITED' }], { kind: 'simple-trigger' });
  }

  save(): void {
    mkdirSync(this.options.stateDir, { recursive: true });
    const saved: Saved = {
      workbook: this.emu.workbook.toJSON(),
      properties: [...this.emu.properties].map(([scope, m]) => [scope, [...m]]),
      triggers: { triggers: this.emu.triggers.triggers, nextId: this.emu.triggers.nextId },
      owners: [...this.engine.owners.values()],
      clock: this.emu.clock.now(),
    };
    writeFileSync(this.file, JSON.stringify(saved));
  }

  /** Types into a cell, as in Sheets: `=` starts a formula, anything else is a value. */
  setCell(sheetName: string, a1: string, input: string): void {
    const { r1, c1 } = parseA1(a1);
    const s = this.emu.workbook.byName(sheetName);
    if (!s) throw new Error(`No sheet named ${sheetName}`);
    const [row, col] = [r1 - 1, c1 - 1];
    if (input.startsWith('=')) this.engine.evaluate(sheetName, row, col, input);
    else {
      const key = `${sheetName}!${row},${col}`;
      const owner = this.engine.owners.get(key);
      if (owner) {
        for (const [r, c] of owner.cells) s.set(r, c, '');
        this.engine.owners.delete(key);
      }
      const parsed = interpretInput(input);
      s.set(row, col, parsed.value, parsed.formula);
    }
    this.engine.recomputeAfterEdit(sheetName, row, col);
    this.save();
  }

  runMenu(functionName: string): { error?: string } {
    const r = this.emu.run(functionName, [], { kind: 'menu' });
    this.engine.prune();
    this.save();
    return r.error ? { error: r.error } : {};
  }

  async scriptRun(name: string, args: unknown[]): Promise<unknown> {
    try {
      return await this.host.call(name, args);
    } finally {
      this.engine.prune();
      this.save();
    }
  }

  /** Fires one trigger now, as Google would when it falls due. */
  fireTrigger(id: string): { error?: string } {
    const t = this.emu.triggers.triggers.find((x) => x.id === id);
    if (!t) return { error: `No trigger ${id}` };
    if (t.oneOff) this.emu.triggers.triggers = this.emu.triggers.triggers.filter((x) => x !== t);
    else t.nextRunAt = this.emu.clock.now() + (t.periodMs as number);
    const r = this.emu.run(t.handler, [{ triggerUid: t.id, authMode: 'FULL' }], { kind: 'trigger', user: t.user });
    this.save();
    return r.error ? { error: r.error } : {};
  }

  addSheet(name: string): void {
    if (this.emu.workbook.byName(name)) throw new Error(`A sheet named "${name}" already exists.`);
    this.emu.workbook.addSheet(name);
    this.emu.workbook.active = this.emu.workbook.sheets.length - 1;
    this.save();
  }

  /** The page's view: sheet tabs, the active sheet's first rows as text, formulas, errors, menus, sidebar, triggers. */
  snapshot(sheetIndex?: number, maxRows = 500): Record<string, unknown> {
    const wb = this.emu.workbook;
    if (sheetIndex !== undefined && sheetIndex >= 0 && sheetIndex < wb.sheets.length) wb.active = sheetIndex;
    const s = wb.sheets[wb.active];
    const rows = s.lastRow();
    const cols = Math.max(s.lastColumn(), 8);
    const shown = Math.min(Math.max(rows, 30), maxRows);
    const errors: Record<string, string> = {};
    for (const o of this.engine.owners.values()) if (o.sheet === s.name && o.error) errors[`${o.row},${o.col}`] = o.error;
    return {
      sheets: wb.sheets.map((x) => ({ name: x.name, hidden: x.hidden })),
      active: wb.active,
      rows, cols, shownRows: shown, frozenRows: s.frozenRows,
      columns: Array.from({ length: cols }, (_, c) => columnLetters(c + 1)),
      cells: Array.from({ length: shown }, (_, r) => Array.from({ length: cols }, (_, c) => display(s.get(r, c)))),
      formulas: Object.fromEntries(s.formulas),
      errors,
      menus: Object.fromEntries(wb.menus),
      sidebar: wb.sidebar ? { title: wb.sidebar.title } : null,
      toasts: wb.toasts.slice(-3),
      triggers: this.emu.triggers.triggers.map((t) => ({ id: t.id, handler: t.handler, nextRunAt: t.nextRunAt, every: t.periodMs ? `${t.periodMs / 60000} min` : 'once' })),
      clock: this.emu.clock.now(),
    };
  }
}
