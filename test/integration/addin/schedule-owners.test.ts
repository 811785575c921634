/**
 * A schedule belongs to the user who saved it, through the deployed bundle in the emulator against
 * the reference service: only that user's hourly trigger runs it, with that user's key and mail
 * quota; a user without a usable key cannot save one; each scheduled import runs on its own, so
 * one that cannot begin (no key, the address changed, the spreadsheet busy) is a row in the run
 * log and its status, the others run, and its slot is tried again at the next hourly run. Each
 * case runs in a bound script and in an Editor add-on.
 */
import type { Emulator } from '../../../dev/emulator/runtime';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { addin } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, startService } from '../../helpers/service';

const OWNER_KEY = 'owner-key-0123456789';
const EDITOR_KEY = 'editor-key-9876543210';
const EDITOR = 'editor@example.com';
const HOUR = 3_600_000;
/** A bound script, and an Editor add-on under Google's trigger rules (dev/emulator/project.ts). */
const MODES: Array<[string, boolean]> = [
  ['a bound script', false],
  ['an Editor add-on', true],
];

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '60', '--max-page-size', '50', '--keys', `${OWNER_KEY},${EDITOR_KEY}`]);
});
afterAll(() => svc.stop());

const col = (name: string) => RUN_LOG_HEADER.indexOf(name);
const logRows = (emu: Emulator) => sheet(emu, 'Investor Data log').slice(1);
const statusOf = (emu: Emulator, id: string) => {
  const list = call(emu, 'listImports', []);
  return list.ok ? list.imports.find((i) => i.id === id) : undefined;
};
const asEditor = { user: EDITOR };
const giveEditorKey = (emu: Emulator) => {
  emu.store(`user:${EDITOR}`).set('INVESTOR_DATA_API_KEY', EDITOR_KEY);
  emu.store(`user:${EDITOR}`).set('INVESTOR_DATA_KEY_ADDRESS', svc.url);
};
const removeKey = (emu: Emulator, user: string) => {
  emu.store(`user:${user}`).delete('INVESTOR_DATA_API_KEY');
};
/** Who each trigger run of `runs` ran as. */
const ranAs = (runs: ReturnType<Emulator['advance']>) => runs.map((r) => r.ledger.user);

describe.each(MODES)('in %s: whose schedule runs with whose key', (_where, addOn) => {
  test('an editor without a key cannot schedule: nothing would run it with their key', () => {
    const a = addin(svc.url, OWNER_KEY, { addOn });
    const ids = Array.from({ length: 12 }, (_, i) => saveImport(a.emu, { sheetName: `E${i}`, fields: ['id'] }));
    for (const id of ids) {
      const r = call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }], asEditor);
      expect(r.ok ? '' : r.message).toMatch(/runs with the API key of whoever saves it, and you have none/);
    }
    expect(a.emu.triggers.triggers).toEqual([]);
    const runs = a.emu.advance(12 * HOUR);
    expect(runs).toEqual([]);
    expect(ids.every((id) => sheet(a.emu, `E${ids.indexOf(id)}`).length === 0)).toBe(true);
    expect(a.emu.mail.sent).toEqual([]);
  });

  test("an editor's schedule runs on the editor's trigger with the editor's key; the owner's trigger never runs it", () => {
    const a = addin(svc.url, OWNER_KEY, { addOn });
    giveEditorKey(a.emu);
    const mine = saveImport(a.emu, { sheetName: 'Owner', fields: ['id'] });
    const theirs = saveImport(a.emu, { sheetName: 'Editor', fields: ['id'] });
    expect(call(a.emu, 'scheduleImport', [mine, { every: 'hours', hours: 1 }]).ok).toBe(true);
    const saved = call(a.emu, 'scheduleImport', [theirs, { every: 'hours', hours: 1 }], asEditor);
    expect(saved.ok && saved.import.scheduledBy).toBe('you');
    expect(saved.ok && saved.import.runsWith).toBe('your key');
    expect(statusOf(a.emu, theirs)?.scheduledBy).toBe(EDITOR);
    expect(statusOf(a.emu, theirs)?.runsWith).toBe('their key');
    expect(statusOf(a.emu, mine)?.runsWith).toBe('your key');
    // One trigger each, in this document.
    expect(a.emu.triggers.triggers.map((t) => t.user).sort()).toEqual([EDITOR, a.emu.owner].sort());
    // The owner's key gone: the owner's schedule fails with a reason, the editor's still runs on the editor's key.
    removeKey(a.emu, a.emu.owner);
    // Its item says the owner's schedule has no key to run with, and what to do.
    expect(statusOf(a.emu, mine)?.runsWith).toMatch(
      /^your key, which is not saved for this address: it cannot run until you save it/,
    );
    const runs = a.emu.advance(HOUR + 60_000);
    expect(ranAs(runs).sort()).toEqual([EDITOR, a.emu.owner].sort());
    expect(runs.every((r) => r.error === undefined)).toBe(true);
    expect(sheet(a.emu, 'Editor').length).toBeGreaterThan(30);
    expect(sheet(a.emu, 'Owner')).toEqual([]);
    const bySheet = new Map(logRows(a.emu).map((r) => [r[col('Sheet')], r]));
    expect(bySheet.get('Editor')?.[col('Outcome')]).toBe('done');
    expect(bySheet.get('Owner')?.[col('Outcome')]).toBe('failed');
    expect(String(bySheet.get('Owner')?.[col('Message')])).toMatch(
      /^owner@example\.com has no API key saved: .*The schedule is tried again at the next hourly run\./,
    );
    // The editor's key gone too: their schedule fails, though the owner's key is back.
    a.emu.store(`user:${a.emu.owner}`).set('INVESTOR_DATA_API_KEY', OWNER_KEY);
    removeKey(a.emu, EDITOR);
    a.emu.advance(HOUR);
    const last = new Map(logRows(a.emu).map((r) => [r[col('Sheet')], r[col('Outcome')]]));
    expect(Object.fromEntries(last)).toEqual({ Owner: 'done', Editor: 'failed' });
  });

  test("an editor's alert on the owner's schedule is refused: the owner's runs would mail the editor from the owner's account", () => {
    const a = addin(svc.url, OWNER_KEY, { addOn });
    giveEditorKey(a.emu);
    const id = saveImport(a.emu, { sheetName: 'Shared', fields: ['id', 'upvotes'] });
    expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
    const r = call(
      a.emu,
      'saveImport',
      [{ id, sheetName: 'Shared', fields: ['id', 'upvotes'], alert: { on: ['added'] } }],
      asEditor,
    );
    expect(r.ok ? '' : r.message).toMatch(
      /^This import is scheduled by owner@example\.com: its scheduled runs would send your alert from their account\./,
    );
    a.emu.advance(12 * HOUR);
    expect(a.emu.mail.sent).toEqual([]);
    // Scheduled by the editor instead, the alert is theirs, and their own runs send it from their account.
    expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }], asEditor).ok).toBe(true);
    expect(
      call(
        a.emu,
        'saveImport',
        [{ id, sheetName: 'Shared', fields: ['id', 'upvotes'], alert: { on: ['changed'] } }],
        asEditor,
      ).ok,
    ).toBe(true);
    // The owner's trigger, with nothing of the owner's left to run, removes itself at its next run.
    a.emu.advance(HOUR);
    expect(a.emu.triggers.triggers.map((t) => t.user)).toEqual([EDITOR]);
  });
});

describe.each(MODES)('in %s: each scheduled import on its own', (_where, addOn) => {
  test('no usable key: every due import gets its failure in the run log and its status, and runs once the key is back', () => {
    const a = addin(svc.url, OWNER_KEY, { addOn });
    const ids = ['A', 'B', 'C'].map((name) => saveImport(a.emu, { sheetName: name, fields: ['id'] }));
    runImport(a.emu, ids[0]);
    for (const id of ids) expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
    const due = ids.map((id) => statusOf(a.emu, id)?.nextDueAt);
    removeKey(a.emu, a.emu.owner);
    const before = logRows(a.emu).length;
    // Two hourly runs: each import saved a moment after the trigger is due at the second at the latest.
    const runs = a.emu.advance(2 * HOUR + 60_000);
    expect(runs.map((r) => r.error)).toEqual([undefined, undefined]);
    const failed = logRows(a.emu).slice(before);
    expect(new Set(failed.map((r) => `${r[col('Source')]}:${r[col('Outcome')]}`))).toEqual(
      new Set(['schedule:failed']),
    );
    expect(new Set(failed.map((r) => r[col('Sheet')]))).toEqual(new Set(['A', 'B', 'C']));
    ids.forEach((id, i) => {
      const v = statusOf(a.emu, id);
      expect(v?.last?.status).toBe('failed');
      expect(v?.last?.message).toMatch(/has no API key saved: open Investor Data ▸ Settings and save it\./);
      // The slot is kept: tried again at the next hourly run, not dropped.
      expect(v?.nextDueAt).toBe(due[i]);
    });
    // A's sheet keeps its data.
    expect(sheet(a.emu, 'A').length).toBeGreaterThan(30);
    a.emu.store(`user:${a.emu.owner}`).set('INVESTOR_DATA_API_KEY', OWNER_KEY);
    const fixed = logRows(a.emu).length;
    a.emu.advance(HOUR);
    expect(
      logRows(a.emu)
        .slice(fixed)
        .map((r) => `${r[col('Sheet')]}:${r[col('Outcome')]}`),
    ).toEqual(['A:done', 'B:done', 'C:done']);
    // Each slot moved on past the run that began.
    ids.forEach((id, i) => expect(statusOf(a.emu, id)?.nextDueAt).toBeGreaterThan((due[i] ?? 0) + HOUR));
  });

  test("an address an editor changed: the owner's scheduled imports each say why, and send the key nowhere", async () => {
    const a = addin(svc.url, OWNER_KEY, { addOn });
    const ids = ['X', 'Y'].map((name) => saveImport(a.emu, { sheetName: name, fields: ['id'] }));
    for (const id of ids) expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
    a.emu.store('document').set('INVESTOR_DATA_BASE_URL', 'https://elsewhere.example.com');
    a.emu.cache('document').items.clear();
    await svc.resetStats();
    a.emu.advance(2 * HOUR + 60_000);
    expect((await svc.stats()).requests).toBe(0);
    const rows = logRows(a.emu);
    expect(new Set(rows.map((r) => `${r[col('Sheet')]}:${r[col('Outcome')]}`))).toEqual(
      new Set(['X:failed', 'Y:failed']),
    );
    expect(rows.every((r) => /the key is not sent/.test(String(r[col('Message')])))).toBe(true);
  });

  test('the spreadsheet busy at the slot: the run is recorded as not begun and begins at the next hourly run', () => {
    const a = addin(svc.url, OWNER_KEY, { addOn });
    const id = saveImport(a.emu, { sheetName: 'Daily', fields: ['id'] });
    expect(call(a.emu, 'scheduleImport', [id, { every: 'day', atHour: 11 }]).ok).toBe(true);
    const slot = statusOf(a.emu, id)?.nextDueAt ?? 0;
    // Just before the hourly run that finds the slot due, another execution takes the lock for 60 s.
    const fireAt = a.emu.triggers.triggers[0].nextRunAt;
    let at = fireAt;
    while (at < slot) at += HOUR;
    a.emu.advance(at - a.emu.clock.now() - 1);
    a.emu.holdLock('document', 60_000);
    a.emu.advance(2);
    const first = logRows(a.emu);
    expect(first.map((r) => [r[col('Sheet')], r[col('Outcome')]])).toEqual([['Daily', 'failed']]);
    expect(first[0][col('Message')]).toMatch(/could not begin; it is tried again at the next hourly run/);
    expect(sheet(a.emu, 'Daily')).toEqual([]);
    expect(statusOf(a.emu, id)?.nextDueAt).toBe(slot);
    a.emu.advance(HOUR);
    expect(logRows(a.emu).map((r) => r[col('Outcome')])).toEqual(['failed', 'done']);
    expect(sheet(a.emu, 'Daily').length).toBeGreaterThan(30);
    expect(statusOf(a.emu, id)?.nextDueAt).toBe(slot + 24 * HOUR);
  });
});
