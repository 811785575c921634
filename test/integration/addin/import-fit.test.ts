/**
 * A saved import sorted by fit to a fund, through the deployed bundle against the reference
 * service: it writes the same partners, in the same order and with the same reasons, as
 * =LP_MATCH for that fund; scheduled, it keeps the target list fresh, and an alert on partners
 * added emails the owner when a new partner enters the top N.
 */
import { addin } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '300', '--max-page-size', '100']);
});
afterAll(() => svc.stop());

const HOUR = 3_600_000;
const FIELDS = ['id', 'fullName', 'fitRank', 'fitScore', 'fitSectors', 'fitTicket'];

test('the top 5 for a fund, as LP_MATCH lists them; a partner entering the top 5 is mailed to the owner', async () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, {
    sheetName: 'Targets',
    fields: FIELDS,
    mode: 'replace',
    fit: { fund: 'vf_0005', top: 5 },
    alert: { on: ['added'] },
  });
  const runs = runImport(a.emu, id);
  expect(runs[runs.length - 1].status).toBe('done');
  expect(runs[runs.length - 1].message).toMatch(
    /^Imported 5 of \d+ active limited partners \(the best fits to fund vf_0005\)/,
  );
  const match = a.cell('LP_MATCH', 'vf_0005', 6, 'fullName', '', false).value as unknown[][];
  const table = sheet(a.emu, 'Targets');
  expect(table[0]).toEqual(FIELDS);
  expect(table.slice(1)).toEqual(match.slice(0, 5).map((r) => [r[1], r[2], r[0], r[3], r[4], r[7]]));
  const listed = call(a.emu, 'listImports', []);
  expect(listed.ok && listed.imports[0].shaped).toBe('sorted by fit to fund vf_0005, the best 5');

  const [first] = table.slice(1).map((r) => String(r[0]));
  const newcomer = String(match[5][1]);
  await svc.mutate({ deactivate: [first] });
  try {
    expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
    const fired = a.emu.advance(HOUR + 60_000);
    expect(fired.every((r) => r.error === undefined)).toBe(true);
    const after = sheet(a.emu, 'Targets').slice(1);
    expect(after.map((r) => r[0])).toEqual([...match.slice(1, 6).map((r) => r[1])]);
    expect(after.map((r) => r[2])).toEqual([1, 2, 3, 4, 5]);
    expect(a.emu.mail.sent).toHaveLength(1);
    expect(a.emu.mail.sent[0].to).toEqual([a.emu.owner]);
    expect(a.emu.mail.sent[0].htmlBody).toContain(`(${newcomer})</td><td>added</td>`);
  } finally {
    await svc.mutate({ reactivate: [first] });
  }
});

test('a wrong fund id fails the run, saying so, and leaves no table', () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Nowhere', fit: { fund: 'vf_nope' }, fields: ['id', 'fitScore'] });
  const runs = runImport(a.emu, id);
  expect(runs[runs.length - 1].status).toBe('failed');
  expect(runs[runs.length - 1].message).toContain('Unknown venture fund id: vf_nope');
  expect(sheet(a.emu, 'Nowhere').length).toBeLessThanOrEqual(1);
});
