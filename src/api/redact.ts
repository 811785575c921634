/**
 * Credential redaction. The API key travels as a query parameter, so any URL, message or log
 * line that might hold it passes through here first. Known keys are redacted by value first,
 * every occurrence, raw or in any URL-encoded form (`'` as `%27`, `+` as `%2B`, `%` as `%25`,
 * either hex case, encoded twice), and then any run of 8 or more characters copied from a key
 * (a key cut in half by a length limit elsewhere still does not show); only then are unknown
 * values of an `apiKey=` parameter redacted by name. Keys are checked against SAFE_KEY when they
 * are saved, so the keys the add-in sends never need encoding at all.
 */

/** What a saved key may hold: URL-unreserved characters only, 8 to 512 of them. */
export const SAFE_KEY = /^[A-Za-z0-9._~-]{8,512}$/;
/** The shortest run of a key's characters that is redacted on its own. */
export const KEY_SLICE = 8;
export const REDACTED = '***';

const API_KEY_PARAM = /((?:[?&]|%26|%3F)apiKey(?:=|%3D))[^&#\s"<>]*/gi;

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A hex digit in either case. */
const hex = (d: string): string => (/[A-F]/.test(d) ? `[${d}${d.toLowerCase()}]` : d);

/** The UTF-8 bytes of a character as hex pairs, as percent-encoding writes them (none for a lone surrogate: it has no encoded form). */
function bytesOf(ch: string): string[] {
  try {
    const encoded = encodeURIComponent(ch).match(/%[0-9A-F]{2}/g);
    return encoded ? encoded.map((b) => b.slice(1)) : [ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')];
  } catch {
    return [];
  }
}

const bytePattern = (pair: string): string => `${hex(pair[0])}${hex(pair[1])}`;

/** A pattern matching one character raw or percent-encoded (UTF-8 bytes, any hex case, `%` itself encoded up to twice). */
function charPattern(ch: string): string {
  const bytes = bytesOf(ch);
  if (!bytes.length) return escapeRegExp(ch);
  return `(?:${escapeRegExp(ch)}|${bytes.map((b) => `%(?:25){0,2}${bytePattern(b)}`).join('')})`;
}

/** Every character of a key, raw or encoded, in sequence. */
function keyPattern(secret: string): RegExp {
  return new RegExp(Array.from(secret, charPattern).join(''), 'g');
}

/** The runs of KEY_SLICE characters of a secret. */
function slicesOf(secret: string): Set<string> {
  const slices = new Set<string>();
  for (let i = 0; i + KEY_SLICE <= secret.length; i++) slices.add(secret.slice(i, i + KEY_SLICE));
  return slices;
}

/** Replaces every run of KEY_SLICE or more characters that also occurs in the secret (`slices`: slicesOf it). */
function redactSlices(text: string, slices: ReadonlySet<string>): string {
  if (slices.size === 0 || text.length < KEY_SLICE) return text;
  const covered = new Uint8Array(text.length);
  let any = false;
  for (let i = 0; i + KEY_SLICE <= text.length; i++) {
    if (slices.has(text.slice(i, i + KEY_SLICE))) {
      covered.fill(1, i, i + KEY_SLICE);
      any = true;
    }
  }
  if (!any) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += REDACTED;
  }
  return out;
}

/**
 * A function that redacts the known keys only, by value, its patterns built once (for the many
 * texts of an answer). For the service's data: an id such as `a&apiKey=b` that the analyst typed
 * is data, not a key, and must come back as it was sent.
 */
export function keyRedactor(secrets: readonly string[]): (text: string) => string {
  const keys = secrets
    .filter((secret) => secret && secret.length >= 4)
    .map((secret) => ({
      pattern: keyPattern(secret),
      slices: [...new Set([secret, encodeURIComponentSafe(secret)])].map(slicesOf),
    }));
  return (text) => {
    let out = String(text);
    for (const key of keys) {
      out = out.replace(key.pattern, REDACTED);
      for (const slices of key.slices) out = redactSlices(out, slices);
    }
    return out;
  };
}

/** The redaction of a body that holds nothing that could be a key: every text as it is. */
export const unchanged = (text: string): string => text;

/**
 * keyRedactor for the many texts of one answer, applied only to a text that could hold a key: a run
 * of KEY_SLICE characters of one (or the whole of a shorter one), or where an encoded form of one
 * begins (`%` and a byte of one of its characters, or `%25`). Everything else, nearly every text of
 * nearly every answer ("a 20% hurdle", "%20" in a link too), is returned as it is, cheaply; and when
 * the whole `body` as sent holds no such run (nor a `\\u` escape, which could spell one), no text is
 * tested at all.
 */
export function screenedRedactor(secrets: readonly string[], body: string): (text: string) => string {
  const keys = secrets.filter((secret) => secret && secret.length >= 4);
  const bytes = new Set(['25']);
  for (const secret of keys) for (const ch of secret) for (const b of bytesOf(ch)) bytes.add(b);
  const runs = keys.flatMap((secret) => (secret.length <= KEY_SLICE ? [secret] : [...slicesOf(secret)]));
  const suspect = new RegExp([`%(?:${[...bytes].map(bytePattern).join('|')})`, ...runs.map(escapeRegExp)].join('|'));
  if (!suspect.test(body) && !body.includes('\\u')) return unchanged;
  const redact = keyRedactor(secrets);
  return (text) => (suspect.test(text) ? redact(text) : text);
}

/** Redacts the known keys, then any value of an `apiKey` parameter (messages, URLs, logs). */
export function redact(text: string, secrets: readonly string[]): string {
  return keyRedactor(secrets)(text).replace(API_KEY_PARAM, `$1${REDACTED}`);
}

function encodeURIComponentSafe(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Redacts, then cuts to at most `max` characters: the order that never leaves part of a key. */
export function redactAndCut(text: string, secrets: readonly string[], max: number): string {
  return redact(text, secrets).slice(0, max);
}

/** Why a key cannot be saved, or undefined when it can. */
export function keyProblem(key: string): string | undefined {
  if (SAFE_KEY.test(key)) return undefined;
  if (key.length < 8 || key.length > 512) return 'An API key is 8 to 512 characters long.';
  return 'An API key may hold only letters, digits and the characters - _ . ~ (no spaces, quotes, +, %, & or other symbols).';
}

/** The last four characters of a key, for display ("…ab12"); never more. */
export function keyHint(key: string): string {
  return key.length <= 4 ? '…' : `…${key.slice(-4)}`;
}
