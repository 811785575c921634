/**
 * The memo's store and codec in Apps Script: the document cache (shared by the spreadsheet's
 * users, namespaced per key by the memo), SHA-256 digests and gzip+base64 from Utilities.
 */
import type { CacheStore, Codec } from '../api/memo';

export function cache(): GoogleAppsScript.Cache.Cache {
  return CacheService.getDocumentCache() ?? CacheService.getScriptCache();
}

/** Keys read along with the next cache read of this execution, and what to do with their values. */
const alongside = new Map<string, (value: string | undefined) => void>();

/**
 * Has `key` read in the same call as the next cache read of this execution (no call of its own):
 * a warm formula learns the document's settings from the read that finds its answer.
 */
export function readAlongWithNext(key: string, use: (value: string | undefined) => void): void {
  alongside.set(key, use);
}

function readAll(keys: string[]): Record<string, string> {
  if (!alongside.size) return keys.length ? (cache().getAll(keys) as Record<string, string>) : {};
  const extra = [...alongside];
  alongside.clear();
  const got = cache().getAll([...keys, ...extra.map(([k]) => k)]) as Record<string, string>;
  for (const [k, use] of extra) {
    use(got[k]);
    if (!keys.includes(k)) delete got[k];
  }
  return got;
}

export const gasCacheStore: CacheStore = {
  getAll: (keys) => readAll(keys),
  putAll: (values, ttlSeconds) => {
    if (Object.keys(values).length) cache().putAll(values, ttlSeconds);
  },
  removeAll: (keys) => {
    if (keys.length) cache().removeAll(keys);
  },
};

function hex(bytes: number[]): string {
  return bytes.map((b) => ((b + 256) % 256).toString(16).padStart(2, '0')).join('');
}

export const gasCodec: Codec = {
  digest: (text) => hex(Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8)),
  gzip: (text) => Utilities.base64Encode(Utilities.gzip(Utilities.newBlob(text, 'application/json')).getBytes()),
  gunzip: (packed) =>
    Utilities.ungzip(Utilities.newBlob(Utilities.base64Decode(packed), 'application/x-gzip')).getDataAsString('UTF-8'),
};
