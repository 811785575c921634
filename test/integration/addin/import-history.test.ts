/**
 * History, through the deployed bundle in the emulator against the reference service: scheduled
 * runs keep exactly `keep` runs in "<sheet> history", each whole and marked with its run time;
 * the sheet is the import's by record (tag and warning-only protection) and another sheet of
 * that name is never written; the cell limit refuses with how many runs fit and the table still
 * lands; an execution killed at any point of a run (swept across the whole run) leaves whole runs
 * only, and the run finished in the next execution adds its rows once.
 */
import type { Emulator } from '../../../dev/emulator/runtime';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { addin } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, startService } from '../../helpers/service';

const PARTNERS = 40;
let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', String(PARTNERS), '--max-page-size', '50']);
});
afterAll(() => svc.stop());

const HOUR = 3_600_000;

/** The history's runs, in sheet order: each run's time and its rows' ids. */
function runsOf(emu: Emulator, name: string): Array<{ at: number; ids: string[] }> {
  const runs: Array<{ at: number; ids: string[] }> = [];
  for (const row of sheet(emu, name).slice(1)) {
    const at = row[0] instanceof Date ? row[0].getTime() : Number.NaN;
    const last = runs[runs.length - 1];
    if (last && last.at === at) last.ids.push(String(row[1]));
    else runs.push({ at, ids: [String(row[1])] });
  }
  return runs;
}

/** Every run in the history holds the whole list (the service's active partners, as many as the table's rows). */
const wholeRunsOnly = (emu: Emulator, name: string) => {
  const runs = runsOf(emu, name);
  const listed = sheet(emu, name.replace(/ history$/, '')).length - 1;
  expect(listed).toBeGreaterThan(PARTNERS / 2);
  expect(runs.map((r) => (Number.isNaN(r.at) ? -1 : r.ids.length))).toEqual(runs.map(() => listed));
  expect(new Set(runs.map((r) => r.at)).size).toBe(runs.length);
  return runs;
};

test('scheduled runs keep exactly `keep` runs, whole, newest last; the run log counts the rows each wrote', () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Kept', fields: ['id', 'fullName', 'upvotes'], history: { keep: 3 } });
  expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
  for (let i = 1; i <= 5; i++) {
    a.emu.advance(HOUR + 60_000);
    expect(wholeRunsOnly(a.emu, 'Kept history')).toHaveLength(Math.min(i, 3));
  }
  const log = sheet(a.emu, 'Investor Data log').slice(1);
  expect(log).toHaveLength(5);
  const listed = sheet(a.emu, 'Kept').length - 1;
  expect(
    log.every(
      (r) => r[RUN_LOG_HEADER.indexOf('Source')] === 'schedule' && r[RUN_LOG_HEADER.indexOf('History rows')] === listed,
    ),
  ).toBe(true);
  const runs = runsOf(a.emu, 'Kept history');
  expect(runs.map((r) => r.at)).toEqual(log.slice(-3).map((r) => (r[0] as Date).getTime()));
  expect(runs[2].ids).toEqual(
    sheet(a.emu, 'Kept')
      .slice(1)
      .map((r) => String(r[0])),
  );
  expect(sheet(a.emu, 'Kept history')[0]).toEqual(['Run at', 'id', 'fullName', 'upvotes']);
  // The import's by record: a tag on the sheet naming it, and a warning-only protection of the sheet.
  const s = a.emu.workbook.byName('Kept history');
  expect(s?.metadata.map((m) => [m.type, m.key, m.value])).toEqual([['SHEET', 'investorData.history', id]]);
  expect(s?.protections).toEqual([
    expect.objectContaining({ sheet: true, warningOnly: true, description: expect.stringContaining(id) }),
  ]);
  // Deleted, the import leaves the sheet to the analyst: no tag, no protection, its rows kept.
  expect(call(a.emu, 'deleteImport', [id]).ok).toBe(true);
  expect([s?.metadata, s?.protections, runsOf(a.emu, 'Kept history').length]).toEqual([[], [], 3]);
});

test("a sheet of that name that is not the import's is never written; the table still lands", () => {
  const a = addin(svc.url);
  const mine = a.emu.workbook.addSheet('Theirs history');
  mine.set(0, 0, 'my notes');
  const id = saveImport(a.emu, { sheetName: 'Theirs', fields: ['id'], history: { keep: 2 } });
  const steps = runImport(a.emu, id);
  expect(steps[steps.length - 1]).toMatchObject({ status: 'done', rows: sheet(a.emu, 'Theirs').length - 1 });
  expect(steps[steps.length - 1].message).toContain(
    'History not kept: The sheet "Theirs history" is not this import\'s history; rename or delete it to keep history.',
  );
  expect(sheet(a.emu, 'Theirs history')).toEqual([['my notes']]);
});

test('the cell limit refuses the history with how many runs fit; with that many, it is kept', () => {
  const a = addin(svc.url);
  // Another sheet takes nearly all of the spreadsheet's 10,000,000 cells.
  const big = a.emu.workbook.addSheet('Big');
  big.maxRows = 380_000;
  big.maxCols = 26;
  // A first run without history makes the sheets every run needs (the table, the run log): the room left is then what history has.
  const id = saveImport(a.emu, { sheetName: 'Limited', fields: ['id', 'fullName'] });
  runImport(a.emu, id);
  expect(
    call(a.emu, 'saveImport', [{ id, sheetName: 'Limited', fields: ['id', 'fullName'], history: { keep: 100 } }]).ok,
  ).toBe(true);
  const steps = runImport(a.emu, id);
  const last = steps[steps.length - 1];
  expect(last.status).toBe('done');
  const m =
    /History not kept: 100 runs of \d+ rows would take the spreadsheet past its 10,000,000 cells; (\d+) runs of this size fit beside its other sheets\. Keep at most \1 runs\./.exec(
      last.message,
    );
  expect(m).not.toBeNull();
  expect(sheet(a.emu, 'Limited').length).toBeGreaterThan(PARTNERS / 2);
  expect(runsOf(a.emu, 'Limited history')).toEqual([]);
  const fit = Number(m?.[1]);
  expect(fit).toBeGreaterThan(1);
  expect(
    call(a.emu, 'saveImport', [{ id, sheetName: 'Limited', fields: ['id', 'fullName'], history: { keep: fit } }]).ok,
  ).toBe(true);
  for (let i = 0; i < fit + 1; i++) {
    const done = runImport(a.emu, id);
    expect(done[done.length - 1].message).toContain('History: ');
  }
  expect(wholeRunsOnly(a.emu, 'Limited history')).toHaveLength(fit);
});

test('a run killed at any point leaves whole runs only; finished in the next execution, it adds its rows once', () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Killed', fields: ['id', 'fullName'], history: { keep: 2 } });
  runImport(a.emu, id);
  runImport(a.emu, id);
  // How long one whole run takes (one execution: the list is one page), to sweep kills across it.
  const timed = a.emu.run<{ ok: boolean; status: string }>('startImport', [id], { kind: 'sidebar' });
  expect(timed.value?.status).toBe('done');
  const span = timed.ledger.endedAt - timed.ledger.startedAt;
  let killed = 0;
  for (let k = 1; k <= 40; k++) {
    a.emu.clock.advance(60_000);
    const r = a.emu.run('startImport', [id], { kind: 'sidebar', killAfterMs: Math.round((span * k) / 40) });
    if (r.error !== undefined) killed++;
    wholeRunsOnly(a.emu, 'Killed history');
    // The next execution finishes the run (the continuation, as the trigger would).
    for (let s = call(a.emu, 'continueImport', [id]); s.ok && s.status === 'running'; )
      s = call(a.emu, 'continueImport', [id]);
    const runs = wholeRunsOnly(a.emu, 'Killed history');
    expect(runs).toHaveLength(2);
    expect(runs[1].ids).toEqual(
      sheet(a.emu, 'Killed')
        .slice(1)
        .map((x) => String(x[0])),
    );
  }
  expect(killed).toBeGreaterThan(20);
});

/** Sorts the data rows of a sheet in place, as an analyst does with Data ▸ Sort range. */
function sortRows(emu: Emulator, name: string, compare: (x: unknown[], y: unknown[]) => number): void {
  const s = emu.workbook.byName(name);
  if (!s) throw new Error(`no sheet ${name}`);
  const [, ...rows] = sheet(emu, name);
  rows.sort(compare);
  rows.forEach((row, r) => row.forEach((v, c) => s.set(r + 1, c, v as never)));
}

const timeAt = (row: unknown[] | undefined) => (row?.[0] instanceof Date ? row[0].getTime() : 0);
/** When the last run in the run log started. */
const lastStarted = (emu: Emulator) => timeAt(sheet(emu, 'Investor Data log').at(-1));

test.each<[string, (x: unknown[], y: unknown[]) => number]>([
  ['newest first', (x, y) => timeAt(y) - timeAt(x)],
  ['by name', (x, y) => String(x[2]).localeCompare(String(y[2]))],
])('a history sheet the analyst sorted %s keeps the newest runs by their time, each whole', (_how, compare) => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Sorted', fields: ['id', 'fullName'], history: { keep: 3 } });
  const started: number[] = [];
  for (let i = 0; i < 3; i++) {
    a.emu.clock.advance(HOUR);
    runImport(a.emu, id);
    started.push(lastStarted(a.emu));
  }
  const perRun = sheet(a.emu, 'Sorted').length - 1;
  sortRows(a.emu, 'Sorted history', compare);
  a.emu.clock.advance(HOUR);
  const steps = runImport(a.emu, id);
  started.push(lastStarted(a.emu));
  expect(steps.at(-1)?.message).toContain('History: 3 runs kept in "Sorted history".');
  const rows = sheet(a.emu, 'Sorted history').slice(1);
  const byRun = new Map<number, number>();
  for (const r of rows) byRun.set(timeAt(r), (byRun.get(timeAt(r)) ?? 0) + 1);
  // The oldest run went, whole; the three newest stay, whole.
  expect([...byRun.keys()].sort()).toEqual(started.slice(1).sort());
  expect([...byRun.values()]).toEqual([perRun, perRun, perRun]);
});

test('two imports whose sheet names differ only after character 92 each keep their own history sheet', () => {
  const a = addin(svc.url);
  const names = ['a', 'b'].map((end) => `${'x'.repeat(95)}${end}`);
  const ids = names.map((sheetName) => saveImport(a.emu, { sheetName, fields: ['id'], history: { keep: 2 } }));
  const messages = ids.map((id) => runImport(a.emu, id).at(-1)?.message ?? '');
  const list = call(a.emu, 'listImports', []);
  const sheets = list.ok ? list.imports.map((i) => i.historySheet) : [];
  expect(sheets).toEqual([`${'x'.repeat(92)} history`, `${'x'.repeat(90)} history 2`]);
  messages.forEach((m, i) => expect(m).toContain(`History: 1 run kept in "${sheets[i]}".`));
  expect(sheets.map((name) => runsOf(a.emu, name).length)).toEqual([1, 1]);
});
