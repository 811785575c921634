/**
 * What a user owns is read from their own record, never from what every editor can write, through
 * the deployed bundle in the emulator: a schedule or a run written by hand into the spreadsheet's
 * document properties naming another user never runs on that user's trigger or key, nor arms one;
 * and an alert's own record of what its owner was told keeps a change until a run can send it,
 * however an editor ran the import in between.
 */
import type { Emulator } from '../../../dev/emulator/runtime';
import type { ImportInput } from '../../../src/contract';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { addin } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { activeIds, type RunningService, servicesForThisFile, startService } from '../../helpers/service';

const OWNER_KEY = 'owner-key-0123456789';
const EDITOR_KEY = 'editor-key-9876543210';
const EDITOR = 'editor@example.com';
const HOUR = 3_600_000;
const asEditor = { user: EDITOR };
const KEYS = ['--keys', `${OWNER_KEY},${EDITOR_KEY}`];

let big: RunningService;
beforeAll(async () => {
  big = await startService(['--partners', '2500', '--max-page-size', '100', ...KEYS]);
});
afterAll(() => big.stop());
// One small service per test that mutates its list.
const small = servicesForThisFile(4, ['--partners', '80', '--max-page-size', '50', ...KEYS]);

const col = (name: string) => RUN_LOG_HEADER.indexOf(name);
const logRows = (emu: Emulator) => sheet(emu, 'Investor Data log').slice(1);
const doc = (emu: Emulator) => emu.store('document');
const ownerId = (emu: Emulator) => String(emu.store(`user:${emu.owner}`).get('INVESTOR_DATA_USER_ID'));
const withEditorKey = (emu: Emulator, url: string) => {
  emu.store(`user:${EDITOR}`).set('INVESTOR_DATA_API_KEY', EDITOR_KEY);
  emu.store(`user:${EDITOR}`).set('INVESTOR_DATA_KEY_ADDRESS', url);
};
/** An editor's hand edit of the saved imports (a document property every editor can write). */
const editImports = (emu: Emulator, change: (imports: Array<Record<string, unknown>>) => void) => {
  const saved = JSON.parse(String(doc(emu).get('INVESTOR_DATA_IMPORTS'))) as {
    imports: Array<Record<string, unknown>>;
  };
  change(saved.imports);
  doc(emu).set('INVESTOR_DATA_IMPORTS', JSON.stringify(saved));
};

describe('a record an editor wrote by hand is no one’s', () => {
  test("a schedule naming the owner never runs on the owner's trigger or key, nor mails anyone", async () => {
    const svc = small[0];
    const a = addin(svc.url, OWNER_KEY);
    const own = saveImport(a.emu, { sheetName: 'Owned', fields: ['id'] });
    expect(call(a.emu, 'scheduleImport', [own, { every: 'hours', hours: 1 }]).ok).toBe(true);
    const list = call(a.emu, 'listImports', [], asEditor);
    const owner = list.ok ? list.imports.find((i) => i.id === own)?.schedule?.by : undefined;
    expect(owner?.id).toBe(ownerId(a.emu));
    editImports(a.emu, (imports) =>
      imports.push({
        id: 'imp_planted',
        sheetName: 'Planted',
        fields: ['id', 'fullName', 'email'],
        mode: 'replace',
        schedule: { every: 'hours', hours: 1, by: owner },
        nextDueAt: 0,
        alert: { on: ['added', 'removed', 'changed'], owner: EDITOR, baselineAt: 1 },
      }),
    );
    a.emu.advance(HOUR + 60_000);
    await svc.mutate({ deactivate: [(await activeIds(svc))[3]] });
    a.emu.advance(HOUR);
    const planted = logRows(a.emu).filter((r) => r[col('Sheet')] === 'Planted');
    expect(planted.length).toBeGreaterThan(0);
    expect(new Set(planted.map((r) => r[col('Outcome')]))).toEqual(new Set(['failed']));
    expect(String(planted[0][col('Message')])).toMatch(/changed outside the sidebar/);
    expect(sheet(a.emu, 'Planted')).toEqual([]);
    expect(a.emu.mail.sent).toEqual([]);
    // The owner's own schedule ran as usual.
    expect(logRows(a.emu).filter((r) => r[col('Sheet')] === 'Owned' && r[col('Outcome')] === 'done')).toHaveLength(2);
    const seen = call(a.emu, 'listImports', []);
    expect(seen.ok && seen.imports.find((i) => i.id === 'imp_planted')?.scheduledBy).toMatch(/^no one/);
  });

  test('a planted schedule arms no trigger for the owner when the owner opens the sidebar', () => {
    const a = addin(small[1].url, OWNER_KEY);
    saveImport(a.emu, { sheetName: 'Owned', fields: ['id'] });
    expect(call(a.emu, 'getSidebarState', []).ok).toBe(true);
    const by = { id: ownerId(a.emu), email: a.emu.owner };
    editImports(a.emu, (imports) => {
      imports[0].schedule = { every: 'hours', hours: 1, by };
      imports[0].nextDueAt = 0;
    });
    const state = call(a.emu, 'getSidebarState', []);
    expect(state.ok && state.timer).toEqual({ work: '', armed: false, rearmed: false });
    expect(a.emu.triggers.triggers).toEqual([]);
    a.emu.advance(3 * HOUR);
    expect(logRows(a.emu)).toEqual([]);
  });

  test("a run an editor began is never carried on by the owner's trigger, whatever its record says", async () => {
    const a = addin(big.url, OWNER_KEY);
    withEditorKey(a.emu, big.url);
    const own = saveImport(a.emu, { sheetName: 'Owned', fields: ['id'] });
    expect(call(a.emu, 'scheduleImport', [own, { every: 'day', atHour: 3 }]).ok).toBe(true);
    const theirs = call(a.emu, 'saveImport', [{ sheetName: 'Editor run', fields: ['id', 'email'] }], asEditor);
    if (!theirs.ok) throw new Error(theirs.message);
    const id = theirs.import.id;
    // The editor's step ends mid-way (its execution stopped there): the run is left running.
    await big.config({ latencyMs: 2000 });
    const first = a.emu.run('startImport', [id], { ...asEditor, kind: 'sidebar', killAfterMs: 1000 });
    await big.config({ latencyMs: 0 });
    expect(first.error).toBe('Exceeded maximum execution time');
    // The editor's key and trigger gone; the run's record rewritten to name the owner.
    a.emu.store(`user:${EDITOR}`).delete('INVESTOR_DATA_API_KEY');
    const run = JSON.parse(String(doc(a.emu).get(`INVESTOR_DATA_RUN_${id}`)));
    run.by = ownerId(a.emu);
    doc(a.emu).set(`INVESTOR_DATA_RUN_${id}`, JSON.stringify(run));
    a.emu.triggers.triggers = a.emu.triggers.triggers.filter((t) => t.user !== EDITOR);
    const runs = a.emu.advance(4 * HOUR);
    expect([...new Set(runs.map((r) => r.ledger.user))]).toEqual([a.emu.owner]);
    expect(logRows(a.emu).filter((r) => r[col('Sheet')] === 'Editor run')).toEqual([]);
    expect(sheet(a.emu, 'Editor run')).toEqual([]);
  });
});

test('the record of the runs a user began stays small: runs that ended leave it', () => {
  const a = addin(small[1].url, OWNER_KEY);
  const id = saveImport(a.emu, { sheetName: 'Often', fields: ['id'] });
  for (let i = 0; i < 30; i++) expect(runImport(a.emu, id).at(-1)?.status).toBe('done');
  const store = a.emu.store(`user:${a.emu.owner}`);
  const key = [...store.keys()].find((k) => k.startsWith('INVESTOR_DATA_MINE_'));
  expect(JSON.parse(String(store.get(String(key)))).runs).toHaveLength(1);
});

describe("the alert's record of what its owner was told", () => {
  const base: ImportInput = {
    sheetName: 'Watched',
    fields: ['id', 'fullName', 'upvotes', 'firm'],
    mode: 'merge',
    alert: { on: ['changed'], fields: ['upvotes'] },
  };

  test("a run by an editor who cannot send mail keeps the change for the owner's next run", async () => {
    const svc = small[2];
    const a = addin(svc.url, OWNER_KEY);
    withEditorKey(a.emu, svc.url);
    a.emu.grantScopes(EDITOR, [
      'https://www.googleapis.com/auth/spreadsheets.currentonly',
      'https://www.googleapis.com/auth/script.external_request',
      'https://www.googleapis.com/auth/script.container.ui',
      'https://www.googleapis.com/auth/script.scriptapp',
      'https://www.googleapis.com/auth/userinfo.email',
    ]);
    const id = saveImport(a.emu, base);
    expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
    a.emu.advance(HOUR + 60_000);
    const [touched] = (await activeIds(svc)).slice(5, 6);
    await svc.mutate({ touch: [touched] });
    let last = call(a.emu, 'startImport', [id], asEditor);
    while (last.ok && last.status === 'running') last = call(a.emu, 'continueImport', [id], asEditor);
    expect(last.ok && last.message).toContain(
      'Alert not sent: editor@example.com has not allowed the add-in to send email',
    );
    expect(last.ok && last.message).toContain('Its record is kept: the next run that can send reports these changes.');
    a.emu.advance(HOUR);
    expect(a.emu.mail.sent.map((m) => [m.from, m.to, m.subject])).toEqual([
      [a.emu.owner, [a.emu.owner], '1 change to partners in "Watched" (0 added, 0 removed, 1 changed)'],
    ]);
  });

  test('the owner moving the import to a new sheet still reports a watched change', async () => {
    const svc = small[3];
    const a = addin(svc.url, OWNER_KEY);
    const id = saveImport(a.emu, base);
    expect(call(a.emu, 'scheduleImport', [id, { every: 'hours', hours: 1 }]).ok).toBe(true);
    a.emu.advance(HOUR + 60_000);
    expect(call(a.emu, 'saveImport', [{ ...base, id, sheetName: 'Watched elsewhere' }]).ok).toBe(true);
    const [touched] = (await activeIds(svc)).slice(5, 6);
    await svc.mutate({ touch: [touched] });
    a.emu.advance(HOUR);
    expect(a.emu.mail.sent.map((m) => m.subject)).toEqual([
      '1 change to partners in "Watched elsewhere" (0 added, 0 removed, 1 changed)',
    ]);
  });
});
