/**
 * The workbench's mail panel, through its Workbench class (what the page's buttons call):
 * moving the clock forward fires the schedule that falls due, as Google would, one run a step (so
 * the page shows each), and the alert it
 * sends appears in the page's state, newest first, and survives a restart.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbench } from '../../../dev/workbench/workbench';
import { activeIds, DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '60', '--max-page-size', '50']);
});
afterAll(() => svc.stop());

test('moving the clock a day forward runs the schedule and shows the alert it mailed', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'workbench-clock-'));
  const wb = new Workbench({ serviceUrl: svc.url, stateDir });
  wb.emu.store(`user:${wb.emu.owner}`).set('INVESTOR_DATA_API_KEY', DEMO_KEY);
  wb.emu.store(`user:${wb.emu.owner}`).set('INVESTOR_DATA_KEY_ADDRESS', svc.url);
  const saved = (await wb.scriptRun('saveImport', [
    { sheetName: 'Watched', fields: ['id', 'upvotes'], alert: { on: ['changed'] } },
  ])) as { ok: boolean; import: { id: string } };
  expect(saved.ok).toBe(true);
  const id = saved.import.id;
  for (let s = (await wb.scriptRun('startImport', [id])) as { status: string }; s.status === 'running'; )
    s = (await wb.scriptRun('continueImport', [id])) as { status: string };
  expect((await wb.scriptRun('scheduleImport', [id, { every: 'day', atHour: 6 }])) as { ok: boolean }).toMatchObject({
    ok: true,
  });
  const [touched] = await activeIds(svc);
  await svc.mutate({ touch: [touched] });
  const before = wb.emu.clock.now();
  // The page moves the clock step by step: each step is one trigger run, so it can show each as it ends.
  const until = before + 24 * 3_600_000;
  const steps = [wb.advanceStep(until)];
  while (!steps[steps.length - 1].done) steps.push(wb.advanceStep(until));
  expect(steps.map((s) => s.ran)).toEqual(steps.map(() => 1));
  expect(steps.length).toBeGreaterThanOrEqual(23);
  for (const step of steps) expect(step.message).toMatch(/^Clock at .* UTC: runScheduledImports ran\.$/);
  expect(steps.reduce((n, s) => n + s.failed, 0)).toBe(0);
  expect(wb.emu.clock.now()).toBeGreaterThanOrEqual(until);
  expect((wb.snapshot() as { triggers: Array<{ every: string }> }).triggers.map((t) => t.every)).toEqual([
    'every hour',
  ]);
  const state = wb.snapshot() as { clock: number; mail: Array<{ to: string; subject: string; html: string }> };
  expect(state.clock).toBe(wb.emu.clock.now());
  expect(state.mail).toHaveLength(1);
  expect(state.mail[0].to).toBe(wb.emu.owner);
  expect(state.mail[0].subject).toBe('1 change to partners in "Watched" (0 added, 0 removed, 1 changed)');
  expect(state.mail[0].html).toContain(`<td>${touched}</td><td>upvotes</td>`);
  const again = new Workbench({ serviceUrl: svc.url, stateDir });
  expect((again.snapshot() as { mail: unknown[] }).mail).toEqual(state.mail);
});
