/**
 * An alert's coverage, in the pure rules (src/import/spec.ts): what another editor may not change
 * of an import whose alert is not theirs (a watched field dropped, the filters, the sort by fit,
 * the schedule, the sheet), each named in one refusal; what anyone may (fields added, the order);
 * everything for the alert's owner; and an alert on a scheduled import only by the schedule's
 * owner. A schedule as its owner records it differs for every change of when it runs.
 */
import {
  type Alert,
  checkAlert,
  checkCoverage,
  checkSpec,
  type ImportSpec,
  type OwnedSchedule,
  scheduleSubject,
} from '../../../src/import/spec';

const ann = { id: 'ann-id', email: 'ann@example.com' };
const bob = { id: 'bob-id', email: 'bob@example.com' };
const alert: Alert = { on: ['changed'], fields: ['upvotes', 'firm'], owner: ann.email, baselineAt: 1 };
const hourly: OwnedSchedule = { every: 'hours', hours: 1, by: ann };
const watched: ImportSpec = {
  id: 'imp1',
  sheetName: 'Watched',
  fields: ['id', 'fullName', 'upvotes', 'firm'],
  mode: 'merge',
  filters: [{ field: 'region', op: 'is', value: 'Europe' }],
  fit: { fund: 'vf_0003' },
  schedule: hourly,
  alert,
};
const refusal = (change: Partial<ImportSpec>, user = bob, before = watched) => {
  try {
    checkCoverage(before, { ...before, ...change }, user);
    return 'allowed';
  } catch (e) {
    return (e as Error).message;
  }
};

describe('what another editor may not narrow', () => {
  test.each<[string, Partial<ImportSpec>, string]>([
    ['one watched field dropped', { fields: ['id', 'fullName', 'upvotes'] }, 'the field firm'],
    ['two watched fields dropped', { fields: ['id', 'fullName'] }, 'the fields upvotes, firm'],
    ['the filters changed', { filters: [] }, 'the filters'],
    ['the sort by fit changed', { fit: { fund: 'vf_0003', top: 5 } }, 'the sort by fit'],
    ['the schedule removed', { schedule: undefined }, 'the schedule'],
    ['the schedule taken over', { schedule: { ...hourly, by: bob } }, 'the schedule'],
    ['the sheet moved', { sheetName: 'Elsewhere' }, 'the sheet'],
  ])('%s is refused, naming it', (_what, change, named) => {
    expect(refusal(change)).toBe(
      `Only ann@example.com, who saved this import's alert, can change ${named}: the alert watches what they cover. Nothing was changed.`,
    );
  });

  test('more than five dropped fields are named by the first five', () => {
    const wide = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'];
    const before = { ...watched, fields: ['id', ...wide], alert: { ...alert, fields: wide } };
    expect(refusal({ fields: ['id'] }, bob, before)).toMatch(/can change the fields f1, f2, f3, f4, f5:/);
  });

  test('an import without filters, fit or schedule: a field added is still allowed', () => {
    const plain: ImportSpec = {
      id: 'imp2',
      sheetName: 'Plain',
      fields: ['id', 'firm'],
      mode: 'replace',
      alert: { ...alert, fields: ['firm'] },
    };
    expect(refusal({ fields: ['id', 'firm', 'email'] }, bob, plain)).toBe('allowed');
  });

  test('several changes are named together', () => {
    expect(refusal({ filters: [], sheetName: 'Elsewhere' })).toMatch(/can change the filters and the sheet:/);
  });

  test('an alert on every field counts every field the import writes as watched', () => {
    const everyField = { ...watched, alert: { ...alert, fields: undefined } };
    expect(refusal({ fields: ['id', 'fullName', 'upvotes'] }, bob, everyField)).toMatch(/can change the field firm:/);
  });

  test('fields added, the same sheet in other case, or nothing changed are allowed', () => {
    expect(refusal({ fields: [...watched.fields, 'email'] })).toBe('allowed');
    expect(refusal({ sheetName: 'WATCHED' })).toBe('allowed');
    expect(refusal({})).toBe('allowed');
  });

  test('the owner, in any case of their address, may change anything; an import without an alert is anyone’s', () => {
    expect(refusal({ filters: [], sheetName: 'Elsewhere' }, { id: 'x', email: 'ANN@example.com' })).toBe('allowed');
    expect(refusal({ filters: [] }, bob, { ...watched, alert: undefined })).toBe('allowed');
  });

  test('a saved import checks it too: the refused save changes nothing', () => {
    expect(() => checkSpec({ ...watched, fields: ['id', 'fullName'] }, [watched], () => 'new', bob)).toThrow(
      /can change the fields upvotes, firm:/,
    );
    expect(checkSpec({ ...watched, fields: [...watched.fields, 'email'] }, [watched], () => 'new', bob).alert).toBe(
      alert,
    );
  });
});

describe("an alert on a scheduled import is the schedule owner's", () => {
  const fields = ['id', 'firm'];
  test('refused to anyone else, naming the schedule owner (or "another editor" without an address)', () => {
    expect(() => checkAlert({ on: ['added'] }, fields, undefined, bob, hourly)).toThrow(
      /^This import is scheduled by ann@example\.com: its scheduled runs would send your alert from their account\./,
    );
    expect(() =>
      checkAlert({ on: ['added'] }, fields, undefined, bob, { ...hourly, by: { id: 'ann-id', email: '' } }),
    ).toThrow(/^This import is scheduled by another editor:/);
  });

  test('saved by the schedule owner, or on an unscheduled import', () => {
    expect(checkAlert({ on: ['added'] }, fields, undefined, ann, hourly)).toEqual({ on: ['added'], owner: ann.email });
    expect(checkAlert({ on: ['added'] }, fields, undefined, bob)).toEqual({ on: ['added'], owner: bob.email });
  });
});

test('a schedule as recorded differs for every change of when it runs, and for every import', () => {
  const subjects = [
    scheduleSubject('imp1', { every: 'hours', hours: 1 }),
    scheduleSubject('imp1', { every: 'hours', hours: 2 }),
    scheduleSubject('imp1', { every: 'day', atHour: 1 }),
    scheduleSubject('imp1', { every: 'day', atHour: 2 }),
    scheduleSubject('imp1', { every: 'week', weekday: 1, atHour: 2 }),
    scheduleSubject('imp1', { every: 'week', weekday: 2, atHour: 2 }),
    scheduleSubject('imp2', { every: 'hours', hours: 1 }),
  ];
  expect(new Set(subjects).size).toBe(subjects.length);
  expect(scheduleSubject('imp1', hourly)).toBe(scheduleSubject('imp1', { every: 'hours', hours: 1 }));
});
