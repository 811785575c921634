import type { Emulator } from '../../../dev/emulator/runtime';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { STEP_BUDGET_MS } from '../../../src/import/machine';
import { addin } from '../../helpers/addin';
import { call, callUnchecked, formulasOf, runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '400', '--max-page-size', '50']);
});
afterAll(() => svc.stop());

/**
 * Starts an import and kills its execution while it waits for page 1: after its run is saved (about 60 ms
 * in on a quiet machine, more on a busy one: the kill is on the wall clock), and before the answer can
 * come (the service answers after 1 s), so the kill always lands at the end of that first request.
 */
async function killedStart(emu: Emulator, id: string): Promise<void> {
  await svc.config({ latencyMs: 1000 });
  try {
    const killed = emu.run('startImport', [id], { kind: 'sidebar', killAfterMs: 400 });
    expect(killed.error).toBe('Exceeded maximum execution time');
  } finally {
    await svc.config({ latencyMs: 0 });
  }
}

function addAnalystColumns(emu: Emulator, name: string): void {
  const s = emu.workbook.byName(name);
  if (!s) throw new Error('no sheet');
  const width = s.lastColumn();
  s.set(0, width, 'Notes');
  s.set(0, width + 1, 'Id length');
  for (let r = 1; r < s.lastRow(); r++) {
    s.set(r, width, `note:${String(s.get(r, 0))}`);
    s.set(r, width + 1, '', `=LEN(A${r + 1})`);
  }
}

describe('merge by id', () => {
  test('every row stays where it is, with its analyst cells, after the service reorders, deactivates and changes partners', async () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Book', fields: ['id', 'fullName', 'upvotes'], mode: 'merge' });
    runImport(a.emu, id);
    const first = sheet(a.emu, 'Book');
    addAnalystColumns(a.emu, 'Book');
    const gone = [first[3][0], first[10][0], first[20][0]] as string[];
    const touched = [first[5][0], first[6][0]] as string[];
    await svc.mutate({ deactivate: gone, reorder: 'reverse', touch: touched });
    const steps = runImport(a.emu, id);
    expect(steps[steps.length - 1].message).toMatch(/0 new, 3 no longer active, 2 field changes\.$/);
    const after = sheet(a.emu, 'Book');
    expect(after[0]).toEqual(['id', 'fullName', 'upvotes', 'Notes', 'Id length']);
    expect(after.map((r) => r[0])).toEqual(first.map((r) => r[0]));
    const s = a.emu.workbook.byName('Book');
    for (let r = 1; r < after.length; r++) {
      expect(after[r][3]).toBe(`note:${String(after[r][0])}`);
      expect(s?.formulas.get(`${r},4`)).toBe(`=LEN(A${r + 1})`);
    }
    expect(formulasOf(a.emu, 'Book').every((f) => /^=LEN\(A\d+\)$/.test(f))).toBe(true);
    expect(after.some((r) => String(r[1]).startsWith('=HYPERLINK'))).toBe(true);
    expect(formulasOf(a.emu, 'Investor Data changes')).toEqual([]);
    expect(formulasOf(a.emu, 'Investor Data log')).toEqual([]);
    const changes = sheet(a.emu, 'Investor Data changes');
    expect(changes[0]).toEqual(['When', 'Sheet', 'Partner id', 'Change', 'Field', 'Before', 'After']);
    expect(
      changes
        .filter((c) => c[3] === 'no longer active')
        .map((c) => c[2])
        .sort(),
    ).toEqual([...gone].sort());
    expect(
      changes
        .filter((c) => c[3] === 'changed')
        .map((c) => `${c[2]}:${c[4]}`)
        .sort(),
    ).toEqual(touched.map((t) => `${t}:upvotes`).sort());
  });
});

describe('runs that overlap', () => {
  test('a run waits for a lock another execution holds, and reports when it cannot get it', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Locked', fields: ['id'] });
    a.emu.holdLock('document', 60_000);
    const blocked = call(a.emu, 'startImport', [id]);
    expect(blocked.ok && blocked.message).toBe(
      'Another import is writing to this spreadsheet; waiting for it to finish.',
    );
    expect(a.emu.workbook.byName('Locked')).toBeUndefined();
    a.emu.holdLock('document', 10_000);
    const t = a.emu.clock.now();
    const steps = runImport(a.emu, id);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(a.emu.clock.now() - t).toBeGreaterThanOrEqual(10_000);
  });

  test('starting an import that is already running carries on the same run instead of starting another', async () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Once', fields: ['id'] });
    await killedStart(a.emu, id);
    const status = call(a.emu, 'importStatus', [id]);
    expect(status.ok && status.status).toBe('running');
    const steps = runImport(a.emu, id);
    expect(steps[steps.length - 1].status).toBe('done');
    const log = sheet(a.emu, 'Investor Data log');
    expect(log).toHaveLength(2);
  });
});

describe('a service that is rate limiting for a while', () => {
  afterEach(() => svc.config({ faults: { rateLimit: 0 } }));

  test('a step that meets a retryable failure stops and the run carries on later; a service that keeps saying Retry-After fails the run once 10 minutes pass without a page', async () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Patient', fields: ['id'] });
    await svc.config({ faults: { rateLimit: 1, retryAfterSeconds: 30 } });
    const first = call(a.emu, 'startImport', [id]);
    expect(first).toMatchObject({
      ok: true,
      status: 'running',
      message: 'Rate limited by the data service, retry in 30 s. Continuing at page 1 in the next step.',
    });
    await svc.config({ faults: { rateLimit: 0 } });
    const steps = runImport(a.emu, id);
    expect(steps[steps.length - 1].status).toBe('done');
    expect(sheet(a.emu, 'Patient').length).toBeGreaterThan(300);
    await svc.config({ faults: { rateLimit: 1, retryAfterSeconds: 30 } });
    const before = a.emu.history.length;
    const failing = runImport(a.emu, id);
    const steps2 = a.emu.history.slice(before).filter((l) => l.kind === 'sidebar');
    expect(failing.slice(0, -1).every((s) => s.status === 'running')).toBe(true);
    expect(failing[failing.length - 1]).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(
        /^Rate limited by the data service, retry in 30 s\. The import gave up after \d+ requests refused and 0 pages read again \(it may spend 100 before the list's first page\), 10 minutes since the run began\. The sheet "Patient" keeps its previous data\.$/,
      ),
    });
    // Steps within their budget, waiting 30 s between attempts, over 10 minutes (and not much more).
    expect(Math.max(...steps2.map((l) => l.endedAt - l.startedAt))).toBeLessThanOrEqual(STEP_BUDGET_MS);
    const waited = steps2[steps2.length - 1].endedAt - steps2[0].startedAt;
    expect(waited).toBeGreaterThan(600_000);
    expect(waited).toBeLessThan(600_000 + 60_000);
    expect(sheet(a.emu, 'Patient').length).toBeGreaterThan(300);
  });
});

describe('cancel', () => {
  // A run killed in its first step has staged nothing: the removal of a run's staging on Cancel is checked
  // where a step has staged pages (test/unit/import/machine.test.ts, "interruptions").
  test('cancelling a run in progress logs it and leaves the target as it was', async () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Cancelled', fields: ['id'] });
    runImport(a.emu, id);
    const before = sheet(a.emu, 'Cancelled');
    await killedStart(a.emu, id);
    expect(call(a.emu, 'importStatus', [id])).toMatchObject({ ok: true, status: 'running' });
    const cancelled = call(a.emu, 'cancelImport', [id]);
    expect(cancelled).toMatchObject({
      ok: true,
      status: 'cancelled',
      message: 'The sheet "Cancelled" keeps its previous data.',
    });
    expect(sheet(a.emu, 'Cancelled')).toEqual(before);
    const log = sheet(a.emu, 'Investor Data log');
    expect(log[log.length - 1][5]).toBe('cancelled');
  });
});

describe('scheduled refresh', () => {
  test('a schedule creates one hourly dispatcher; due imports run on the emulated clock; removing it removes the trigger', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Hourly', fields: ['id', 'fullName'] });
    const other = saveImport(a.emu, { sheetName: 'Daily', fields: ['id'] });
    expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 2 }]).ok).toBe(true);
    expect(call(a.emu, 'scheduleImport', [other, { every: 'day', atHour: 6 }]).ok).toBe(true);
    expect(a.emu.triggers.triggers.map((t) => t.handler)).toEqual(['runScheduledImports']);
    const runs = a.emu.advance(3 * 3_600_000);
    expect(runs).toHaveLength(3);
    expect(runs.every((r) => r.error === undefined)).toBe(true);
    expect(sheet(a.emu, 'Hourly').length).toBeGreaterThan(300);
    expect(sheet(a.emu, 'Daily')).toEqual([]);
    const log = sheet(a.emu, 'Investor Data log');
    expect(log.slice(1).map((r) => `${r[2]}:${r[4]}:${r[5]}`)).toEqual(['Hourly:schedule:done']);
    expect(callUnchecked(a.emu, 'scheduleImport', [id, { every: 'minutes', hours: 1 }]).ok).toBe(false);
    call(a.emu, 'scheduleImport', [id, null]);
    call(a.emu, 'scheduleImport', [other, null]);
    expect(a.emu.triggers.triggers).toEqual([]);
  });

  test('a scheduled run that keeps failing is carried on at each hourly run, then logged as failed; the sheet keeps its last good data', async () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Nightly', fields: ['id'] });
    runImport(a.emu, id);
    const before = sheet(a.emu, 'Nightly');
    call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]);
    await svc.config({ faults: { error502: 1 } });
    try {
      // Begun at the first hourly run, carried on at the next: an hour without a page is past the give-up budget.
      a.emu.advance(4 * 3_600_000);
    } finally {
      await svc.config({ faults: { error502: 0 } });
    }
    expect(sheet(a.emu, 'Nightly')).toEqual(before);
    const log = sheet(a.emu, 'Investor Data log');
    // The Outcome column says it failed; the Message column says why, without saying "failed" again.
    expect(log[log.length - 1][RUN_LOG_HEADER.indexOf('Outcome')]).toBe('failed');
    expect(log[log.length - 1][RUN_LOG_HEADER.indexOf('Message')]).toMatch(
      /^The data service failed \(HTTP 502\b.*\. The sheet "Nightly" keeps its previous data\.$/,
    );
    const list = call(a.emu, 'listImports', []);
    expect(list.ok && list.imports.find((i) => i.id === id)?.last?.status).toBe('failed');
  });
});

describe('merge never drops analyst data silently', () => {
  test('a header "ID" below a title row is found; the title, the analyst column and the headers as the analyst named them stay', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Titled', fields: ['id', 'fullName'], mode: 'merge' });
    runImport(a.emu, id);
    const s = a.emu.workbook.byName('Titled');
    if (!s) throw new Error('no sheet');
    const rows = sheet(a.emu, 'Titled');
    s.clear();
    const titled = [
      ['Our LP list', ''],
      ['ID', 'Partner', 'Notes'],
      ...rows.slice(1).map((r) => [String(r[0]), String(r[1]), `note:${String(r[0])}`]),
    ];
    titled.forEach((row, r) => row.forEach((v, c) => s.set(r, c, v)));
    for (const run of [1, 2]) {
      const last = runImport(a.emu, id).pop();
      expect([run, last?.status]).toEqual([run, 'done']);
      const after = sheet(a.emu, 'Titled');
      expect(after[0][0]).toBe('Our LP list');
      expect(after[1]).toEqual(['ID', 'Partner', 'Notes']);
      expect(after.slice(2).every((r) => r[2] === `note:${String(r[0])}`)).toBe(true);
    }
  });

  test('a table the import did not write: the run fails with the reason before any request and the sheet is untouched until the analyst lets the import own it; a repeated id keeps its row', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Mine', fields: ['id', 'fullName'], mode: 'merge' });
    a.emu.workbook.addSheet('Mine');
    const s = a.emu.workbook.byName('Mine');
    if (!s) throw new Error('no sheet');
    [
      ['Name', 'Notes'],
      ['Ann', 'keep me'],
    ].forEach((row, r) => row.forEach((v, c) => s.set(r, c, v)));
    const before = sheet(a.emu, 'Mine');
    const from = a.emu.history.length;
    const failed = runImport(a.emu, id).pop();
    expect(failed).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('"Mine" holds a table the import did not write; nothing was changed.'),
    });
    expect(a.emu.history.slice(from).reduce((n, l) => n + l.fetches, 0)).toBe(0);
    expect(sheet(a.emu, 'Mine')).toEqual(before);
    // Replace anyway, saved while the import replaced, lifts no merge's refusal.
    const saved = JSON.parse(String(a.emu.store('document').get('INVESTOR_DATA_IMPORTS')));
    saved.imports[0].replaceAnyway = true;
    a.emu.store('document').set('INVESTOR_DATA_IMPORTS', JSON.stringify(saved));
    const again = a.emu.history.length;
    expect(runImport(a.emu, id).pop()?.message).toContain('"Mine" holds a table the import did not write');
    expect(a.emu.history.slice(again).reduce((n, l) => n + l.fetches, 0)).toBe(0);
    expect(sheet(a.emu, 'Mine')).toEqual(before);
    [
      ['id', 'fullName', 'Notes'],
      ['lp_0000a', 'x', 'first'],
      ['lp_0000a', 'x', 'second'],
    ].forEach((row, r) => row.forEach((v, c) => s.set(r, c, v)));
    expect(runImport(a.emu, id).pop()?.status).toBe('failed');
    expect(call(a.emu, 'adoptTable', [id]).ok).toBe(true);
    const done = runImport(a.emu, id).pop();
    expect(done?.message).toContain('1 row with a repeated id kept as it was.');
    const notes = sheet(a.emu, 'Mine').map((r) => r[2]);
    expect(notes).toEqual(expect.arrayContaining(['first', 'second']));
  });
});

describe('state saved in another shape (its version differs)', () => {
  test('saved imports of another version are read as none, and the next save keeps only what it saves', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Kept', fields: ['id'] });
    const saved = JSON.parse(String(a.emu.store('document').get('INVESTOR_DATA_IMPORTS')));
    expect(saved).toMatchObject({ version: 1, imports: [{ id, sheetName: 'Kept' }] });
    a.emu.store('document').set('INVESTOR_DATA_IMPORTS', JSON.stringify(saved.imports));
    expect(call(a.emu, 'listImports', [])).toMatchObject({ ok: true, imports: [] });
    a.emu.store('document').set('INVESTOR_DATA_IMPORTS', JSON.stringify({ ...saved, version: 2 }));
    expect(call(a.emu, 'listImports', [])).toMatchObject({ ok: true, imports: [] });
    const fresh = saveImport(a.emu, { sheetName: 'Fresh', fields: ['id'] });
    const listed = call(a.emu, 'listImports', []);
    expect(listed.ok && listed.imports.map((i) => [i.id, i.sheetName])).toEqual([[fresh, 'Fresh']]);
  });

  test('it shows as no run, and a new start reads afresh', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Legacy', fields: ['id'] });
    const old = {
      runId: 'r1',
      importId: id,
      source: 'sidebar',
      status: 'running',
      startedAt: 1,
      updatedAt: 1,
      pageSize: 50,
      totalItems: 340,
      totalPages: 7,
      nextPage: 4,
      staged: 150,
      read: 150,
      pass: 1,
      passChanged: false,
      stalls: 0,
      fetches: 3,
      retries: 0,
      executions: 1,
      message: 'Page 3 of 7',
    };
    a.emu.store('document').set(`INVESTOR_DATA_RUN_${id}`, JSON.stringify(old));
    expect(call(a.emu, 'importStatus', [id])).toMatchObject({ ok: true, status: 'idle', message: '' });
    const done = runImport(a.emu, id).pop();
    expect(done?.status).toBe('done');
    expect(
      new Set(
        sheet(a.emu, 'Legacy')
          .slice(1)
          .map((r) => r[0]),
      ).size,
    ).toBe(sheet(a.emu, 'Legacy').length - 1);
  });
});

describe('replace keeps what the analyst added', () => {
  test('a formula typed right of the imported table (README quick start): the next import is refused before any request, the sheet untouched', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Quick', fields: ['id', 'fullName', 'firm'], mode: 'replace' });
    expect(runImport(a.emu, id).pop()?.status).toBe('done');
    const s = a.emu.workbook.byName('Quick');
    if (!s) throw new Error('no sheet');
    s.set(1, s.lastColumn(), '', '=LP_GET(A2:A20, "fullName,firm")');
    const before = { values: sheet(a.emu, 'Quick'), formulas: [...s.formulas] };
    const from = a.emu.history.length;
    const last = runImport(a.emu, id).pop();
    expect(last?.status).toBe('failed');
    expect(last?.message).toBe(
      'Replace stopped: "Quick" is not as the import left it (D2 (a formula)). Undo those edits, import with merge by id, or choose Replace anyway. The sheet "Quick" keeps its previous data.',
    );
    expect(a.emu.history.slice(from).reduce((n, l) => n + l.fetches, 0)).toBe(0);
    expect({ values: sheet(a.emu, 'Quick'), formulas: [...s.formulas] }).toEqual(before);
    // Moved away, the next run replaces the table again.
    s.set(1, 3, '', '');
    expect(runImport(a.emu, id).pop()?.status).toBe('done');
  });

  test("a column an earlier field list wrote is the import's own; a notes column, a field-named column it never wrote and a line under the ids are not", () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Kept', fields: ['id', 'fullName', 'upvotes'], mode: 'replace' });
    expect(runImport(a.emu, id).pop()?.status).toBe('done');
    // The analyst drops the upvotes column from the import: the column it wrote there is replaced without a word.
    expect(saveImport(a.emu, { id, sheetName: 'Kept', fields: ['id', 'fullName'], mode: 'replace' })).toBe(id);
    const from = a.emu.history.length;
    expect(runImport(a.emu, id).pop()?.status).toBe('done');
    // The sheet is read before the first request and again before writing (the analyst may have edited it
    // meanwhile), formulas and all; once written, by its values alone (the record is of what the sheet holds).
    const calls = (name: string) => a.emu.history.slice(from).reduce((n, l) => n + (l.calls[name] ?? 0), 0);
    expect(calls('Range.getFormulas')).toBe(2);
    expect(calls('Range.getValues')).toBeGreaterThanOrEqual(3);
    const s = a.emu.workbook.byName('Kept');
    if (!s) throw new Error('no sheet');
    expect(s.get(0, 2)).toBe('');
    const rows = s.lastRow();
    s.set(0, 2, 'Notes');
    s.set(3, 2, 'call back');
    s.set(0, 3, 'email');
    s.set(1, 3, 'ann@fund.example');
    s.set(rows + 1, 0, 'Source: pulled by Ann');
    const before = sheet(a.emu, 'Kept');
    const last = runImport(a.emu, id).pop();
    expect(last?.status).toBe('failed');
    expect(last?.message).toContain(
      `Replace stopped: "Kept" is not as the import left it (A${rows + 2} (edited), C1, D1 and 2 more).`,
    );
    expect(sheet(a.emu, 'Kept')).toEqual(before);
  });

  test('an import deleted and saved again does not own the table the first one wrote until the analyst lets it; then it replaces it in its column order', () => {
    const a = addin(svc.url);
    const first = saveImport(a.emu, { sheetName: 'Again', fields: ['id', 'fullName', 'firm'], mode: 'replace' });
    expect(runImport(a.emu, first).pop()?.status).toBe('done');
    expect(call(a.emu, 'deleteImport', [first]).ok).toBe(true);
    // Deleting the import leaves its table to the analyst: no tag, no field metadata, no protection.
    const s = a.emu.workbook.byName('Again');
    expect([s?.metadata, s?.protections]).toEqual([[], []]);
    const second = saveImport(a.emu, { sheetName: 'Again', fields: ['id', 'firm', 'fullName'], mode: 'replace' });
    expect(runImport(a.emu, second).pop()?.message).toContain('"Again" holds cells the import did not write');
    expect(call(a.emu, 'adoptTable', [second]).ok).toBe(true);
    expect(runImport(a.emu, second).pop()?.status).toBe('done');
    expect(sheet(a.emu, 'Again')[0]).toEqual(['id', 'firm', 'fullName']);
  });
});
