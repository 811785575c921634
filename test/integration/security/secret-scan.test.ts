/**
 * The secret scan that runs after every integration test file (test/helpers/scan-secrets.ts)
 * looks for the key each emulator actually uses, not only the demo key, and for any 8-character
 * slice of it, without mistaking a long number that merely contains a run of the key's digits.
 */
import { Emulator } from '../../../dev/emulator/runtime';
import { everythingStored } from '../../helpers/addin';
import { keysOf, leaksIn } from '../../helpers/secrets';
import { DEMO_KEY } from '../../helpers/service';

const OWN_KEY = 'analyst-own-key-4711abcd';

function emulatorWith(key: string): Emulator {
  const emu = new Emulator({ code: 'function noop() { return 1; }' });
  emu.store(`user:${emu.owner}`).set('INVESTOR_DATA_API_KEY', key);
  return emu;
}

describe('secret scan', () => {
  test('finds the key the emulator was given, and any 8-character slice of it, wherever it was stored', () => {
    const emu = emulatorWith(OWN_KEY);
    expect(keysOf(emu)).toEqual([DEMO_KEY, OWN_KEY]);
    expect(leaksIn(everythingStored(emu), keysOf(emu))).toEqual([]);
    emu.store('document').set('LAST_ERROR', `failed with key ${OWN_KEY.slice(9, 17)}…`);
    expect(leaksIn(everythingStored(emu), keysOf(emu))).toHaveLength(1);
    emu.store('document').delete('LAST_ERROR');
    emu.workbook.sheets[0].set(0, 0, `url ?apiKey=${OWN_KEY.slice(0, 8)}`);
    expect(leaksIn(everythingStored(emu), keysOf(emu))).toHaveLength(1);
  });

  test('the demo key is still found, whole or cut; a timestamp holding 12345678 is not a leak', () => {
    expect(leaksIn(`x ${DEMO_KEY} y`, [DEMO_KEY]).length).toBeGreaterThan(0);
    expect(leaksIn('error: demo-key-01', [DEMO_KEY])).toHaveLength(4);
    expect(leaksIn('tail 0123456789.', [DEMO_KEY])).toHaveLength(3);
    expect(leaksIn('{"t":1763912345678901}', [DEMO_KEY])).toEqual([]);
    expect(leaksIn('messages never show a key', [DEMO_KEY])).toEqual([]);
  });

  test('reports positions, never the key', () => {
    const found = leaksIn(`leak ${OWN_KEY}`, [OWN_KEY]);
    expect(found.length).toBeGreaterThan(0);
    for (const f of found)
      for (let i = 0; i + 8 <= OWN_KEY.length; i++) expect(f).not.toContain(OWN_KEY.slice(i, i + 8));
  });
});
