/** Driving saved imports through the bundle's sidebar endpoints, as the sidebar does. */
import type { RunOptions } from '../../dev/emulator/run-types';
import type { Emulator } from '../../dev/emulator/runtime';
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

/** Start, then continue until the run is no longer running, as the sidebar does (each step as long as its time allows); returns every summary seen. */
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
