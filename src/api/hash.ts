/**
 * Hashes and ids. FNV-1a over UTF-16 code units: a fast, stable, well-spread 32-bit hash, for
 * bucketing and cheap consistency checks only, never for secrecy (SHA-256 from Utilities does
 * that). `from`: the hash of a prefix, so that fnv1a(b, fnv1a(a)) is fnv1a(a + b) without the joined text. `timeId`: the one way the add-in makes a new id.
 */
export function fnv1a(text: string, from = 0x811c9dc5): number {
  let h = from;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A new id for something made now (an import, a run, a snapshot generation, an execution's claims):
 * the time in base 36, then four random base-36 digits, so ids made in the same millisecond differ.
 */
export function timeId(now: number, random: () => number = Math.random, prefix = ''): string {
  return `${prefix}${now.toString(36)}${Math.floor(random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0')}`;
}
