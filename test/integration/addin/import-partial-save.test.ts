/**
 * One meaning for a setting left out of saveImport, through the deployed bundle: it stays as saved.
 * A save that names one setting changes that setting and nothing else; null removes the optional
 * ones (filters, sort, sort by fit, history, alert).
 */
import type { ImportInput, ImportView } from '../../../src/contract';
import { addin } from '../../helpers/addin';
import { call, saveImport } from '../../helpers/imports';

/** No request is made by a save: the address only has to be one the add-in accepts. */
const SERVICE = 'http://127.0.0.1:9';

const FULL: ImportInput = {
  sheetName: 'Covered',
  fields: ['id', 'fullName', 'firm', 'ticketSize'],
  mode: 'merge',
  filters: [{ field: 'ticketSize', op: 'atLeast', value: '1000' }],
  sort: [{ field: 'firm', descending: true }],
  history: { keep: 5 },
  alert: { on: ['added', 'changed'], fields: ['firm'] },
};

/** The settings a user chose, as listImports shows them. */
const settingsOf = (v: ImportView | undefined) =>
  v && {
    sheetName: v.sheetName,
    fields: v.fields,
    mode: v.mode,
    filters: v.filters,
    sort: v.sort,
    fit: v.fit,
    history: v.history,
    alert: v.alert && { on: v.alert.on, fields: v.alert.fields, owner: v.alert.owner },
  };

function saved(): { emu: ReturnType<typeof addin>['emu']; id: string; before: ReturnType<typeof settingsOf> } {
  const { emu } = addin(SERVICE);
  const id = saveImport(emu, FULL);
  const list = call(emu, 'listImports', []);
  return { emu, id, before: settingsOf(list.ok ? list.imports[0] : undefined) };
}

const after = (emu: ReturnType<typeof addin>['emu']) => {
  const list = call(emu, 'listImports', []);
  return settingsOf(list.ok ? list.imports[0] : undefined);
};

test('a save naming only the id changes nothing', () => {
  const { emu, id, before } = saved();
  expect(before?.filters).toHaveLength(1);
  expect(call(emu, 'saveImport', [{ id }]).ok).toBe(true);
  expect(after(emu)).toEqual(before);
});

test.each<[string, Partial<ImportInput>, (b: NonNullable<ReturnType<typeof settingsOf>>) => object]>([
  [
    'fields',
    { fields: ['id', 'firm', 'ticketSize', 'region'] },
    () => ({ fields: ['id', 'firm', 'ticketSize', 'region'] }),
  ],
  ['mode', { mode: 'replace' }, () => ({ mode: 'replace' })],
  [
    'filters',
    { filters: [{ field: 'region', op: 'isNotEmpty' }] },
    () => ({ filters: [{ field: 'region', op: 'isNotEmpty' }] }),
  ],
  ['filters removed', { filters: null } as unknown as Partial<ImportInput>, () => ({ filters: undefined })],
  ['sort', { sort: [{ field: 'fullName' }] }, () => ({ sort: [{ field: 'fullName' }] })],
  ['sort removed', { sort: null } as unknown as Partial<ImportInput>, () => ({ sort: undefined })],
  ['history', { history: { keep: 9 } }, (b) => ({ history: { keep: 9, sheet: b.history?.sheet } })],
  ['history off', { history: null }, () => ({ history: undefined })],
  [
    'alert',
    { alert: { on: ['removed'] } },
    (b) => ({ alert: { on: ['removed'], fields: undefined, owner: b.alert?.owner } }),
  ],
  ['alert off', { alert: null }, () => ({ alert: undefined })],
  ['sheet', { sheetName: 'Renamed' }, () => ({ sheetName: 'Renamed' })],
])('a partial save of %s changes only that', (_name, change, expected) => {
  const { emu, id, before } = saved();
  const r = call(emu, 'saveImport', [{ id, ...change } as ImportInput]);
  expect(r.ok ? '' : r.message).toBe('');
  expect(after(emu)).toEqual({ ...before, ...expected(before as NonNullable<typeof before>) });
});

test('sort by fit left out stays; a sort by fields beside it is refused, naming both', () => {
  const { emu } = addin(SERVICE);
  const id = saveImport(emu, { sheetName: 'Targets', fields: ['id', 'fitScore'], fit: { fund: 'vf_0001', top: 10 } });
  expect(call(emu, 'saveImport', [{ id, mode: 'merge' }]).ok).toBe(true);
  expect(after(emu)).toMatchObject({ fit: { fund: 'vf_0001', top: 10 }, fields: ['id', 'fitScore'], mode: 'merge' });
  expect(call(emu, 'saveImport', [{ id, sort: [{ field: 'firm' }] }])).toMatchObject({
    ok: false,
    message: 'Sort by fit to a fund, or by fields: not both.',
  });
  expect(call(emu, 'saveImport', [{ id, fit: null, fields: ['id'], sort: [{ field: 'firm' }] }]).ok).toBe(true);
  expect(after(emu)).toMatchObject({ fit: undefined, sort: [{ field: 'firm' }] });
});

test('a new import takes the defaults for what is left out', () => {
  const { emu } = addin(SERVICE);
  saveImport(emu, { sheetName: 'Plain' });
  expect(after(emu)).toMatchObject({ mode: 'replace', filters: undefined, sort: undefined, history: undefined });
});
