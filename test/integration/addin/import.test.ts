import { ScriptRunHost } from '../../../dev/emulator/hosts';
import type { Answer } from '../../../src/contract';
import { addin } from '../../helpers/addin';
import { call, callUnchecked, formulasOf, runImport, saveImport, type Summary, sheet } from '../../helpers/imports';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
let active: number;
beforeAll(async () => {
  svc = await startService(['--partners', '11800', '--max-page-size', '100']);
  active = (
    await (await fetch(`${svc.url}/api/active-partners-data/getAllActivePartnersData?apiKey=${DEMO_KEY}`)).json()
  ).pagination.totalItems;
});
afterAll(() => svc.stop());
afterEach(() =>
  svc.config({ faults: { error500: 0, error502: 0, error503: 0, rateLimit: 0, truncated: 0 }, latencyMs: 0 }),
);

const ids = (rows: unknown[][]) => rows.slice(1).map((r) => r[0] as string);

describe('import of active limited partners', () => {
  test('about 10,000 partners at the capped page size: every one once, in one run, ≤ 101 fetches, one write of the table', () => {
    expect(active).toBeGreaterThan(9900);
    const a = addin(svc.url);
    const id = saveImport(a.emu, {
      sheetName: 'Partners',
      fields: ['id', 'fullName', 'firm', 'ticketSize', 'updatedAt'],
      mode: 'replace',
    });
    const before = a.emu.history.length;
    const steps = runImport(a.emu, id);
    const last = steps[steps.length - 1];
    expect(last.status).toBe('done');
    expect(last.message).toBe(`Imported ${active.toLocaleString('en-US')} active limited partners into "Partners".`);
    const table = sheet(a.emu, 'Partners');
    expect(table[0]).toEqual(['id', 'fullName', 'firm', 'ticketSize', 'updatedAt']);
    expect(table).toHaveLength(active + 1);
    expect(new Set(ids(table)).size).toBe(active);
    expect(typeof table[1][3]).toBe('number');
    expect(table[1][4]).toBeInstanceOf(Date);
    expect(formulasOf(a.emu, 'Partners')).toEqual([]);
    const ledgers = a.emu.history.slice(before);
    expect(ledgers.reduce((n, l) => n + l.fetches, 0)).toBeLessThanOrEqual(101);
    // The table, its record and the run log once each; the sidebar's short first step keeps its pages in staging (one or
    // two writes).
    expect(ledgers.reduce((n, l) => n + (l.calls['Range.setValues'] ?? 0), 0)).toBeLessThanOrEqual(5);
    expect(a.emu.workbook.byName('Partners')?.frozenRows).toBe(1);
    const log = sheet(a.emu, 'Investor Data log');
    expect(log[1][5]).toBe('done');
    expect(log[1][6]).toBe(active);
  });

  test('a Cancel that names the run before it is saved stops it there; a name the sidebar may not give is refused', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Named', fields: ['id'], mode: 'replace' });
    for (const [endpoint, args] of [
      ['startImport', [id, 'short']],
      ['startImport', [id, 'sidebar run 1']],
      ['replaceAnyway', [id, false, 42]],
      ['cancelImport', [id, { run: 'sidebar-a1b2c3d4' }]],
    ] as const) {
      expect(callUnchecked(a.emu, endpoint, [...args])).toEqual({
        ok: false,
        code: 'BAD_INPUT',
        message: 'The sidebar named the run in a way the add-in does not take; reload the sidebar.',
      });
    }
    expect(a.emu.history.reduce((n, l) => n + l.fetches, 0)).toBe(0);
    // The Cancel's execution runs first: the run it names is not saved yet.
    const run = 'sidebar-a1b2c3d4e5f6a7b8';
    expect(call(a.emu, 'cancelImport', [id, run])).toMatchObject({ ok: true, status: 'idle' });
    expect(call(a.emu, 'startImport', [id, run])).toMatchObject({ ok: true, status: 'running', page: 0 });
    expect(call(a.emu, 'cancelImport', [id, run])).toMatchObject({ ok: true, status: 'cancelled' });
    expect(a.emu.history.reduce((n, l) => n + l.fetches, 0)).toBe(0);
    expect(a.emu.workbook.byName('Named')).toBeUndefined();
    // Another run, named or not, is not stopped by it.
    expect(call(a.emu, 'startImport', [id, 'sidebar-fedcba9876543210'])).toMatchObject({ ok: true, status: 'done' });
  });

  test('service text that looks like a formula lands as text, never as a formula', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, {
      sheetName: 'Safe',
      fields: ['id', 'fullName', 'firm', 'description', 'email', 'sweetSpot', 'upvotes'],
    });
    runImport(a.emu, id);
    const row = sheet(a.emu, 'Safe').find((r) => r[0] === 'lp_00005') as unknown[];
    expect(row.slice(1, 6).map((v) => String(v)[0])).toEqual(['=', '+', '-', '@', "'"]);
    expect(typeof row[6]).toBe('string');
    expect(formulasOf(a.emu, 'Safe')).toEqual([]);
  });

  test('with 20 % injected 5xx and 429 the run still ends complete', async () => {
    await svc.config({ faults: { error500: 0.05, error503: 0.05, rateLimit: 0.1, retryAfterSeconds: 2 }, seed: 3 });
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Faulty', fields: ['id'] });
    const steps = runImport(a.emu, id);
    expect(steps[steps.length - 1].status).toBe('done');
    const table = sheet(a.emu, 'Faulty');
    expect(new Set(ids(table)).size).toBe(active);
    expect(table).toHaveLength(active + 1);
    expect(Number(sheet(a.emu, 'Investor Data log')[1][10])).toBeGreaterThan(0);
  });

  test("on a slow service the status shows a step's progress while it runs, and the run is one step", async () => {
    await svc.config({ latencyMs: 300 });
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Slow', fields: ['id', 'fullName'] });
    const before = a.emu.history.length;
    // As the sidebar does: the step in flight, its status asked for meanwhile (each call its own execution).
    const host = new ScriptRunHost(a.emu);
    let ended = false;
    const step = host.call('startImport', [id]).finally(() => {
      ended = true;
    }) as Promise<Answer<Summary>>;
    const seen: Summary[] = [];
    while (!ended) {
      const s = (await host.call('importStatus', [id])) as Answer<Summary>;
      if (!ended && s.ok && s.status === 'running') seen.push(s);
      await new Promise((wake) => setTimeout(wake, 50));
    }
    const last = await step;
    expect(last).toMatchObject({ ok: true, status: 'done', rows: active });
    const during = seen.filter((s) => s.page >= 1);
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((s) => s.totalItems === active && s.page < s.totalPages && s.rows < active)).toBe(true);
    // The bar only moves forward.
    expect(during.map((s) => s.rows)).toEqual([...during.map((s) => s.rows)].sort((x, y) => x - y));
    const steps = a.emu.history.slice(before).filter((l) => /^(start|continue)Import$/.test(l.name));
    expect(steps).toHaveLength(1);
    expect(sheet(a.emu, 'Slow')).toHaveLength(active + 1);
    await svc.config({ latencyMs: 0 });
  }, 120_000);

  test('a failing service or a run killed mid-way leaves the previous data untouched', async () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Keep', fields: ['id', 'fullName'] });
    runImport(a.emu, id);
    const before = sheet(a.emu, 'Keep');
    await svc.config({ latencyMs: 50 });
    const killed = a.emu.run('startImport', [id], { kind: 'sidebar', killAfterMs: 400 });
    expect(killed.error).toBe('Exceeded maximum execution time');
    expect(sheet(a.emu, 'Keep')).toEqual(before);
    await svc.config({ latencyMs: 0, faults: { error503: 1 } });
    const failed = runImport(a.emu, id);
    const last = failed[failed.length - 1];
    expect(last.status).toBe('failed');
    expect(last.message).toMatch(/^The data service failed \(HTTP 503.*\. The sheet "Keep" keeps its previous data\.$/);
    expect(sheet(a.emu, 'Keep')).toEqual(before);
    expect(a.emu.workbook.sheets.some((s) => s.name.startsWith('__staging_'))).toBe(false);
    // The saved import says what the sheet still holds, not the 0 rows the failed run wrote.
    const listed = call(a.emu, 'listImports', []);
    expect(listed.ok && listed.imports.find((i) => i.id === id)?.last).toEqual(
      expect.objectContaining({ status: 'failed', rows: before.length - 1 }),
    );
  });
});
