/** Driving saved imports through the bundle's sidebar endpoints, as the sidebar does. */
import type { RunOptions } from '../../dev/emulator/run-types';
import type { Emulator } from '../../dev/emulator/runtime';
import { FIRST_PAGES, nextPages, SECOND_PAGES } from '../../sidebar/pace';
import type { Answer, EndpointName, Endpoints, ImportInput, RunSummary } from '../../src/contract';

export type Summary = RunSummary;

/** Calls a sidebar endpoint as google.script.run does, typed by the contract (src/contract.ts). */
export function call<K extends EndpointName>(
  emu: Emulator,
  name: K,
  args: Parameters<Endpoints[K]>,
  options: RunOptions = {},
): ReturnType<Endpoints[K]> {
  return callUnchecked(emu, name, args, options) as ReturnType<Endpoints[K]>;
}

/** The same without the contract's types: for tests that send what a hostile or broken caller could. */
export function callUnchecked(emu: Emulator, name: string, args: unknown[] = [], options: RunOptions = {}): Answer {
  const r = emu.run<Answer>(name, args, { kind: 'sidebar', ...options });
  if (r.error !== undefined) throw new Error(`${name}: ${r.error}`);
  return r.value as Answer;
}

export function saveImport(emu: Emulator, spec: ImportInput): string {
  const a = call(emu, 'saveImport', [spec]);
  if (!a.ok) throw new Error(a.message);
  return a.import.id;
}

/**
 * Start, then continue until the run is no longer running, each step reading as many pages as its
 * time allows (a schedule's steps do; the sidebar paces its own: paceImport); returns every summary seen.
 */
export function runImport(emu: Emulator, id: string, maxSteps = 200): Summary[] {
  const seen: Summary[] = [];
  let a = call(emu, 'startImport', [id]);
  for (let i = 0; ; i++) {
    if (!a.ok) throw new Error(a.message);
    seen.push(a);
    if (a.status !== 'running' || i >= maxSteps) return seen;
    a = call(emu, 'continueImport', [id]);
  }
}

/**
 * Start, then continue as the sidebar does (sidebar/pace.ts): the first step reads FIRST_PAGES, each
 * later one the pages the last step's pace fits in STEP_TARGET_MS, until the run is no longer
 * running; returns every summary seen. A step's time is its modelled time, where the sidebar's
 * also holds the google.script.run round trip (so the emulator's steps read a few more pages).
 */
export function paceImport(emu: Emulator, id: string, maxSteps = 2000): Summary[] {
  const seen: Summary[] = [];
  const step = (name: 'startImport' | 'continueImport', pages: number) => {
    const r = emu.run<Answer<Summary>>(name, [id, pages], { kind: 'sidebar' });
    if (r.error !== undefined) throw new Error(`${name}: ${r.error}`);
    const a = r.value as Answer<Summary>;
    if (!a.ok) throw new Error(a.message);
    seen.push(a);
    return { a, ms: r.ledger.endedAt - r.ledger.startedAt };
  };
  let { a } = step('startImport', FIRST_PAGES);
  for (let pages = SECOND_PAGES, i = 0; a.status === 'running' && i < maxSteps; i++) {
    const next = step('continueImport', pages);
    pages = nextPages(pages, next.a.page - a.page, next.ms);
    a = next.a;
  }
  return seen;
}

export function sheet(emu: Emulator, name: string): unknown[][] {
  const s = emu.workbook.byName(name);
  if (!s) return [];
  const rows = s.lastRow();
  const cols = s.lastColumn();
  return Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => s.get(r, c)));
}

export function formulasOf(emu: Emulator, name: string): string[] {
  return [...(emu.workbook.byName(name)?.formulas.values() ?? [])];
}
