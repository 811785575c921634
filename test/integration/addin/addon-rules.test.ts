/**
 * The add-in within Google's rules for Editor add-ons, through the deployed bundle in emulated
 * add-on projects (dev/emulator/project.ts): one time-driven trigger per user per document, at
 * most hourly, that does all of that user's timed work there; a user's triggers in one document
 * are never touched from another; a trigger that stopped firing (the add-on disabled in the
 * document) is shown in the sidebar and armed again.
 */
import { ScriptProject } from '../../../dev/emulator/project';
import type { Emulator } from '../../../dev/emulator/runtime';
import type { SidebarOpened } from '../../../src/contract';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { addin } from '../../helpers/addin';
import { call, saveImport, sheet } from '../../helpers/imports';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

const HOUR = 3_600_000;
let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '2500', '--max-page-size', '100']);
});
afterAll(() => svc.stop());

const outcomes = (emu: Emulator) =>
  sheet(emu, 'Investor Data log')
    .slice(1)
    .map((r) => `${r[RUN_LOG_HEADER.indexOf('Sheet')]}:${r[RUN_LOG_HEADER.indexOf('Outcome')]}`);
const opened = (emu: Emulator): SidebarOpened => {
  const s = call(emu, 'getSidebarState', []);
  if (!s.ok) throw new Error(s.message);
  return s;
};

test('one user with two spreadsheets: what they do in one never stops the schedule of the other', () => {
  const project = new ScriptProject({ addOn: true });
  const a = addin(svc.url, DEMO_KEY, { project });
  const b = addin(svc.url, DEMO_KEY, { project });
  const scheduled = saveImport(a.emu, { sheetName: 'In A', fields: ['id'] });
  expect(call(a.emu, 'scheduleImport', [scheduled, { every: 'hours', hours: 1 }]).ok).toBe(true);
  // In B: an import saved, run from the sidebar, and deleted unscheduled.
  const other = saveImport(b.emu, { sheetName: 'In B', fields: ['id'] });
  expect(call(b.emu, 'startImport', [other]).ok).toBe(true);
  expect(call(b.emu, 'deleteImport', [other]).ok).toBe(true);
  expect(opened(b.emu).timer).toEqual({ work: '', armed: false, rearmed: false });
  // A's trigger is still there, and A's schedule runs.
  expect(project.triggers.triggers.map((t) => t.documentId)).toEqual([a.emu.documentId]);
  a.emu.advance(2 * HOUR);
  expect(outcomes(a.emu)).toContain('In A:done');
  expect(opened(a.emu).timer).toMatchObject({ work: 'your scheduled imports', armed: true, rearmed: false });
});

test('schedules, an unfinished run and a refresh in one document share the user’s one hourly trigger', async () => {
  const project = new ScriptProject({ addOn: true });
  const a = addin(svc.url, DEMO_KEY, { project });
  const ids = ['Hourly', 'Daily', 'Weekly'].map((name) => saveImport(a.emu, { sheetName: name, fields: ['id'] }));
  const schedules = [
    { every: 'hours' as const, hours: 1 },
    { every: 'day' as const, atHour: 6 },
    { every: 'week' as const, weekday: 1, atHour: 6 },
  ];
  ids.forEach((id, i) => expect(call(a.emu, 'scheduleImport', [id, schedules[i]]).ok).toBe(true));
  // A sidebar run left unfinished (its step's execution stopped mid-way), and a refresh of the formulas: no second trigger, no refusal.
  await svc.config({ latencyMs: 2000 });
  const started = a.emu.run('startImport', [ids[1]], { kind: 'sidebar', killAfterMs: 1000 });
  await svc.config({ latencyMs: 0 });
  expect(started.error).toBe('Exceeded maximum execution time');
  a.emu.workbook.sheets[0].set(1, 1, '', '=LP_GET("lp_0000a", "firm")');
  expect(a.emu.run('refreshAllFormulas', [], { kind: 'menu' }).error).toBeUndefined();
  expect(project.triggers.triggers.map((t) => [t.user, t.handler, t.periodMs])).toEqual([
    [a.emu.owner, 'runScheduledImports', HOUR],
  ]);
  // The next hourly run carries the sidebar's run on to its end and runs the due one.
  const runs = a.emu.advance(HOUR + 60_000);
  expect(runs.map((r) => r.error)).toEqual([undefined]);
  expect(outcomes(a.emu)).toEqual(expect.arrayContaining(['Daily:done', 'Hourly:done']));
  // Unscheduled, with nothing left to do, the trigger is removed.
  for (const id of ids) expect(call(a.emu, 'scheduleImport', [id, null]).ok).toBe(true);
  expect(project.triggers.triggers).toEqual([]);
});

test('a trigger that stopped firing (the add-on disabled in the document) is shown and armed again when the sidebar opens', () => {
  const project = new ScriptProject({ addOn: true });
  const a = addin(svc.url, DEMO_KEY, { project });
  const id = saveImport(a.emu, { sheetName: 'Kept fresh', fields: ['id'] });
  expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
  a.emu.advance(HOUR + 60_000);
  const ranAt = opened(a.emu).timer.ranAt;
  expect(ranAt).toBeDefined();
  a.emu.setAddOnEnabled(false);
  expect(a.emu.advance(4 * HOUR)).toEqual([]);
  a.emu.setAddOnEnabled(true);
  const before = project.triggers.triggers.map((t) => t.id);
  const state = opened(a.emu);
  expect(state.timer).toEqual({ work: 'your scheduled imports', armed: true, ranAt, rearmed: true });
  expect(project.triggers.triggers.map((t) => t.id)).not.toEqual(before);
  expect(project.triggers.triggers).toHaveLength(1);
  a.emu.advance(HOUR);
  expect(outcomes(a.emu).filter((o) => o === 'Kept fresh:done').length).toBeGreaterThanOrEqual(2);
  expect(opened(a.emu).timer.rearmed).toBe(false);
});
