/** The deployed bundle in a fresh emulator, configured to talk to a running reference service. */
import { callCustomFunction, type CellResult } from '../../dev/emulator/hosts';
import { Emulator, type EmulatorOptions } from '../../dev/emulator/runtime';
import { DEMO_KEY } from './service';

export interface Addin {
  emu: Emulator;
  cell(name: string, ...args: unknown[]): CellResult;
}

/** Every emulator the tests of this file created, for the secret scan after them (test/helpers/scan-secrets.ts). */
export const created: Emulator[] = [];

export function addin(serviceUrl: string, key: string | null = DEMO_KEY, options: EmulatorOptions = {}): Addin {
  const emu = new Emulator(options);
  created.push(emu);
  emu.store('document').set('INVESTOR_DATA_BASE_URL', serviceUrl);
  if (key !== null) {
    emu.store(`user:${emu.owner}`).set('INVESTOR_DATA_API_KEY', key);
    emu.store(`user:${emu.owner}`).set('INVESTOR_DATA_KEY_ADDRESS', serviceUrl);
  }
  return { emu, cell: (name, ...args) => callCustomFunction(emu, name, args) };
}

/** Everything the emulator kept or logged, as one text, for scanning for secrets. */
export function everythingStored(emu: Emulator): string {
  const parts: string[] = [];
  for (const [scope, store] of emu.properties) if (!scope.startsWith('user:')) parts.push(JSON.stringify([...store]));
  for (const [, cache] of emu.caches) parts.push(JSON.stringify([...cache.items]));
  for (const ledger of emu.history) parts.push(ledger.logs.join('\n'));
  parts.push(JSON.stringify(emu.workbook.toJSON()));
  return parts.join('\n');
}
