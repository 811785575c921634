/**
 * Saving a key through the sidebar endpoint: keys outside the safe character set (letters,
 * digits, `-_.~`, 8 to 512 characters) are refused with a message that says why and does not
 * repeat the key; nothing is stored; a good key is stored and only its last four characters come
 * back. A key saved before that rule (with `'`) is still redacted whole wherever a failure
 * message carries the request URL (UrlFetchApp's "Address unavailable: <url>").
 */
import { addin, everythingStored } from '../../helpers/addin';
import { runImport, saveImport } from '../../helpers/imports';
import { keysOf, leaksIn } from '../../helpers/secrets';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '50', '--funds', '5']);
});
afterAll(() => svc.stop());

type Answer = { ok: true; keyHint: string; hasKey: boolean } | { ok: false; code: string; message: string };

describe('saveApiKey', () => {
  test.each(["abc'defghijkl", 'plus+key+012345', 'pct%41key-12345', 'amp&apiKey=12345', 'ключ-0123456789', 'short'])(
    '%s is refused with a clear reason and not stored',
    (bad) => {
      const a = addin(svc.url, null);
      const r = a.emu.run<Answer>('saveApiKey', [bad], { kind: 'sidebar' }).value as Answer;
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.code).toBe('BAD_INPUT');
        expect(r.message).toMatch(
          /^That key cannot be saved: An API key (may hold only letters, digits and the characters - _ \. ~|is 8 to 512 characters long)/,
        );
        expect(r.message).not.toContain(bad);
      }
      expect(a.emu.store(`user:${a.emu.owner}`).get('INVESTOR_DATA_API_KEY')).toBeUndefined();
    },
  );

  test('a key of safe characters is saved; only its last four characters come back', () => {
    const a = addin(svc.url, null);
    const r = a.emu.run<Answer>('saveApiKey', [` ${DEMO_KEY} `, svc.url], { kind: 'sidebar' }).value as Answer;
    expect(r).toEqual(expect.objectContaining({ ok: true, hasKey: true, keyHint: '…6789' }));
    expect(a.emu.store(`user:${a.emu.owner}`).get('INVESTOR_DATA_API_KEY')).toBe(DEMO_KEY);
    expect(a.cell('LP_GET', 'lp_0000a', 'id').value).toBe('lp_0000a');
  });
});

describe('a key saved before the safe-character rule', () => {
  test("a key with ' never shows, whole or in part, when an unreachable service's error names the URL", async () => {
    const gone = await startService(['--partners', '5', '--funds', '1']);
    const deadUrl = gone.url;
    await gone.stop();
    const legacy = "abc'defghijkl-0123";
    const a = addin(deadUrl, legacy);
    const cell = a.cell('LP_GET', 'lp_0000a', 'id');
    expect(cell.error).toMatch(/^Could not reach the data service: Exception: Address unavailable: /);
    const rows = a.cell('LP_GET', [['lp_0000a'], ['lp_0000b']], 'id');
    const id = saveImport(a.emu, { sheetName: 'Dead', fields: ['id'] });
    const steps = runImport(a.emu, id);
    expect(steps[steps.length - 1].status).toBe('failed');
    const shown = [
      cell.error,
      JSON.stringify(rows.error ?? rows.value),
      JSON.stringify(steps),
      everythingStored(a.emu),
    ].join('\n');
    expect(keysOf(a.emu)).toContain(legacy);
    expect(leaksIn(shown, keysOf(a.emu))).toEqual([]);
    expect(shown).not.toContain("'defghijkl");
  });
});

describe('the cache namespace kept with the key', () => {
  const OTHER = 'other-key-0123456789';
  const user = (a: ReturnType<typeof addin>) => a.emu.store(`user:${a.emu.owner}`);

  test('saving the key keeps its namespace with it: a warm formula digests nothing', () => {
    const a = addin(svc.url, null);
    a.emu.run('saveApiKey', [DEMO_KEY, svc.url], { kind: 'sidebar' });
    const stored = user(a).get('INVESTOR_DATA_CACHE_NAMESPACE') as string;
    expect(stored).toMatch(/^[0-9a-z]+:[0-9a-f]{20}$/);
    expect(leaksIn(stored, [DEMO_KEY])).toEqual([]);
    expect(a.cell('LP_GET', 'lp_0000a', 'id').value).toBe('lp_0000a');
    const warm = a.cell('LP_GET', 'lp_0000a', 'id');
    expect(warm.value).toBe('lp_0000a');
    expect(warm.run.ledger.fetches).toBe(0);
    expect(warm.run.ledger.calls['Utilities.computeDigest']).toBeUndefined();
  });

  test("a namespace that does not match the key (changed behind the add-in's back) is not used: the old key's answers are not served", () => {
    const a = addin(svc.url, null);
    a.emu.run('saveApiKey', [DEMO_KEY, svc.url], { kind: 'sidebar' });
    expect(a.cell('LP_GET', 'lp_0000a', 'id').value).toBe('lp_0000a');
    // Another key written directly, the demo key's namespace left beside it: the service does not know this key.
    user(a).set('INVESTOR_DATA_API_KEY', OTHER);
    const other = a.cell('LP_GET', 'lp_0000a', 'id');
    expect(other.run.ledger.fetches).toBe(1);
    expect(other.error).toMatch(/API key was refused/);
    expect(other.run.ledger.calls['Utilities.computeDigest']).toBe(1);
  });

  test('removing the key removes its namespace; confirming a new address for the key renews it', () => {
    const a = addin(svc.url, null);
    a.emu.run('saveApiKey', [DEMO_KEY, svc.url], { kind: 'sidebar' });
    const first = user(a).get('INVESTOR_DATA_CACHE_NAMESPACE');
    const moved = svc.url.replace('127.0.0.1', 'localhost');
    a.emu.run('saveSettings', [{ baseUrl: moved }], { kind: 'sidebar' });
    expect(user(a).get('INVESTOR_DATA_CACHE_NAMESPACE')).toBe(first);
    a.emu.run('sendKeyTo', [moved], { kind: 'sidebar' });
    const second = user(a).get('INVESTOR_DATA_CACHE_NAMESPACE');
    expect(second).toMatch(/^[0-9a-z]+:[0-9a-f]{20}$/);
    expect(second).not.toBe(first);
    a.emu.run('removeApiKey', [], { kind: 'sidebar' });
    expect(user(a).get('INVESTOR_DATA_CACHE_NAMESPACE')).toBeUndefined();
  });
});
