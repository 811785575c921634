/**
 * A saved import's options beyond its table: the history of runs kept beside it (how many runs,
 * the sheet it goes in, which must not be another import's sheet), the alert mailed to its owner
 * (on which changes, of which fields, and that only its owner may change or remove it), and what
 * an update keeps of the import saved before (its id, its Replace anyway choice).
 */
import { checkSheetName } from '../../../src/import/spec';
import { listedName } from '../../../src/import/run-state';
import {
  type Alert,
  checkAlert,
  checkHistory,
  checkSpec,
  historySheetName,
  type ImportSpec,
} from '../../../src/import/spec';

const saved = (id: string, sheetName: string, extra: Partial<ImportSpec> = {}): ImportSpec => ({
  id,
  sheetName,
  fields: ['id', 'fullName'],
  mode: 'replace',
  ...extra,
});
const newId = () => 'new';

describe('history', () => {
  test('keeps 1 to 100 runs, whole numbers only', () => {
    expect(checkHistory({ keep: 1 }, undefined, 'Partners', [])).toEqual({ keep: 1, sheet: 'Partners history' });
    expect(checkHistory({ keep: 100 }, undefined, 'Partners', [])).toEqual({ keep: 100, sheet: 'Partners history' });
    for (const keep of [0, 101, 2.5, '3', undefined])
      expect(() => checkHistory({ keep }, undefined, 'Partners', [])).toThrow('History keeps 1 to 100 runs.');
  });

  test('left out keeps what was saved; null removes it; its sheet stays the one recorded', () => {
    const before = { keep: 7, sheet: 'Old history' };
    expect(checkHistory(undefined, before, 'Partners', [])).toEqual(before);
    expect(checkHistory({ keep: 3 }, before, 'Partners', [])).toEqual({ keep: 3, sheet: 'Old history' });
    expect(checkHistory(null, before, 'Partners', [])).toBeUndefined();
  });

  test('its sheet is named after the table, fits a sheet name, and is numbered when the name is taken', () => {
    expect(historySheetName('Partners', [])).toBe('Partners history');
    const long = 'x'.repeat(100);
    expect(checkSheetName(historySheetName(long, []))).toBe(`${'x'.repeat(92)} history`);
    expect(historySheetName(long, [`${'x'.repeat(92)} history`])).toBe(`${'x'.repeat(90)} history 2`);
    expect(historySheetName('Partners', ['partners HISTORY', 'Partners history 2'])).toBe('Partners history 3');
  });

  test('two imports whose sheet names differ only after character 92 keep two history sheets', () => {
    const a = checkSpec({ sheetName: `${'x'.repeat(95)}a`, history: { keep: 2 } }, [], () => 'a');
    const b = checkSpec({ sheetName: `${'x'.repeat(95)}b`, history: { keep: 2 } }, [a], () => 'b');
    expect(a.history?.sheet).toBe(`${'x'.repeat(92)} history`);
    expect(b.history?.sheet).toBe(`${'x'.repeat(90)} history 2`);
  });

  test('a saved import keeps its history, and an update can change or remove it', () => {
    const first = checkSpec({ sheetName: 'Partners', history: { keep: 5 } }, [], newId);
    expect(first.history).toEqual({ keep: 5, sheet: 'Partners history' });
    expect(checkSpec({ id: 'new', sheetName: 'Partners' }, [first], newId).history).toEqual(first.history);
    expect(checkSpec({ id: 'new', sheetName: 'Partners', history: null }, [first], newId)).not.toHaveProperty(
      'history',
    );
  });

  test("a new history avoids another import's table", () => {
    const other = saved('a', 'Partners history');
    expect(checkSpec({ sheetName: 'Partners', history: { keep: 2 } }, [other], newId).history?.sheet).toBe(
      'Partners history 2',
    );
  });

  test("an import cannot write another import's history sheet", () => {
    const other = saved('a', 'Partners', { history: { keep: 2, sheet: 'Partners history' } });
    expect(() => checkSpec({ sheetName: 'partners HISTORY' }, [other], newId)).toThrow(
      'The sheet "partners HISTORY" keeps the history of the import into "Partners"; pick another sheet name.',
    );
    // the other import without history keeps no such sheet
    expect(checkSpec({ sheetName: 'Partners history' }, [saved('a', 'Partners')], newId).sheetName).toBe(
      'Partners history',
    );
  });

  test('imports with history beside unrelated imports save', () => {
    const others = [saved('a', 'Firms', { history: { keep: 2, sheet: 'Firms history' } }), saved('b', 'Funds')];
    expect(checkSpec({ sheetName: 'Partners', history: { keep: 2 } }, others, newId).history).toEqual({
      keep: 2,
      sheet: 'Partners history',
    });
  });

  test('an import cannot move its table onto its own history sheet', () => {
    const self = saved('a', 'S', { history: { keep: 3, sheet: 'S history' } });
    expect(() => checkSpec({ id: 'a', sheetName: 's HISTORY' }, [self], newId)).toThrow(
      '"s HISTORY" keeps this import\'s history; pick another sheet name, or switch history off first.',
    );
    expect(checkSpec({ id: 'a', sheetName: 'S history', history: null }, [self], newId).sheetName).toBe('S history');
  });

  test('an import may move its table onto the sheet its own history would clash with', () => {
    const self = saved('a', 'Partners history');
    const moved = checkSpec({ id: 'a', sheetName: 'Partners', history: { keep: 2 } }, [self], newId);
    expect(moved).toMatchObject({ id: 'a', sheetName: 'Partners', history: { keep: 2, sheet: 'Partners history' } });
  });
});

describe('which saved import an update changes', () => {
  test('the one with the given id, among several', () => {
    const existing = [saved('a', 'Firms'), saved('b', 'Funds')];
    expect(checkSpec({ id: 'b', sheetName: 'Funds' }, existing, newId).id).toBe('b');
  });

  test('an unknown id or none makes a new import', () => {
    const existing = [saved('a', 'Firms')];
    expect(checkSpec({ id: 'zzz', sheetName: 'Funds' }, existing, newId).id).toBe('new');
    expect(checkSpec({ sheetName: 'Funds' }, existing, newId).id).toBe('new');
  });

  test('Replace anyway is kept while the import writes the same sheet, dropped when it moves', () => {
    const existing = [saved('a', 'Firms', { replaceAnyway: true })];
    expect(checkSpec({ id: 'a', sheetName: 'FIRMS' }, existing, newId).replaceAnyway).toBe(true);
    expect(checkSpec({ id: 'a', sheetName: 'Funds' }, existing, newId).replaceAnyway).toBeUndefined();
  });
});

describe('alerts', () => {
  const fields = ['id', 'fullName', 'firm', 'email', 'region', 'ticketSize', 'updatedAt'];
  const ann = 'ann@example.com';
  const annP = { id: 'ann-id', email: ann };
  const bob = { id: 'bob-id', email: 'bob@example.com' };
  const nobody = { id: 'x-id', email: '' };
  const mine: Alert = { on: ['added', 'changed'], fields: ['firm'], owner: ann, baselineAt: 1000 };

  test('a new alert belongs to the user saving it; its kinds in a fixed order, once each', () => {
    expect(checkAlert({ on: ['changed', 'added', 'changed'] }, fields, undefined, annP)).toEqual({
      on: ['added', 'changed'],
      owner: ann,
    });
    expect(checkAlert({ on: ['removed'], fields: null }, fields, undefined, annP)).toEqual({
      on: ['removed'],
      owner: ann,
    });
  });

  test('it watches the fields named, once each', () => {
    expect(checkAlert({ on: ['changed'], fields: ['firm', 'email', 'firm'] }, fields, undefined, annP)).toEqual({
      on: ['changed'],
      fields: ['firm', 'email'],
      owner: ann,
    });
  });

  test.each([[{}], [{ on: [] }], [{ on: 'added' }], [{ on: ['added', 'moved'] }], [{ on: ['moved'] }]])(
    '%j is on no known kind of change',
    (input) => {
      expect(() => checkAlert(input, fields, undefined, annP)).toThrow(
        'An alert is on partners added, removed or changed (one or more).',
      );
    },
  );

  test.each([[[]], ['firm'], [{}]])('fields %j name no fields', (watched) => {
    expect(() => checkAlert({ on: ['added'], fields: watched }, fields, undefined, annP)).toThrow(
      'Name the fields an alert watches, or leave them out to watch every field.',
    );
  });

  test('it watches only fields the import writes, naming the first five others', () => {
    expect(() => checkAlert({ on: ['changed'], fields: ['firm', 'sectorsFocused'] }, fields, undefined, annP)).toThrow(
      'An alert watches fields the import writes; not: sectorsFocused.',
    );
    const others = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
    expect(() => checkAlert({ on: ['changed'], fields: others }, fields, undefined, annP)).toThrow(
      'An alert watches fields the import writes; not: a1, a2, a3, a4, a5.',
    );
  });

  test('left out keeps the saved alert; the same alert saved by anyone keeps it as it was', () => {
    expect(checkAlert(undefined, fields, mine, bob)).toBe(mine);
    expect(checkAlert({ on: ['changed', 'added'], fields: ['firm'] }, fields, mine, bob)).toBe(mine);
    const everyField: Alert = { on: ['removed'], owner: ann };
    expect(checkAlert({ on: ['removed'] }, fields, everyField, bob)).toBe(everyField);
  });

  test('only its owner, in any case, may change or remove it; a change keeps its baseline', () => {
    const changed = checkAlert({ on: ['removed'] }, fields, mine, { id: 'ann-id', email: 'Ann@Example.com' });
    expect(changed).toEqual({ on: ['removed'], owner: 'Ann@Example.com', baselineAt: 1000 });
    expect(checkAlert({ on: ['added'] }, fields, { ...mine, owner: 'ANN@EXAMPLE.COM' }, annP)).toMatchObject({
      on: ['added'],
      owner: ann,
    });
    expect(checkAlert(null, fields, mine, annP)).toBeUndefined();
    for (const input of [null, { on: ['removed'] }, { on: ['added', 'changed'] }])
      expect(() => checkAlert(input, fields, mine, bob)).toThrow(
        `Only ${ann}, who saved this import's alert, can change or remove it.`,
      );
  });

  test('no alert to remove is no change', () => {
    expect(checkAlert(null, fields, undefined, nobody)).toBeUndefined();
  });

  test('an alert needs the address of the user saving it', () => {
    const message = 'Your email address is not available to the add-in, so it cannot send you alerts.';
    expect(() => checkAlert({ on: ['added'] }, fields, undefined, nobody)).toThrow(message);
    expect(() => checkSpec({ sheetName: 'Partners', alert: { on: ['added'] } }, [], newId)).toThrow(message);
  });

  test('a saved import keeps its alert, checked against the fields it writes', () => {
    const spec = checkSpec(
      { sheetName: 'Partners', fields: ['firm'], alert: { on: ['added'], fields: ['id'] } },
      [],
      newId,
      annP,
    );
    expect(spec.alert).toEqual({ on: ['added'], fields: ['id'], owner: ann });
    expect(checkSpec({ id: 'new', sheetName: 'Partners' }, [spec], newId, annP).alert).toEqual(spec.alert);
    expect(checkSpec({ id: 'new', sheetName: 'Partners', alert: null }, [spec], newId, annP)).not.toHaveProperty(
      'alert',
    );
  });
});

test("the hidden sheet of an import's listed ids is its own, and reserved", () => {
  expect(listedName('a')).not.toBe(listedName('b'));
  expect(() => checkSheetName(listedName('a'))).toThrow('is reserved by the add-in');
});
