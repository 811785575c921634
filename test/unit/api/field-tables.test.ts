/**
 * The field tables and operations (src/api/records.ts, operations.ts) are the contract with the
 * service: the OpenAPI document committed in docs/ is generated from them, so any change to a
 * field's name or type, or to an operation's path, shows here as a difference from the committed
 * document (regenerate it with `npx tsx scripts/openapi.ts` when the change is meant).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultOpenApiText } from '../../../scripts/openapi';
import {
  FIELD_TYPES,
  FUND_FIELD_SPECS,
  LP_FIELD_SPECS,
  LP_FIRMS_FIELD_SPECS,
  LP_LABELS_FIELD_SPECS,
} from '../../../src/api/records';
import { OPERATIONS } from '../../../src/api/operations';

test('the committed OpenAPI document is what the field tables and operations describe', () => {
  expect(defaultOpenApiText()).toBe(readFileSync(join(__dirname, '../../../docs/openapi.json'), 'utf8'));
});

test('every table starts with id, and names each field once', () => {
  for (const specs of [LP_FIELD_SPECS, FUND_FIELD_SPECS, LP_FIRMS_FIELD_SPECS, LP_LABELS_FIELD_SPECS]) {
    expect(specs[0]).toEqual({ name: 'id', type: 'string' });
    expect(new Set(specs.map((s) => s.name)).size).toBe(specs.length);
  }
  expect(Object.keys(OPERATIONS)).toHaveLength(7);
});

test('every field has one of the known types', () => {
  const known = new Set<string>(FIELD_TYPES);
  for (const specs of [LP_FIELD_SPECS, FUND_FIELD_SPECS, LP_FIRMS_FIELD_SPECS, LP_LABELS_FIELD_SPECS])
    for (const spec of specs) expect([spec.name, known.has(spec.type)]).toEqual([spec.name, true]);
});
