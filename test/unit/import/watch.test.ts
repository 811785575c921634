/** The pure parts of alerts (src/import/watch.ts): which changes an alert reports, and the email it sends. */
import type { Change } from '../../../src/import/ownership';
import {
  alertChanges,
  alertMail,
  knownOf,
  MAX_ALERT_ROWS,
  runsThatFit,
  watchedChanges,
} from '../../../src/import/watch';

const changed = (id: string, field: string, before: string, after: string): Change => ({
  id,
  change: 'changed',
  field,
  before,
  after,
});
const links = {
  spreadsheet: 'https://docs.google.com/spreadsheets/d/x/edit',
  changeLog: 'https://docs.google.com/spreadsheets/d/x/edit#gid=3',
};

const known = (id: string, ...values: string[]) => ({ id, name: '', values });

test("added, removed and changed are judged against the alert's own record, not the table", () => {
  const before = [known('a', 'X', '1'), known('b', 'P', '2'), known('z', 'Q', '3')];
  const now = [known('a', 'Y', '1'), known('c', 'R', '4')];
  const out = alertChanges(before, now, ['firm', 'region']);
  expect(out.map((c) => `${c.change}:${c.id}:${c.field}:${c.before}>${c.after}`)).toEqual([
    'changed:a:firm:X>Y',
    'new partner:c::>',
    'no longer active:b::>',
    'no longer active:z::>',
  ]);
  expect(watchedChanges(out, { on: ['removed'] }).map((c) => c.id)).toEqual(['b', 'z']);
  expect(watchedChanges(out, { on: ['changed'], fields: ['region'] })).toEqual([]);
  expect(watchedChanges(out, { on: ['changed', 'added'], fields: ['firm'] }).map((c) => c.id)).toEqual(['a', 'c']);
});

test('a record of other fields (the alert changed since) tells only who was added or removed', () => {
  const out = alertChanges(
    [known('a', 'X'), known('b', 'P')],
    [known('a', 'Y', '1'), known('c', 'R', '4')],
    ['firm', 'region'],
  );
  expect(out.map((c) => `${c.change}:${c.id}`)).toEqual(['new partner:c', 'no longer active:b']);
});

test('the record keeps dates as times and long text as its start and a hash, so a change past the start still counts', () => {
  const long = 'x'.repeat(1000);
  const [k] = knownOf([['lp_1', new Date(Date.UTC(2026, 0, 2)), long]], 0, [1, 2]);
  expect(k.values[0]).toBe('2026-01-02T00:00:00.000Z');
  expect(k.values[1].length).toBeLessThan(450);
  const [k2] = knownOf([['lp_1', new Date(Date.UTC(2026, 0, 2)), `${long}y`]], 0, [1, 2]);
  expect(alertChanges([k], [k2], ['updatedAt', 'description']).map((c) => c.field)).toEqual(['description']);
});

test('service text is escaped, the key never appears, and at most MAX_ALERT_ROWS changes are listed', () => {
  const key = 'sk_live_0123456789abcdef';
  const hostile = changed('lp_1', 'firm', `<img src=x onerror=alert(1)> ${key}`, 'A & "B"');
  const many = Array.from({ length: 60 }, (_, i) => changed(`lp_${i + 2}`, 'firm', 'x', 'y'));
  const mail = alertMail(
    { sheetName: 'LPs <1>' },
    [hostile, ...many],
    links,
    new Map([['lp_1', '<b>Eve</b>']]),
    [key],
    new Date(),
  );
  expect(mail.subject).toBe('61 changes to partners in "LPs <1>" (0 added, 0 removed, 61 changed)');
  expect(mail.htmlBody).not.toMatch(/<img|<b>Eve|LPs <1>/);
  expect(mail.htmlBody).toContain('&#60;img src=x onerror=alert(1)&#62;');
  expect(mail.htmlBody).toContain('A &#38; &#34;B&#34;');
  expect(`${mail.subject}${mail.htmlBody}${mail.body}`).not.toContain(key);
  expect(mail.htmlBody).not.toContain(key.slice(0, 12));
  expect(mail.htmlBody.match(/<tr><td>/g)).toHaveLength(MAX_ALERT_ROWS);
  expect(mail.htmlBody).toContain('11 more in the change log.');
  expect(mail.htmlBody).toContain(`href="${links.changeLog}"`);
});

test('runs that fit beside the other sheets under the 10 M cell limit', () => {
  expect(runsThatFit(0, 10, 1000)).toBe(999);
  expect(runsThatFit(9_990_000, 10, 1000)).toBe(0);
});
