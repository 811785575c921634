/**
 * The memo's store and codec in Apps Script: the document cache (shared by the spreadsheet's
 * users, namespaced per key by the memo), SHA-256 digests and gzip+base64 from Utilities.
 */
import type { CacheStore, Codec } from '../api/memo';

function cache(): GoogleAppsScript.Cache.Cache {
  return CacheService.getDocumentCache() ?? CacheService.getScriptCache();
}

export const gasCacheStore: CacheStore = {
  getAll: (keys) => (keys.length ? (cache().getAll(keys) as Record<string, string>) : {}),
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
