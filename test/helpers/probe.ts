/** An emulator running a small probe script instead of the bundle, to test the emulator's limits. */
import { Emulator, type EmulatorOptions } from '../../dev/emulator/runtime';

export function probe(source: string, options: EmulatorOptions = {}): Emulator {
  return new Emulator({ ...options, code: source });
}
