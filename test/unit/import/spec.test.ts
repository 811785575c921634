/**
 * Saved import settings, checked once so every endpoint and trigger works with a valid spec:
 * sheet names (Sheets' own limits and the add-in's reserved names), schedules (the hours an
 * add-on may use, an hour of the day, a weekday) and their next due time, fields (known ones,
 * in the order chosen, `id` always there), the mode, and which saved import a spec updates.
 * Also the run summary the sidebar shows.
 */
import {
  checkSchedule,
  checkSheetName,
  checkSpec,
  DEFAULT_IMPORT_FIELDS,
  type ImportSpec,
  nextDue,
  sameSheetName,
} from '../../../src/import/spec';
import { pagesRead, RUN_VERSION, stagingName, summarize } from '../../../src/import/run-state';

describe('sheet names', () => {
  test('trimmed; up to 100 characters', () => {
    expect(checkSheetName('  Partners ')).toBe('Partners');
    expect(checkSheetName('x'.repeat(100))).toHaveLength(100);
    expect(() => checkSheetName('x'.repeat(101))).toThrow('Sheet names are at most 100 characters.');
  });

  test.each([[''], ['   '], [null], [5]])('%j is no name', (input) => {
    expect(() => checkSheetName(input)).toThrow('Give the sheet a name.');
  });

  test.each(['a[b', 'a]b', 'a*b', 'a?b', 'a:b', 'a/b', 'a\\b'])('%j holds a character Sheets refuses', (name) => {
    expect(() => checkSheetName(name)).toThrow('Sheet names cannot contain [ ] * ? : / or \\.');
  });

  test.each(['Investor Data log', 'investor data CHANGES', '__staging_x', '__STAGING_'])(
    '%j is reserved by the add-in',
    (name) => {
      expect(() => checkSheetName(name)).toThrow(`"${name}" is reserved by the add-in; pick another sheet name.`);
    },
  );

  test.each(['Investor Data log 2', 'My Investor Data log', 'x__staging_'])('%j is not reserved', (name) => {
    expect(checkSheetName(name)).toBe(name);
  });

  test('names compare as Sheets compares them: case does not matter', () => {
    expect(sameSheetName('Partners', 'PARTNERS')).toBe(true);
    expect(sameSheetName('Partners', 'Partner')).toBe(false);
  });
});

describe('schedules', () => {
  test('none is none', () => {
    expect(checkSchedule(null)).toBeUndefined();
    expect(checkSchedule(undefined)).toBeUndefined();
  });

  test.each([1, 2, 4, 6, 8, 12])('every %d hours', (hours) => {
    expect(checkSchedule({ every: 'hours', hours, atHour: 3 })).toEqual({ every: 'hours', hours });
  });

  test.each([0, 3, 5, 24, '2', undefined])('every %j hours is refused', (hours) => {
    expect(() => checkSchedule({ every: 'hours', hours })).toThrow('Refresh every 1, 2, 4, 6, 8 or 12 hours.');
  });

  test('daily and weekly at an hour from 0 to 23; a weekday from 0 to 6', () => {
    expect(checkSchedule({ every: 'day', atHour: 0 })).toEqual({ every: 'day', atHour: 0 });
    expect(checkSchedule({ every: 'day', atHour: 23, weekday: 3 })).toEqual({ every: 'day', atHour: 23 });
    expect(checkSchedule({ every: 'week', weekday: 0, atHour: 6 })).toEqual({ every: 'week', weekday: 0, atHour: 6 });
    expect(checkSchedule({ every: 'week', weekday: 6, atHour: 6 })).toEqual({ every: 'week', weekday: 6, atHour: 6 });
    for (const atHour of [-1, 24, 1.5, '6', undefined])
      expect(() => checkSchedule({ every: 'day', atHour })).toThrow('The hour must be a whole number from 0 to 23.');
    for (const weekday of [-1, 7, 2.5, '1', undefined])
      expect(() => checkSchedule({ every: 'week', weekday, atHour: 6 })).toThrow(
        'The weekday must be 0 (Sunday) to 6 (Saturday).',
      );
    expect(() => checkSchedule({ every: 'week', weekday: 1, atHour: 30 })).toThrow(
      'The hour must be a whole number from 0 to 23.',
    );
  });

  test.each([[{ every: 'minutes' }], [{}], ['daily']])('%j is no schedule', (input) => {
    expect(() => checkSchedule(input)).toThrow(
      'A schedule is every N hours, daily at an hour, or weekly on a day at an hour.',
    );
  });

  test('next due: N hours on; daily at the hour, strictly after; weekly on the day at the hour, strictly after', () => {
    const wed = Date.UTC(2024, 0, 3, 10, 0, 0); // a Wednesday, 10:00 UTC
    expect(nextDue({ every: 'hours', hours: 4 }, wed)).toBe(wed + 4 * 3_600_000);
    expect(nextDue({ every: 'day', atHour: 11 }, wed)).toBe(Date.UTC(2024, 0, 3, 11));
    expect(nextDue({ every: 'day', atHour: 10 }, wed)).toBe(Date.UTC(2024, 0, 4, 10));
    expect(nextDue({ every: 'day', atHour: 9 }, wed)).toBe(Date.UTC(2024, 0, 4, 9));
    expect(nextDue({ every: 'week', weekday: 3, atHour: 11 }, wed)).toBe(Date.UTC(2024, 0, 3, 11));
    expect(nextDue({ every: 'week', weekday: 3, atHour: 10 }, wed)).toBe(Date.UTC(2024, 0, 10, 10));
    expect(nextDue({ every: 'week', weekday: 5, atHour: 8 }, wed)).toBe(Date.UTC(2024, 0, 5, 8));
    expect(nextDue({ every: 'week', weekday: 1, atHour: 8 }, wed)).toBe(Date.UTC(2024, 0, 8, 8));
    expect(nextDue({ every: 'week', weekday: 0, atHour: 0 }, wed)).toBe(Date.UTC(2024, 0, 7, 0));
  });
});

describe('a spec from the sidebar', () => {
  let n = 0;
  const newId = () => `imp${++n}`;
  const saved: ImportSpec = {
    id: 'imp0',
    sheetName: 'Partners',
    fields: ['id', 'firm'],
    mode: 'merge',
    schedule: { every: 'day', atHour: 6, by: { id: 'u1', email: 'u1@example.com' } },
    nextDueAt: 5,
    last: { at: 1, status: 'done', rows: 3, message: 'ok' },
  };

  test('defaults: the default fields and replace', () => {
    expect(checkSpec({ sheetName: 'New' }, [], () => 'x')).toEqual({
      id: 'x',
      sheetName: 'New',
      fields: [...DEFAULT_IMPORT_FIELDS],
      mode: 'replace',
      schedule: undefined,
      nextDueAt: undefined,
      last: undefined,
    });
    expect(checkSpec({ sheetName: 'New', fields: [] }, [], () => 'x').fields).toEqual([...DEFAULT_IMPORT_FIELDS]);
  });

  test('fields in the order chosen, repeats dropped, id put first when missing', () => {
    expect(checkSpec({ sheetName: 'New', fields: ['firm', 'fullName', 'firm'] }, [], () => 'x').fields).toEqual([
      'id',
      'firm',
      'fullName',
    ]);
    expect(checkSpec({ sheetName: 'New', fields: ['firm', 'id'] }, [], () => 'x').fields).toEqual(['firm', 'id']);
  });

  test('unknown fields are named, at most five', () => {
    expect(() => checkSpec({ sheetName: 'New', fields: ['nope'] }, [], () => 'x')).toThrow('Unknown field: nope.');
    expect(() => checkSpec({ sheetName: 'New', fields: ['a', 'b', 'c', 'd', 'e', 'f', 'id'] }, [], () => 'x')).toThrow(
      'Unknown fields: a, b, c, d, e.',
    );
  });

  test('mode replace or merge, nothing else', () => {
    expect(checkSpec({ sheetName: 'New', mode: 'merge' }, [], () => 'x').mode).toBe('merge');
    expect(() => checkSpec({ sheetName: 'New', mode: 'append' as never }, [], () => 'x')).toThrow(
      'The mode is "replace" or "merge".',
    );
  });

  test('no settings at all are refused', () => {
    expect(() => checkSpec(null, [], newId)).toThrow('No import settings were given.');
    expect(() => checkSpec('Partners', [], newId)).toThrow('No import settings were given.');
  });

  test('an existing id updates that import and keeps its schedule, last run and what is left out (its mode); an unknown id gets a new one', () => {
    const updated = checkSpec({ id: 'imp0', sheetName: 'partners', fields: ['id'] }, [saved], newId);
    expect(updated).toEqual({
      id: 'imp0',
      sheetName: 'partners',
      fields: ['id'],
      mode: saved.mode,
      schedule: saved.schedule,
      nextDueAt: 5,
      last: saved.last,
    });
    const fresh = checkSpec({ id: 'forged', sheetName: 'Other' }, [saved], () => 'new1');
    expect(fresh.id).toBe('new1');
    expect(fresh.schedule).toBeUndefined();
  });

  test('two saved imports never write the same sheet, whatever the case', () => {
    expect(() => checkSpec({ sheetName: 'PARTNERS' }, [saved], () => 'x')).toThrow(
      'Another saved import already writes the sheet "PARTNERS".',
    );
  });
});

describe('the run summary', () => {
  test('no run is idle; a run shows the pages read (never past the last, never below 0)', () => {
    expect(summarize('imp1', null)).toEqual({
      importId: 'imp1',
      status: 'idle',
      page: 0,
      totalPages: 0,
      rows: 0,
      totalItems: 0,
      message: '',
    });
    const run = {
      version: RUN_VERSION,
      status: 'running',
      read: 120,
      message: 'Page 2',
      list: { next: 3, last: 5, total: 480 },
    } as never;
    expect(summarize('imp1', run)).toEqual({
      importId: 'imp1',
      status: 'running',
      page: 2,
      totalPages: 5,
      rows: 120,
      totalItems: 480,
      message: 'Page 2',
    });
    expect(pagesRead({ list: { next: 9, last: 5 } } as never)).toBe(5);
    expect(pagesRead({ list: { next: 0, last: 5 } } as never)).toBe(0);
    expect(stagingName('imp1')).toBe('__staging_imp1');
  });
});
