/**
 * Field selection: what an analyst types or points at ("fullName, firm", or a range of names)
 * into the spec's canonical field names. Matching ignores case and spaces; an unknown name is
 * an error that lists the valid ones.
 */
import { badInput } from '../api/errors';
import type { FieldSpec } from '../api/records';

export function flattenCells(input: unknown): unknown[] {
  return Array.isArray(input) ? input.flat(2) : [input];
}

/** The selected fields, in the order given, without repeats; all fields when nothing is selected. */
export function parseFields(input: unknown, specs: readonly FieldSpec[], what: string): FieldSpec[] {
  const names = flattenCells(input)
    .filter((v) => v !== undefined && v !== null)
    .flatMap((v) => {
      if (typeof v !== 'string')
        throw badInput(`Field names must be text; got ${typeof v === 'number' ? 'a number' : typeof v}.`);
      return v.split(/[,;\n]/);
    })
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) return [...specs];
  const byKey = new Map(specs.map((s) => [s.name.toLowerCase(), s]));
  const chosen: FieldSpec[] = [];
  for (const name of names) {
    const spec = byKey.get(name.replace(/\s+/g, '').toLowerCase());
    if (!spec) {
      const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
      throw badInput(`Unknown ${what} field "${shown}". Valid fields: ${specs.map((s) => s.name).join(', ')}.`);
    }
    if (!chosen.includes(spec)) chosen.push(spec);
  }
  return chosen;
}
