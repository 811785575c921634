/**
 * FNV-1a over UTF-16 code units: a fast, stable, well-spread 32-bit hash. For bucketing and
 * cheap consistency checks only, never for secrecy (SHA-256 from Utilities does that).
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
