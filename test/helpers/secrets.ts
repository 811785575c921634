/**
 * What the secret scan looks for: every API key an emulator was given (each user's saved key,
 * not only the demo key) and any 8-character slice of one. A slice made only of digits counts
 * only where it is not part of a longer unrelated number (a timestamp holding "12345678" is not a
 * leak of a key ending "0123456789").
 */
import type { Emulator } from '../../dev/emulator/runtime';
import { DEMO_KEY } from './service';

export const SLICE = 8;
const KEY_PROPERTY = 'INVESTOR_DATA_API_KEY';

/** The keys an emulator holds in its users' stores, plus the demo key. */
export function keysOf(emu: Emulator): string[] {
  const keys = new Set<string>([DEMO_KEY]);
  for (const [scope, store] of emu.properties) {
    const key = scope.startsWith('user:') ? store.get(KEY_PROPERTY) : undefined;
    if (key) keys.add(key);
  }
  return [...keys];
}

/** Where a key, whole or as an 8-character slice, shows in the text: positions only, never the key itself. */
export function leaksIn(text: string, keys: readonly string[]): string[] {
  const found: string[] = [];
  for (const [n, key] of keys.entries()) {
    for (let i = 0; i + SLICE <= key.length; i++) {
      const slice = key.slice(i, i + SLICE);
      for (let at = text.indexOf(slice); at !== -1; at = text.indexOf(slice, at + 1)) {
        if (/^\d+$/.test(slice) && insideLongerNumber(text, at, key)) continue;
        found.push(`key #${n + 1}: its characters ${i + 1}–${i + SLICE} at character ${at} of what was stored`);
        break;
      }
    }
  }
  return found;
}

/** Whether the digits at `at` belong to a longer run of digits that is not itself part of the key. */
function insideLongerNumber(text: string, at: number, key: string): boolean {
  let start = at;
  let end = at + SLICE;
  while (start > 0 && /\d/.test(text[start - 1])) start--;
  while (end < text.length && /\d/.test(text[end])) end++;
  return end - start > SLICE && !key.includes(text.slice(start, end));
}
