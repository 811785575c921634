/**
 * An alert's coverage is part of the alert, through the deployed bundle in the emulator against
 * the reference service: an editor who is not its owner cannot narrow what it watches (a watched
 * field dropped from the import, the filters, the schedule), each refusal naming what and
 * changing nothing; a save that leaves the alert as it was keeps its baseline, so the owner's next
 * run still emails the changes it found.
 */
import type { Emulator } from '../../../dev/emulator/runtime';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import type { ImportInput } from '../../../src/contract';
import { addin } from '../../helpers/addin';
import { call, saveImport, sheet } from '../../helpers/imports';
import { activeIds, DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '80', '--max-page-size', '50']);
});
afterAll(() => svc.stop());

const HOUR = 3_600_000;
const EDITOR = 'editor@example.com';
const asEditor = { user: EDITOR };
const col = (name: string) => RUN_LOG_HEADER.indexOf(name);

function withEditor(emu: Emulator): void {
  emu.store(`user:${EDITOR}`).set('INVESTOR_DATA_API_KEY', DEMO_KEY);
  emu.store(`user:${EDITOR}`).set('INVESTOR_DATA_KEY_ADDRESS', svc.url);
}

const base: ImportInput = {
  sheetName: 'Watched',
  fields: ['id', 'fullName', 'upvotes', 'firm'],
  mode: 'merge',
  alert: { on: ['changed'], fields: ['upvotes'] },
};

function watchedImport() {
  const a = addin(svc.url);
  withEditor(a.emu);
  const id = saveImport(a.emu, base);
  expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
  return { a, id };
}

const savedSpec = (emu: Emulator, id: string) => {
  const list = call(emu, 'listImports', []);
  return list.ok ? list.imports.find((i) => i.id === id) : undefined;
};

describe("an editor cannot narrow what the owner's alert watches", () => {
  test.each<[string, Partial<ImportInput>, RegExp]>([
    ['dropping the watched field', { fields: ['id', 'fullName', 'firm'] }, /can change the field upvotes:/],
    // Kept to the best few by fit, the list the alert sees is cut.
    ['keeping only the best fits to a fund', { fit: { fund: 'vf_0003', top: 5 } }, /can change the sort by fit:/],
    // A new sheet holds no values to compare with.
    ['moving the import to another sheet', { sheetName: 'Elsewhere' }, /can change the sheet:/],
    [
      'a filter that matches nobody',
      { filters: [{ field: 'fullName', op: 'is', value: 'nobody at all' }] },
      /can change the filters:/,
    ],
  ])('%s is refused, naming it; nothing changes', (_what, change, message) => {
    const { a, id } = watchedImport();
    const before = savedSpec(a.emu, id);
    const r = call(a.emu, 'saveImport', [{ ...base, id, ...change }], asEditor);
    expect(r.ok ? '' : r.message).toMatch(message);
    expect(r.ok ? '' : r.message).toMatch(
      /^Only owner@example\.com, who saved this import's alert,.*Nothing was changed\.$/,
    );
    expect(savedSpec(a.emu, id)).toEqual(before);
  });

  test('removing or changing the schedule is refused; the owner may', () => {
    const { a, id } = watchedImport();
    for (const schedule of [null, { every: 'day' as const, atHour: 3 }]) {
      const r = call(a.emu, 'scheduleImport', [id, schedule], asEditor);
      expect(r.ok ? '' : r.message).toMatch(/can change the schedule: the alert watches what they cover/);
    }
    expect(savedSpec(a.emu, id)?.schedule?.every).toBe('hours');
    expect(call(a.emu, 'scheduleImport', [id, { every: 'day', atHour: 3 }]).ok).toBe(true);
  });

  test('a field added or a new sort are anyone’s: the alert still sees all it watches', () => {
    const { a, id } = watchedImport();
    const r = call(
      a.emu,
      'saveImport',
      [
        {
          ...base,
          id,
          fields: [...(base.fields ?? []), 'email'],
          sort: [{ field: 'fullName' }],
        },
      ],
      asEditor,
    );
    expect(r.ok && r.import.alert).toEqual({ on: ['changed'], fields: ['upvotes'], owner: a.emu.owner });
  });
});

test("an editor's save after the baseline run keeps the baseline: the owner's next run emails the change", async () => {
  const { a, id } = watchedImport();
  a.emu.advance(HOUR + 60_000);
  const log = () => sheet(a.emu, 'Investor Data log').slice(1);
  expect(log().map((r) => r[col('Alert')])).toEqual(['baseline']);
  const baselineAt = savedSpec(a.emu, id)?.alert?.baselineAt;
  expect(baselineAt).toBeDefined();
  // The editor saves only a new sort (and leaves the alert out, or sends it unchanged).
  for (const alert of [undefined, base.alert]) {
    const r = call(
      a.emu,
      'saveImport',
      [{ ...base, id, alert, sort: [{ field: 'firm', descending: true }] }],
      asEditor,
    );
    expect(r.ok).toBe(true);
    expect(savedSpec(a.emu, id)?.alert?.baselineAt).toBe(baselineAt);
  }
  const [touched] = (await activeIds(svc)).slice(5, 6);
  await svc.mutate({ touch: [touched] });
  a.emu.advance(HOUR);
  expect(log().map((r) => r[col('Alert')])).toEqual(['baseline', `sent to ${a.emu.owner}`]);
  expect(a.emu.mail.sent.map((m) => [m.to, m.subject])).toEqual([
    [[a.emu.owner], '1 change to partners in "Watched" (0 added, 0 removed, 1 changed)'],
  ]);
});
