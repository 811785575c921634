/**
 * Alerts, through the deployed bundle in the emulator against the reference service: a saved
 * import's alert emails its owner (only) once after a run, manual or scheduled, that found the
 * changes it watches; the first run sets the baseline; a run without such changes sends nothing;
 * a spent mail quota is written in the run log and the data still lands; an editor who is not
 * the owner can neither change nor remove the alert, nor delete the import that holds it.
 */
import type { Emulator } from '../../../dev/emulator/runtime';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { addin } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { activeIds, DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '120', '--max-page-size', '50']);
});
afterAll(() => svc.stop());

const HOUR = 3_600_000;
const col = (name: string) => RUN_LOG_HEADER.indexOf(name);
const lastLog = (emu: Emulator) => {
  const log = sheet(emu, 'Investor Data log');
  return log[log.length - 1];
};
const ids = (emu: Emulator, name: string) =>
  sheet(emu, name)
    .slice(1)
    .map((r) => String(r[0]));

/** A second editor of the spreadsheet, with their own key saved for the service: returns their address. */
const editorOf = (emu: Emulator) => {
  const editor = 'editor@example.com';
  emu.store(`user:${editor}`).set('INVESTOR_DATA_API_KEY', DEMO_KEY);
  emu.store(`user:${editor}`).set('INVESTOR_DATA_KEY_ADDRESS', svc.url);
  return editor;
};

describe('alerts', () => {
  test('a scheduled run after partners were added, removed and a watched field changed sends exactly one email, to the owner only', async () => {
    const a = addin(svc.url);
    const active = await activeIds(svc);
    const [gone, changed, back] = [active[3], active[7], active[11]];
    // `back` is not listed at the baseline: listed again later, it is a partner added.
    await svc.mutate({ deactivate: [back] });
    const id = saveImport(a.emu, {
      sheetName: 'Watched',
      fields: ['id', 'fullName', 'upvotes', 'updatedAt'],
      mode: 'merge',
      alert: { on: ['added', 'removed', 'changed'], fields: ['upvotes'] },
    });
    const first = runImport(a.emu, id);
    expect(first[first.length - 1].status).toBe('done');
    // The first run is the baseline: nothing to compare with, no email.
    expect(a.emu.mail.sent).toHaveLength(0);
    expect(lastLog(a.emu)[col('Alert')]).toBe('baseline');
    expect(ids(a.emu, 'Watched')).not.toContain(back);
    await svc.mutate({ deactivate: [gone], touch: [changed], reactivate: [back] });
    try {
      expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
      const fired = a.emu.advance(HOUR + 60_000);
      expect(fired.some((r) => r.ledger.kind === 'trigger' && r.ledger.name === 'runScheduledImports')).toBe(true);
      expect(fired.every((r) => r.error === undefined)).toBe(true);
      expect(a.emu.mail.sent).toHaveLength(1);
      const mail = a.emu.mail.sent[0];
      expect(mail.from).toBe(a.emu.owner);
      expect(mail.to).toEqual([a.emu.owner]);
      expect([...mail.cc, ...mail.bcc]).toEqual([]);
      expect(mail.subject).toBe('3 changes to partners in "Watched" (1 added, 1 removed, 1 changed)');
      const html = mail.htmlBody ?? '';
      // A partner no longer listed is named from the alert's record, beside the id (the new rows do not hold it).
      expect(html).toMatch(new RegExp(`<td>[^<(]+ \\(${gone}\\)</td><td>removed</td>`));
      expect(html).toMatch(/found 3 changes on \d{4}-\d\d-\d\d \d\d:\d\d UTC:/);
      expect(html).toContain(`(${back})</td><td>added</td>`);
      expect(html).toMatch(new RegExp(`\\(${changed}\\)</td><td>upvotes</td><td>\\d+</td><td>\\d+</td>`));
      // updatedAt changed too, but the alert watches upvotes only.
      expect(html).not.toContain('updatedAt');
      expect(html).toMatch(/href="https:\/\/docs\.google\.com\/spreadsheets\/d\/[^"]+#gid=\d+">Open the change log/);
      expect(`${mail.subject}${html}${mail.body}`).not.toContain(DEMO_KEY);
      expect(lastLog(a.emu)[col('Source')]).toBe('schedule');
      expect(lastLog(a.emu)[col('Alert')]).toBe(`sent to ${a.emu.owner}`);
      // Nothing changed since (the partner who left keeps its row, as merge keeps it): the next scheduled run sends nothing.
      a.emu.advance(2 * HOUR);
      expect(lastLog(a.emu)[col('Source')]).toBe('schedule');
      expect(lastLog(a.emu)[col('Outcome')]).toBe('done');
      expect(lastLog(a.emu)[col('Alert')]).toBe('no changes');
      expect(a.emu.mail.sent).toHaveLength(1);
    } finally {
      await svc.mutate({ reactivate: [gone] });
    }
  });

  test('a replace import alerts on its changes too, and a change of a field the alert does not watch sends nothing', async () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, {
      sheetName: 'Plain',
      fields: ['id', 'upvotes', 'updatedAt'],
      alert: { on: ['changed'], fields: ['updatedAt'] },
    });
    runImport(a.emu, id);
    const listed = ids(a.emu, 'Plain');
    await svc.mutate({ deactivate: [listed[5]] });
    try {
      runImport(a.emu, id);
      // A partner left, but the alert is on changed fields only.
      expect(a.emu.mail.sent).toHaveLength(0);
      await svc.mutate({ touch: [listed[2]] });
      runImport(a.emu, id);
      expect(a.emu.mail.sent.map((m) => m.subject)).toEqual([
        '1 change to partners in "Plain" (0 added, 0 removed, 1 changed)',
      ]);
      expect(
        sheet(a.emu, 'Investor Data changes')
          .filter((r) => r[2] === listed[2])
          .map((r) => r[4]),
      ).toEqual(expect.arrayContaining(['updatedAt', 'upvotes']));
    } finally {
      await svc.mutate({ reactivate: [listed[5]] });
    }
  });

  test('a spent mail quota is written in the run log; the data still lands and the run completes', async () => {
    const a = addin(svc.url, DEMO_KEY, { mailQuota: 1 });
    const id = saveImport(a.emu, {
      sheetName: 'Quota',
      fields: ['id', 'upvotes'],
      mode: 'merge',
      alert: { on: ['changed'] },
    });
    runImport(a.emu, id);
    const listed = ids(a.emu, 'Quota');
    await svc.mutate({ touch: [listed[1]] });
    runImport(a.emu, id);
    expect(a.emu.mail.sent).toHaveLength(1);
    await svc.mutate({ touch: [listed[4]] });
    const steps = runImport(a.emu, id);
    const last = steps[steps.length - 1];
    expect(last.status).toBe('done');
    expect(last.message).toContain("Alert not sent: today's email quota is spent.");
    expect(lastLog(a.emu)[col('Alert')]).toBe('quota spent');
    expect(a.emu.mail.sent).toHaveLength(1);
    const row = sheet(a.emu, 'Quota').find((r) => r[0] === listed[4]);
    const before = sheet(a.emu, 'Investor Data changes').filter((r) => r[2] === listed[4]);
    expect(before.map((r) => r[6])).toContain(row?.[1]);
    // The next day's quota sends the next change.
    a.emu.clock.advance(24 * HOUR);
    await svc.mutate({ touch: [listed[6]] });
    runImport(a.emu, id);
    expect(a.emu.mail.sent).toHaveLength(2);
    // Switched off, the alert leaves no record of the ids it listed.
    expect(a.emu.workbook.byName(`__listed_${id}`)).toBeDefined();
    expect(
      call(a.emu, 'saveImport', [{ id, sheetName: 'Quota', fields: ['id', 'upvotes'], mode: 'merge', alert: null }]).ok,
    ).toBe(true);
    expect(a.emu.workbook.byName(`__listed_${id}`)).toBeUndefined();
  });

  test("an editor who is not the alert owner can neither change nor remove it, and the owner's runs mail nobody else", () => {
    const a = addin(svc.url);
    const editor = editorOf(a.emu);
    const id = saveImport(a.emu, { sheetName: 'Owned', fields: ['id', 'upvotes'], alert: { on: ['removed'] } });
    const as = { user: editor };
    const redirect = call(
      a.emu,
      'saveImport',
      [{ id, sheetName: 'Owned', fields: ['id', 'upvotes'], alert: { on: ['removed', 'changed'] } }],
      as,
    );
    expect(redirect.ok ? '' : redirect.message).toBe(
      `Only ${a.emu.owner}, who saved this import's alert, can change or remove it.`,
    );
    const removed = call(a.emu, 'saveImport', [{ id, sheetName: 'Owned', fields: ['id', 'upvotes'], alert: null }], as);
    expect(removed.ok).toBe(false);
    // Other settings stay the editor's to change; the alert stays the owner's.
    const edited = call(a.emu, 'saveImport', [{ id, sheetName: 'Owned', fields: ['id', 'upvotes', 'firm'] }], as);
    expect(edited.ok && edited.import.alert).toEqual({ on: ['removed'], owner: a.emu.owner });
    const same = call(
      a.emu,
      'saveImport',
      [{ id, sheetName: 'Owned', fields: ['id', 'upvotes', 'firm'], alert: { on: ['removed'] } }],
      as,
    );
    expect(same.ok).toBe(true);
    const listed = call(a.emu, 'listImports', []);
    expect(listed.ok && listed.imports.map((v) => [v.alert, v.historySheet])).toEqual([
      [{ on: ['removed'], owner: a.emu.owner }, ''],
    ]);
    const owner = call(a.emu, 'saveImport', [{ id, sheetName: 'Owned', alert: null, history: { keep: 5 } }]);
    expect(owner.ok && [owner.import.alert, owner.import.history, owner.import.historySheet]).toEqual([
      undefined,
      { keep: 5, sheet: 'Owned history' },
      'Owned history',
    ]);
  });

  test('an editor who is not the alert owner cannot delete the import (which would silence the alert); its owner can', () => {
    const a = addin(svc.url);
    const editor = editorOf(a.emu);
    const id = saveImport(a.emu, { sheetName: 'Owned', fields: ['id', 'upvotes'], alert: { on: ['removed'] } });
    expect(runImport(a.emu, id).at(-1)?.status).toBe('done');
    const before = sheet(a.emu, 'Owned');
    const refused = call(a.emu, 'deleteImport', [id], { user: editor });
    expect(refused.ok ? '' : refused.message).toBe(
      `Only ${a.emu.owner}, who saved this import's alert, can delete the import.`,
    );
    const listed = call(a.emu, 'listImports', []);
    expect(listed.ok && listed.imports.map((v) => [v.id, v.alert?.owner])).toEqual([[id, a.emu.owner]]);
    expect(sheet(a.emu, 'Owned')).toEqual(before);
    // Without an alert, the import is every editor's to delete, as before.
    const other = saveImport(a.emu, { sheetName: 'Shared', fields: ['id', 'upvotes'] });
    expect(call(a.emu, 'deleteImport', [other], { user: editor }).ok).toBe(true);
    const deleted = call(a.emu, 'deleteImport', [id]);
    expect(deleted.ok && deleted.deleted).toBe(id);
    const after = call(a.emu, 'listImports', []);
    expect(after.ok && after.imports).toEqual([]);
  });

  test('an alert is checked when saved', () => {
    const a = addin(svc.url);
    const bad = (alert: unknown) => {
      const r = a.emu.run<{ ok: boolean; message?: string }>(
        'saveImport',
        [{ sheetName: 'Checked', fields: ['id', 'firm'], alert }],
        { kind: 'sidebar' },
      );
      return r.value?.ok ? 'accepted' : r.value?.message;
    };
    expect(bad({ on: [] })).toMatch(/added, removed or changed/);
    expect(bad({ on: ['moved'] })).toMatch(/added, removed or changed/);
    expect(bad({ on: ['changed'], fields: ['email'] })).toMatch(/fields the import writes; not: email/);
    expect(bad({ on: ['changed'], fields: [] })).toMatch(/Name the fields/);
    expect(bad({ on: ['changed', 'added'], fields: ['firm'] })).toBe('accepted');
  });
});
