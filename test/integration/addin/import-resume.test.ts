import { addin } from '../../helpers/addin';
import { call, saveImport, sheet } from '../../helpers/imports';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService([
    '--partners',
    '59000',
    '--max-page-size',
    '100',
    '--rate-limit',
    '0.6',
    '--retry-after',
    '45',
    '--seed',
    '5',
  ]);
});
afterAll(() => svc.stop());

test.each([
  ['a bound script', false],
  ['an Editor add-on', true],
])(
  'in %s, a 50,000-partner import that needs more than 6 minutes (60 %% of requests answered 429 + Retry-After: 45) is carried on by the hourly trigger and completes',
  async (_where, addOn) => {
    const a = addin(svc.url, DEMO_KEY, { addOn });
    const id = saveImport(a.emu, { sheetName: 'All partners', fields: ['id', 'fullName', 'firm', 'ticketSize'] });
    call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]);
    const before = a.emu.history.length;
    a.emu.advance(3_600_000);
    const staging = a.emu.workbook.sheets.filter((s) => s.name.startsWith('__staging_'));
    expect(staging).toHaveLength(1);
    expect(staging[0].hidden).toBe(true);
    expect(a.emu.workbook.sheets[a.emu.workbook.active].name).toBe('Sheet1');
    for (let i = 0; i < 30; i++) {
      const s = call(a.emu, 'importStatus', [id]);
      if (s.ok && s.status !== 'running') break;
      a.emu.advance(3_600_000);
    }
    const status = call(a.emu, 'importStatus', [id]);
    expect(status.ok && status.status).toBe('done');
    const runs = a.emu.history.slice(before).filter((l) => l.kind === 'trigger');
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.every((l) => !l.timedOut && l.endedAt - l.startedAt < 360_000)).toBe(true);
    expect(runs.reduce((n, l) => n + (l.endedAt - l.startedAt), 0)).toBeGreaterThan(360_000);
    const table = sheet(a.emu, 'All partners');
    const ids = new Set(table.slice(1).map((r) => r[0]));
    expect(ids.size).toBe(table.length - 1);
    expect(status.ok && ids.size).toBe(status.ok ? status.totalItems : -1);
    expect(ids.size).toBeGreaterThan(49000);
    expect(a.emu.workbook.sheets.some((s) => s.name.startsWith('__staging_'))).toBe(false);
    expect(a.emu.triggers.triggers.map((t) => t.handler)).toEqual(['runScheduledImports']);
  },
  300_000,
);
