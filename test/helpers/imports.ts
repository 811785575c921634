/** Driving saved imports through the bundle's sidebar endpoints, as the sidebar does. */
import type { Emulator, RunOptions } from '../../dev/emulator/runtime';

export interface Summary { status: string; page: number; totalPages: number; rows: number; totalItems: number; message: string }
type Answer<T> = ({ ok: true } & T) | { ok: false; code: string; message: string };

export function call<T>(emu: Emulator, name: string, args: unknown[] = [], options: RunOptions = {}): Answer<T> {
  const r = emu.run<Answer<T>>(name, args, { kind: 'sidebar', ...options });
  if (r.error !== undefined) throw new Error(`${name}: ${r.error}`);
  return r.value as Answer<T>;
}

export function saveImport(emu: Emulator, spec: Record<string, unknown>): string {
  const a = call<{ import: { id: string } }>(emu, 'saveImport', [spec]);
  if (!a.ok) throw new Error(a.message);
  return a.import.id;
}

/** Start, then continue until the run is no longer running; returns every summary seen. */
export function runImport(emu: Emulator, id: string, maxSteps = 200): Summary[] {
  const seen: Summary[] = [];
  let a = call<Summary>(emu, 'startImport', [id]);
  for (let i = 0; ; i++) {
    if (!a.ok) throw new Error(a.message);
    seen.push(a);
    if (a.status !== 'running' || i >= maxSteps) return seen;
    a = call<Summary>(emu, 'continueImport', [id]);
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
