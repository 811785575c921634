/**
 * A saved import updated by a save that names only some settings: what is left out stays as
 * saved (the sheet, the columns, the mode, the filters, the sort, the sort by fit), an empty list
 * of columns is the default columns, and a new import takes the defaults.
 */
import { checkSpec, DEFAULT_IMPORT_FIELDS, type ImportSpec } from '../../../src/import/spec';

const saved: ImportSpec = {
  id: 'imp0',
  sheetName: 'Partners',
  fields: ['id', 'firm', 'ticketSize'],
  mode: 'merge',
  filters: [{ field: 'region', op: 'isNotEmpty' }],
  sort: [{ field: 'firm', descending: true }],
};
const fitted: ImportSpec = {
  id: 'imp1',
  sheetName: 'Targets',
  fields: ['id', 'fitScore'],
  mode: 'replace',
  fit: { fund: 'vf_0001', top: 5 },
};
const newId = () => 'new';

test('a save naming only the id keeps every setting', () => {
  expect(checkSpec({ id: 'imp0' }, [saved], newId)).toEqual({
    ...saved,
    schedule: undefined,
    nextDueAt: undefined,
    last: undefined,
    replaceAnyway: undefined,
  });
});

test('columns left out stay as saved; an empty list is the default columns', () => {
  expect(checkSpec({ id: 'imp0', mode: 'replace' }, [saved], newId).fields).toEqual(['id', 'firm', 'ticketSize']);
  expect(checkSpec({ id: 'imp0', fields: [] }, [saved], newId).fields).toEqual([...DEFAULT_IMPORT_FIELDS]);
  expect(checkSpec({ sheetName: 'Other' }, [saved], newId).fields).toEqual([...DEFAULT_IMPORT_FIELDS]);
});

test('the sheet left out stays as saved; a new import must name one', () => {
  expect(checkSpec({ id: 'imp0', mode: 'replace' }, [saved], newId).sheetName).toBe('Partners');
  expect(() => checkSpec({ mode: 'replace' }, [saved], newId)).toThrow('Give the sheet a name.');
});

test('sort by fit left out stays as saved; null removes it', () => {
  expect(checkSpec({ id: 'imp1', mode: 'merge' }, [fitted], newId).fit).toEqual({ fund: 'vf_0001', top: 5 });
  expect(checkSpec({ id: 'imp1', fit: null, fields: ['id'] }, [fitted], newId).fit).toBeUndefined();
});

test('filters and sort left out stay; null removes them', () => {
  const kept = checkSpec({ id: 'imp0', mode: 'replace' }, [saved], newId);
  expect([kept.filters, kept.sort]).toEqual([saved.filters, saved.sort]);
  const removed = checkSpec({ id: 'imp0', filters: null, sort: null } as never, [saved], newId);
  expect([removed.filters, removed.sort, removed.mode]).toEqual([undefined, undefined, 'merge']);
});

test('Replace anyway on every run left out stays; null or false turns it off; a save cannot turn it on', () => {
  const forced: ImportSpec = { ...saved, mode: 'replace', replaceAnyway: true };
  expect(checkSpec({ id: 'imp0', sort: null }, [forced], newId).replaceAnyway).toBe(true);
  expect(checkSpec({ id: 'imp0', replaceAnyway: null }, [forced], newId)).toEqual({
    ...forced,
    schedule: undefined,
    nextDueAt: undefined,
    last: undefined,
    replaceAnyway: undefined,
  });
  expect(checkSpec({ id: 'imp0', replaceAnyway: false }, [forced], newId).replaceAnyway).toBeUndefined();
  expect(() => checkSpec({ id: 'imp0', replaceAnyway: true }, [saved], newId)).toThrow(
    'Replace anyway is turned on by pressing Replace anyway on a refused run',
  );
});
