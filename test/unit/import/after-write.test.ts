/**
 * What a completed run does after its write (src/import/watch.ts, afterWrite), over the in-memory
 * ports with a history sheet, mail and the listed-ids record that say what they hold and were
 * asked. History: a sheet holding other columns is left alone; the cell limit counts the sheet's
 * whole grid (less the rows pruned), the runs it keeps and the import's width, and lets a history
 * reach the limit exactly; a run of no rows adds nothing and needs no room; a failing sheet is
 * noted. Alert: it needs both mail and the listed ids; the first run is the baseline of its own
 * import; then no changes, a spent quota, a failed send and a sent email each say so, the email
 * naming partners from the rows' fullName column.
 */
import { newRun } from '../../../src/import/machine';
import type { HistoryPort, Known, ImportPorts, ListedPort, MailPort } from '../../../src/import/ports';
import type { Alert, ImportSpec } from '../../../src/import/spec';
import { afterWrite, knownOf, MAX_SPREADSHEET_CELLS } from '../../../src/import/watch';
import type { Cell } from '../../../src/table/cells';
import { world } from '../../helpers/fake-ports';

interface HistorySheet {
  header: string[];
  runs: Array<{ at: number; rows: number }>;
  grid: { others: number; rows: number; cols: number };
  pruned: number[];
  appended: Cell[][][];
  failure?: Error;
}

function historySheet(h: Partial<HistorySheet>): HistorySheet & { port: HistoryPort } {
  const sheet: HistorySheet = {
    header: [],
    runs: [],
    grid: { others: 0, rows: 0, cols: 26 },
    pruned: [],
    appended: [],
    ...h,
  };
  const port: HistoryPort = {
    runs: () => {
      if (sheet.failure) throw sheet.failure;
      return { header: sheet.header, runs: sheet.runs };
    },
    grid: () => sheet.grid,
    // Recorded as the rows the pruned runs held.
    prune: (_name, ats) => {
      sheet.pruned.push(ats.reduce((n, at) => n + (sheet.runs.find((r) => r.at === at)?.rows ?? 0), 0));
    },
    append: (_name, _id, _header, rows) => {
      sheet.appended.push(rows);
    },
  };
  return { ...sheet, port, pruned: sheet.pruned, appended: sheet.appended };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => [`lp_${i}`, `Partner ${i}`]);

function historyRun(keep: number, port: HistoryPort | undefined, rows: Cell[][], fields = ['id', 'fullName']) {
  const spec: ImportSpec = {
    id: 'imp1',
    sheetName: 'Partners',
    fields,
    mode: 'replace',
    history: { keep, sheet: 'Partners history' },
  };
  const w = world(() => [], [spec]);
  const ports: ImportPorts = { ...w.ports, ...(port ? { history: port } : {}) };
  const run = newRun(spec, 'schedule', ports);
  const note = afterWrite(spec, run, rows, ports);
  return { note, run };
}

describe('history', () => {
  test('a history sheet holding other columns is left as it is, and the note says how to start a new one', () => {
    const h = historySheet({ header: ['Run at', 'id', 'firm'], runs: [{ at: 1, rows: 5 }] });
    const { note, run } = historyRun(3, h.port, ids(4));
    expect(note).toBe(
      ' History not kept: "Partners history" holds other columns (id, firm) than the import writes now; rename that sheet to start a new history.',
    );
    expect(h.pruned).toEqual([]);
    expect(h.appended).toEqual([]);
    expect(run.historyRows).toBe(0);
  });

  test('without a history sheet to write to, a history is neither kept nor mentioned', () => {
    const { note, run } = historyRun(3, undefined, ids(4));
    expect(note).toBe('');
    expect(run.historyRows).toBe(0);
  });

  test('a sheet that fails is noted, and the run keeps no history rows', () => {
    const h = historySheet({ failure: new Error('The sheet "Partners history" belongs to another import.') });
    const { note, run } = historyRun(3, h.port, ids(4));
    expect(note).toBe(' History not kept: The sheet "Partners history" belongs to another import.');
    expect(run.historyRows).toBe(0);
  });

  // Each case: the history before, the run's rows, and the cells the spreadsheet then holds at most
  // (its other sheets aside), worked out by hand. At exactly the limit the history is kept; one cell
  // over, it is refused.
  const header = ['Run at', 'id', 'fullName'];
  const wide = ['id', ...Array.from({ length: 29 }, (_, i) => `f${i}`)];
  // A history of this import's columns holding two runs of `rows` rows each, on a grid of that size.
  const twoRuns = (rows: number, grid: { rows: number; cols: number; others?: number }): Partial<HistorySheet> => ({
    header,
    runs: [
      { at: 1, rows },
      { at: 2, rows },
    ],
    grid: { others: 0, ...grid },
  });
  const cases: Array<[string, Partial<HistorySheet>, number, Cell[][], string[], number]> = [
    [
      "the sheet's whole grid counts, less the rows of the run pruned",
      twoRuns(10, { rows: 1000, cols: 26 }),
      2,
      ids(10),
      ['id', 'fullName'],
      (1000 - 10) * 26,
    ],
    [
      'the runs kept after the prune count, however many rows each holds',
      twoRuns(30, { rows: 61, cols: 3 }),
      2,
      ids(10),
      ['id', 'fullName'],
      // Header, the one run of 30 kept, and this run's 10.
      (1 + 30 + 10) * 3,
    ],
    [
      '`keep` runs of this size count when they are more than the rows there',
      twoRuns(5, { rows: 11, cols: 3 }),
      3,
      ids(10),
      ['id', 'fullName'],
      (1 + 3 * 10) * 3,
    ],
    [
      "a new sheet narrower than the import's columns counts them all",
      { grid: { others: 0, rows: 0, cols: 26 } },
      2,
      Array.from({ length: 4 }, (_, r) => wide.map((f) => `${f}${r}`)),
      wide,
      (1 + 2 * 4) * 31,
    ],
  ];
  test.each(cases)('%s: kept at the limit, refused one cell past it', (_, before, keep, rows, fields, cells) => {
    // The history as before, its other sheets leaving room for `cells` less `short` cells.
    const leaving = (short: number) =>
      historySheet({
        ...before,
        grid: { ...(before.grid ?? { rows: 0, cols: 26 }), others: MAX_SPREADSHEET_CELLS - cells + short },
      });
    const at = leaving(0);
    const kept = historyRun(keep, at.port, rows, fields);
    expect(kept.note).toMatch(/^ History: \d+ runs? kept in "Partners history"\.$/);
    expect(at.appended).toHaveLength(1);
    expect(kept.run.historyRows).toBe(rows.length);
    const over = leaving(1);
    const refused = historyRun(keep, over.port, rows, fields);
    expect(refused.note).toMatch(/^ History not kept: /);
    expect(over.appended).toEqual([]);
    expect(over.pruned).toEqual([]);
    expect(refused.run.historyRows).toBe(0);
  });

  test('when not even one run of this size fits, the note says to keep fewer fields', () => {
    // A new sheet of 26 columns: header and 10 rows take 286 cells; one cell less is left.
    const h = historySheet({ grid: { others: MAX_SPREADSHEET_CELLS - 285, rows: 0, cols: 26 } });
    const { note } = historyRun(5, h.port, ids(10));
    expect(note).toBe(
      ' History not kept: 5 runs of 10 rows would take the spreadsheet past its 10,000,000 cells; not even one run of this size fits beside its other sheets. Keep fewer fields.',
    );
    expect(h.appended).toEqual([]);
  });

  test('when exactly one run of this size fits, the note says so in the singular', () => {
    // A new sheet of 26 columns: header and 10 rows take 286 cells; room for one run and not two.
    const h = historySheet({ grid: { others: MAX_SPREADSHEET_CELLS - 286 - 100, rows: 0, cols: 26 } });
    const { note } = historyRun(5, h.port, ids(10));
    expect(note).toBe(
      ' History not kept: 5 runs of 10 rows would take the spreadsheet past its 10,000,000 cells; 1 run of this size fits beside its other sheets. Keep at most 1 run.',
    );
  });

  test('a run of no rows needs no room, adds nothing and keeps the runs there', () => {
    const h = historySheet(twoRuns(10, { rows: 21, cols: 3, others: MAX_SPREADSHEET_CELLS }));
    const { note, run } = historyRun(3, h.port, []);
    expect(note).toBe(' History: 2 runs kept in "Partners history".');
    expect(h.appended).toEqual([]);
    expect(h.pruned.reduce((n, rows) => n + rows, 0)).toBe(0);
    expect(run.historyRows).toBe(0);
  });
});

describe('alert', () => {
  interface Mailbox {
    sent: Array<{ to: string; subject: string; html: string; body: string }>;
    remaining: number;
    failure?: Error;
  }
  const links = { spreadsheet: 'https://s', changeLog: 'https://c' };

  function mailbox(m: Partial<Mailbox> = {}): Mailbox & { port: MailPort } {
    const box: Mailbox = { sent: [], remaining: 100, ...m };
    return {
      ...box,
      sent: box.sent,
      port: {
        off: () => '',
        remaining: () => box.remaining,
        send: (to, subject, html, body) => {
          if (box.failure) throw box.failure;
          box.sent.push({ to, subject, html, body });
        },
        secrets: () => [],
        links: () => links,
      },
    };
  }

  function listedIds(before: string[] | null): { ids: string[] | null; writes: number; port: ListedPort } {
    const l = { ids: before, writes: 0, port: undefined as unknown as ListedPort };
    // A record of ids alone (no watched values): the alert tells who was added or removed.
    l.port = {
      read: () => l.ids?.map((id) => ({ id, name: '', values: [] })) ?? null,
      write: (_id, now) => {
        l.writes++;
        l.ids = now.map((k) => k.id);
      },
      remove: () => undefined,
    };
    return l;
  }

  const alert = (baselineAt?: number): Alert => ({
    on: ['added', 'removed', 'changed'],
    owner: 'me@example.com',
    ...(baselineAt === undefined ? {} : { baselineAt }),
  });
  const watchedSpec = (a: Alert | undefined, fields = ['id', 'fullName']): ImportSpec => ({
    id: 'imp1',
    sheetName: 'Partners',
    fields,
    mode: 'merge',
    ...(a ? { alert: a } : {}),
  });

  function alertRun(
    spec: ImportSpec,
    rows: Cell[][],
    ports: { mail?: MailPort; listed?: ListedPort },
    stored: ImportSpec[] = [spec],
  ) {
    const w = world(() => [], stored);
    const all: ImportPorts = { ...w.ports, ...ports };
    const run = newRun(spec, 'schedule', all);
    const note = afterWrite(spec, run, rows, all);
    return { note, run, w };
  }

  test('an alert needs the mail and the listed ids both, and an import without one sends nothing', () => {
    const rows = ids(3);
    for (const [spec, mail, listed] of [
      [watchedSpec(alert(5)), mailbox(), undefined],
      [watchedSpec(alert(5)), undefined, listedIds(['lp_9'])],
      [watchedSpec(undefined), mailbox(), listedIds(['lp_9'])],
    ] as const) {
      const { note, run } = alertRun(spec, rows, { mail: mail?.port, listed: listed?.port });
      expect(note).toBe('');
      expect(run.alert).toBe('');
      expect(mail?.sent ?? []).toEqual([]);
      expect(listed?.writes ?? 0).toBe(0);
    }
  });

  test('the first run with an alert is its baseline, whatever ids an earlier alert left, and records it on its own import', () => {
    const mine = watchedSpec(alert());
    const other: ImportSpec = { ...watchedSpec(alert()), id: 'imp0', sheetName: 'Others' };
    const mail = mailbox();
    const listed = listedIds(['lp_0', 'lp_8', 'lp_9']);
    const { note, run, w } = alertRun(mine, ids(3), { mail: mail.port, listed: listed.port }, [other, mine]);
    expect(note).toBe(' Alert: this run is the baseline; later runs email changes.');
    expect(run.alert).toBe('baseline');
    expect(mail.sent).toEqual([]);
    expect(listed.ids).toEqual(['lp_0', 'lp_1', 'lp_2']);
    expect(w.specs.map((s) => [s.id, s.alert?.baselineAt])).toEqual([
      ['imp0', undefined],
      ['imp1', run.startedAt],
    ]);
  });

  test('a baseline run whose import lost its alert, or was deleted, meanwhile still completes', () => {
    const spec = watchedSpec(alert());
    for (const stored of [[watchedSpec(undefined)], []]) {
      const { note, run, w } = alertRun(spec, ids(2), { mail: mailbox().port, listed: listedIds(null).port }, stored);
      expect(note).toBe(' Alert: this run is the baseline; later runs email changes.');
      expect(run.alert).toBe('baseline');
      expect(w.specs).toEqual(stored);
    }
  });

  test('no change since the last run: no email, nothing said', () => {
    const mail = mailbox();
    const { note, run } = alertRun(watchedSpec(alert(5)), ids(2), {
      mail: mail.port,
      listed: listedIds(['lp_0', 'lp_1']).port,
    });
    expect(note).toBe('');
    expect(run.alert).toBe('no changes');
    expect(mail.sent).toEqual([]);
  });

  test('a spent quota is noted; the last email of the day still goes', () => {
    const spent = mailbox({ remaining: 0 });
    const a = alertRun(watchedSpec(alert(5)), ids(2), { mail: spent.port, listed: listedIds(['lp_0']).port });
    expect(a.note).toBe(
      " Alert not sent: today's email quota is spent. Its record is kept: the next run that can send reports these changes.",
    );
    expect(a.run.alert).toBe('quota spent');
    expect(spent.sent).toEqual([]);
    const last = mailbox({ remaining: 1 });
    const b = alertRun(watchedSpec(alert(5)), ids(2), { mail: last.port, listed: listedIds(['lp_0']).port });
    expect(b.run.alert).toBe('sent to me@example.com');
    expect(last.sent).toHaveLength(1);
  });

  test('a failed send is noted with its reason', () => {
    const mail = mailbox({ failure: new Error('Invalid email: me@example') });
    const { note, run } = alertRun(watchedSpec(alert(5)), ids(2), { mail: mail.port, listed: listedIds([]).port });
    expect(note).toBe(' Alert not sent: Invalid email: me@example');
    expect(run.alert).toBe('not sent');
  });

  test("the email goes to the alert's owner, naming each partner from the rows' fullName column", () => {
    const mail = mailbox();
    const rows = [
      ['Eve', 'lp_1'],
      ['', 'lp_2'],
    ];
    const { note, run } = alertRun(watchedSpec(alert(5), ['fullName', 'id']), rows, {
      mail: mail.port,
      listed: listedIds(['lp_9']).port,
    });
    expect(note).toBe(' Alert: 3 changes emailed to me@example.com.');
    expect(run.alert).toBe('sent to me@example.com');
    expect(mail.sent).toHaveLength(1);
    expect(mail.sent[0].to).toBe('me@example.com');
    expect(mail.sent[0].body.split('\n').slice(1, 4)).toEqual([
      'Eve (lp_1)\tadded\t\t',
      'lp_2\tadded\t\t',
      'lp_9\tremoved\t\t',
    ]);
  });

  test('without a fullName column, or a row without its name, the email names partners by id', () => {
    for (const [fields, rows] of [
      [['id', 'firm'], [['lp_1', 'Acme']]],
      [['id', 'fullName'], [['lp_1']]],
    ] as const) {
      const mail = mailbox();
      alertRun(
        watchedSpec(alert(5), [...fields]),
        rows.map((r) => [...r]),
        {
          mail: mail.port,
          listed: listedIds([]).port,
        },
      );
      expect(mail.sent.map((m) => m.body.split('\n')[1])).toEqual(['lp_1\tadded\t\t']);
    }
  });

  /** An alert's record with values: each partner's watched fields as its owner was last told. */
  function record(before: Known[]): { known: Known[]; writes: number; port: ListedPort } {
    const r = { known: before, writes: 0, port: undefined as unknown as ListedPort };
    r.port = {
      read: () => r.known,
      write: (_id, now) => {
        r.writes++;
        r.known = [...now];
      },
      remove: () => undefined,
    };
    return r;
  }
  const onFirm = (a: Alert): Alert => ({ ...a, on: ['changed'], fields: ['firm'] });

  test('a watched value changed since the record is emailed with its before and after; the record moves on', () => {
    const mail = mailbox();
    const told = record([{ id: 'lp_1', name: '', values: ['Acme'] }]);
    const { note } = alertRun(watchedSpec(onFirm(alert(5)), ['id', 'firm']), [['lp_1', 'Acme & Co']], {
      mail: mail.port,
      listed: told.port,
    });
    expect(note).toBe(' Alert: 1 change emailed to me@example.com.');
    expect(mail.sent[0].body.split('\n')[1]).toBe('lp_1\tfirm\tAcme\tAcme & Co');
    expect(told.known).toEqual([{ id: 'lp_1', name: '', values: ['Acme & Co'] }]);
  });

  test('a partner the record names keeps that name in the email when this run has none for it', () => {
    const mail = mailbox();
    const told = record([{ id: 'lp_1', name: 'Eve', values: ['Acme'] }]);
    alertRun(watchedSpec(onFirm(alert(5)), ['id', 'firm']), [['lp_1', 'Acme & Co']], {
      mail: mail.port,
      listed: told.port,
    });
    expect(mail.sent[0].body.split('\n')[1]).toBe('Eve (lp_1)\tfirm\tAcme\tAcme & Co');
  });

  test('an alert on every field records the values of every field the import writes', () => {
    const told = record([{ id: 'lp_1', name: '', values: ['lp_1', 'Ann', 'Acme'] }]);
    const mail = mailbox();
    alertRun(watchedSpec(alert(5), ['id', 'fullName', 'firm']), [['lp_1', 'Ann', 'Beta']], {
      mail: mail.port,
      listed: told.port,
    });
    expect(mail.sent[0].subject).toBe('1 change to partners in "Partners" (0 added, 0 removed, 1 changed)');
    expect(told.known).toEqual([{ id: 'lp_1', name: 'Ann', values: ['lp_1', 'Ann', 'Beta'] }]);
  });

  test('a run that cannot send (mail not allowed, quota spent) keeps the record, so the next run reports the change', () => {
    const told = record([{ id: 'lp_1', name: '', values: ['Acme'] }]);
    const spec = watchedSpec(onFirm(alert(5)), ['id', 'firm']);
    const off = mailbox();
    off.port.off = () => 'ed@example.com has not allowed the add-in to send email as them.';
    const a = alertRun(spec, [['lp_1', 'Beta']], { mail: off.port, listed: told.port });
    expect(a.note).toBe(
      ' Alert not sent: ed@example.com has not allowed the add-in to send email as them. Its record is kept: the next run that can send reports these changes.',
    );
    expect(a.run.alert).toBe('not sent');
    const spent = mailbox({ remaining: 0 });
    expect(alertRun(spec, [['lp_1', 'Beta']], { mail: spent.port, listed: told.port }).run.alert).toBe('quota spent');
    expect([told.writes, told.known]).toEqual([0, [{ id: 'lp_1', name: '', values: ['Acme'] }]]);
    const later = mailbox();
    alertRun(spec, [['lp_1', 'Beta']], { mail: later.port, listed: told.port });
    expect(later.sent.map((m) => m.body.split('\n')[1])).toEqual(['lp_1\tfirm\tAcme\tBeta']);
  });

  test('a removed partner is named from the record, beside their id; a new one from the run', () => {
    const told = record([
      { id: 'lp_1', name: 'Ann Lee', values: ['Ann Lee'] },
      { id: 'lp_2', name: 'Bo Chan', values: ['Bo Chan'] },
    ]);
    const mail = mailbox();
    alertRun(
      watchedSpec(alert(5), ['id', 'fullName']),
      [
        ['lp_1', 'Ann Lee'],
        ['lp_3', 'Cy Diaz'],
      ],
      {
        mail: mail.port,
        listed: told.port,
      },
    );
    const lines = mail.sent[0].body.split('\n');
    expect(lines).toContain('Cy Diaz (lp_3)\tadded\t\t');
    expect(lines).toContain('Bo Chan (lp_2)\tremoved\t\t');
    expect(told.known.map((k) => k.name)).toEqual(['Ann Lee', 'Cy Diaz']);
  });

  test('the email names when the run found the changes, in UTC with the zone, and a changed date as a time, not ISO text', () => {
    const told = record([{ id: 'lp_1', name: '', values: ['2026-01-02T03:04:05.000Z'] }]);
    const mail = mailbox();
    const spec = watchedSpec({ ...alert(5), on: ['changed'], fields: ['updatedAt'] }, ['id', 'updatedAt']);
    const a = alertRun(spec, [['lp_1', new Date(Date.UTC(2026, 1, 3, 14, 30))]], {
      mail: mail.port,
      listed: told.port,
    });
    const [first, row] = mail.sent[0].body.split('\n');
    const at = new Date(a.run.startedAt).toISOString().slice(0, 16).replace('T', ' ');
    expect(first).toBe(`The import into "Partners" found 1 change on ${at} UTC: 0 added, 0 removed, 1 changed.`);
    expect(row).toBe('lp_1\tupdatedAt\t2026-01-02 03:04 UTC\t2026-02-03 14:30 UTC');
    expect(mail.sent[0].html).toContain('<td>2026-01-02 03:04 UTC</td><td>2026-02-03 14:30 UTC</td>');
  });
});

test('the record keeps a missing cell as empty text, and text of 400 characters whole', () => {
  const exact = 'y'.repeat(400);
  expect(knownOf([['lp_1', exact, `${exact}z`], ['lp_2']], 0, [1, 2]).map((k) => k.values)).toEqual([
    [exact, expect.stringMatching(/^y{400}… #[0-9a-z]+$/)],
    ['', ''],
  ]);
});
