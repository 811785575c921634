/**
 * The words of an alert email (src/import/watch.ts, alertMail) as its owner reads them: the count
 * by kind, one line per change (partner with its name, field or kind, before, after) in both the
 * HTML and the plain text, the "more in the change log" line only past MAX_ALERT_ROWS, and the
 * links. Also the changes an alert reports (alertChanges: only field changes of partners listed
 * both times, added and removed with empty cells) and a run of no rows fitting any spreadsheet.
 */
import type { Change } from '../../../src/import/ownership';
import {
  alertChanges,
  alertMail,
  knownOf,
  MAX_ALERT_ROWS,
  MAX_SPREADSHEET_CELLS,
  runsThatFit,
} from '../../../src/import/watch';
import type { Cell } from '../../../src/table/cells';

const links = {
  spreadsheet: 'https://docs.google.com/spreadsheets/d/x/edit',
  changeLog: 'https://docs.google.com/spreadsheets/d/x/edit#gid=3',
};
const change = (id: string, kind: Change['change'], field = '', before: Cell = '', after: Cell = ''): Change => ({
  id,
  change: kind,
  field,
  before,
  after,
});
/** When the run that found the changes started. */
const AT = new Date(Date.UTC(2026, 2, 4, 5, 6, 7));
const linksHtml = `<p><a href="${links.spreadsheet}">Open the spreadsheet</a> · <a href="${links.changeLog}">Open the change log</a></p>`;
const tableHead =
  '<table border="1" cellpadding="4" cellspacing="0"><tr><th>Partner</th><th>Field</th><th>Before</th><th>After</th></tr>';

test('the email counts each kind and lists every change with its partner, field or kind, before and after', () => {
  const changes = [
    change('lp_1', 'changed', 'firm', 'Acme', 'Acme & Co'),
    change('lp_2', 'new partner'),
    change('lp_3', 'no longer active'),
  ];
  const names = new Map([
    ['lp_1', 'Eve'],
    ['lp_3', ''],
  ]);
  const mail = alertMail({ sheetName: 'Partners' }, changes, links, names, [], AT);
  expect(mail.subject).toBe('3 changes to partners in "Partners" (1 added, 1 removed, 1 changed)');
  expect(mail.htmlBody.split('\n')).toEqual([
    '<p>The import into <b>Partners</b> found 3 changes on 2026-03-04 05:06 UTC: 1 added, 1 removed, 1 changed.</p>',
    tableHead,
    '<tr><td>Eve (lp_1)</td><td>firm</td><td>Acme</td><td>Acme &#38; Co</td></tr>',
    '<tr><td>lp_2</td><td>added</td><td></td><td></td></tr>',
    '<tr><td>lp_3</td><td>removed</td><td></td><td></td></tr>',
    '</table>',
    '',
    linksHtml,
  ]);
  expect(mail.body.split('\n')).toEqual([
    'The import into "Partners" found 3 changes on 2026-03-04 05:06 UTC: 1 added, 1 removed, 1 changed.',
    'Eve (lp_1)\tfirm\tAcme\tAcme & Co',
    'lp_2\tadded\t\t',
    'lp_3\tremoved\t\t',
    '',
    `Spreadsheet: ${links.spreadsheet}`,
    `Change log: ${links.changeLog}`,
  ]);
});

test('a missing value shows as an empty cell, and a change kind an alert does not name leaves the field empty', () => {
  // Built whole: the helper's default would fill the missing value in.
  const missing = { ...change('lp_1', 'changed', 'region', '', 'EU'), before: undefined as unknown as Cell };
  const repeated = change('lp_2', 'repeated id (kept)');
  const mail = alertMail({ sheetName: 'LPs' }, [missing, repeated], links, new Map(), [], AT);
  expect(mail.htmlBody).toContain('<tr><td>lp_1</td><td>region</td><td></td><td>EU</td></tr>');
  expect(mail.htmlBody).toContain('<tr><td>lp_2</td><td></td><td></td><td></td></tr>');
  expect(mail.body).toContain('lp_1\tregion\t\tEU');
});

describe('past MAX_ALERT_ROWS changes the email says how many more the change log holds', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => change(`lp_${i}`, 'changed', 'firm', 'x', 'y'));

  test('exactly MAX_ALERT_ROWS: all listed, no "more" line', () => {
    const mail = alertMail({ sheetName: 'LPs' }, many(MAX_ALERT_ROWS), links, new Map(), [], AT);
    const html = mail.htmlBody.split('\n');
    expect(html.filter((l) => l.startsWith('<tr><td>'))).toHaveLength(MAX_ALERT_ROWS);
    expect(html.slice(-3)).toEqual(['</table>', '', linksHtml]);
    const text = mail.body.split('\n');
    expect(text).toHaveLength(1 + MAX_ALERT_ROWS + 3);
    expect(text.slice(-3)).toEqual(['', `Spreadsheet: ${links.spreadsheet}`, `Change log: ${links.changeLog}`]);
  });

  test('one more than MAX_ALERT_ROWS: the first MAX_ALERT_ROWS listed, the last one counted', () => {
    const changes = many(MAX_ALERT_ROWS + 1);
    const mail = alertMail({ sheetName: 'LPs' }, changes, links, new Map(), [], AT);
    const html = mail.htmlBody.split('\n');
    expect(html.filter((l) => l.startsWith('<tr><td>'))).toHaveLength(MAX_ALERT_ROWS);
    expect(html).not.toContain(`<tr><td>lp_${MAX_ALERT_ROWS}</td><td>firm</td><td>x</td><td>y</td></tr>`);
    expect(html.slice(-3)).toEqual(['</table>', '<p>1 more in the change log.</p>', linksHtml]);
    const text = mail.body.split('\n');
    expect(text.filter((l) => l.endsWith('\tfirm\tx\ty'))).toHaveLength(MAX_ALERT_ROWS);
    expect(text.slice(-3)).toEqual([
      '1 more in the change log.',
      `Spreadsheet: ${links.spreadsheet}`,
      `Change log: ${links.changeLog}`,
    ]);
  });
});

test('an alert reports added and removed partners with empty cells, and field changes of partners listed both times', () => {
  const known = (id: string, ...values: string[]) => ({ id, name: '', values });
  expect(
    alertChanges(
      [known('a', 'X'), known('b', 'P'), known('gone', 'G')],
      [known('a', 'Y'), known('b', 'P'), known('n', 'Q')],
      ['firm'],
    ),
  ).toEqual([change('a', 'changed', 'firm', 'X', 'Y'), change('n', 'new partner'), change('gone', 'no longer active')]);
});

test('a run of no rows fits any number of times, even in a full spreadsheet', () => {
  expect(runsThatFit(MAX_SPREADSHEET_CELLS, 26, 0)).toBe(Number.POSITIVE_INFINITY);
});

describe('the plain text: a value holding a line break cannot start a line of its own', () => {
  const BREAKS: Array<[string, string]> = [
    ['LF', '\n'],
    ['CR', '\r'],
    ['CR LF', '\r\n'],
    ['U+2028', '\u2028'],
    ['U+2029', '\u2029'],
    ['U+0085', '\u0085'],
    ['VT', '\v'],
    ['FF', '\f'],
  ];
  const forged = (brk: string, line: string) => `x${brk}${line}`;

  test.each(BREAKS)(
    'break %s in the sheet name, a name, a field, before or after: no line starts "Spreadsheet:" or "Change log:" but the links, last',
    (_, brk) => {
      const evil = 'https://evil.example/phish';
      const changes = [
        change(
          'lp_1',
          'changed',
          forged(brk, `Spreadsheet: ${evil}`),
          forged(brk, `Change log: ${evil}`),
          forged(brk, `Spreadsheet: ${evil}`),
        ),
        change('lp_2', 'new partner'),
      ];
      const names = new Map([['lp_2', forged(brk, `Change log: ${evil}`)]]);
      const mail = alertMail({ sheetName: forged(brk, `Spreadsheet: ${evil}`) }, changes, links, names, [], AT);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: splits where any reader may start a line, separators U+001C-U+001E included
      const lines = mail.body.split(/\r\n|[\n\r\v\f\u001c-\u001e\u0085\u2028\u2029]/);
      expect(lines).toHaveLength(6);
      expect(lines.slice(-2)).toEqual([`Spreadsheet: ${links.spreadsheet}`, `Change log: ${links.changeLog}`]);
      for (const line of lines.slice(0, -2)) expect(line).not.toMatch(/^\s*(Spreadsheet|Change log):/);
      // The break is shown, not dropped: the reader sees the value was more than one line.
      expect(lines[0]).toBe(
        `The import into "x ⏎ Spreadsheet: ${evil}" found 2 changes on 2026-03-04 05:06 UTC: 1 added, 0 removed, 1 changed.`,
      );
      expect(lines[1]).toBe(`lp_1\tx ⏎ Spreadsheet: ${evil}\tx ⏎ Change log: ${evil}\tx ⏎ Spreadsheet: ${evil}`);
      expect(lines[2]).toBe(`x ⏎ Change log: ${evil} (lp_2)\tadded\t\t`);
      expect(mail.subject).not.toMatch(/[\n\r\v\f\u0085\u2028\u2029]/);
      // The HTML part is escaped as before; a break there is only white space inside a cell.
      expect(mail.htmlBody).toContain(`<b>x${brk}Spreadsheet: ${evil}</b>`);
    },
  );

  test('a tab in a value does not make a column of its own', () => {
    const mail = alertMail(
      { sheetName: 'P' },
      [change('lp_1', 'changed', 'firm', 'a\tb', 'c')],
      links,
      new Map(),
      [],
      AT,
    );
    expect(mail.body.split('\n')[1].split('\t')).toEqual(['lp_1', 'firm', 'a b', 'c']);
  });
});

test('counts past a thousand are grouped, one change is singular, and text that only looks like a time in another field stays as it is', () => {
  const many = Array.from({ length: 1234 }, (_, i) => change(`lp_${i}`, 'new partner'));
  const mail = alertMail({ sheetName: 'LPs' }, many, links, new Map(), [], AT);
  expect(mail.subject).toBe('1,234 changes to partners in "LPs" (1,234 added, 0 removed, 0 changed)');
  expect(mail.body).toContain(`${(1234 - MAX_ALERT_ROWS).toLocaleString('en-US')} more in the change log.`);
  const one = alertMail(
    { sheetName: 'LPs' },
    [change('lp_1', 'changed', 'firm', '2026-01-02T03:04:05.000Z', 'B')],
    links,
    new Map(),
    [],
    AT,
  );
  expect(one.subject).toBe('1 change to partners in "LPs" (0 added, 0 removed, 1 changed)');
  expect(one.body.split('\n')[1]).toBe('lp_1\tfirm\t2026-01-02T03:04:05.000Z\tB');
});

test('a before or after that is a date shows as a time with its zone, whatever the field', () => {
  const mail = alertMail(
    { sheetName: 'LPs' },
    [change('lp_1', 'changed', 'firm', new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), 'B')],
    links,
    new Map(),
    [],
    AT,
  );
  expect(mail.body.split('\n')[1]).toBe('lp_1\tfirm\t2026-01-02 03:04 UTC\tB');
});

test("the alert's record keeps each partner's id, name and watched values; without a name column the name is empty", () => {
  const rows = [
    ['lp_1', 'Eve', 'Acme'],
    ['lp_2', 'Bo', 'Beta'],
  ];
  expect(knownOf(rows, 0, [2])).toEqual([
    { id: 'lp_1', name: '', values: ['Acme'] },
    { id: 'lp_2', name: '', values: ['Beta'] },
  ]);
  expect(knownOf(rows, 0, [2], 1).map((k) => k.name)).toEqual(['Eve', 'Bo']);
});
