/**
 * Credential redaction. The API key travels as a query parameter, so any URL, message or log
 * line that might hold it passes through here first. Redaction is by parameter name (any
 * `apiKey=` value) and by value (the key itself wherever it appears, raw or URL-encoded).
 */

const API_KEY_PARAM = /([?&]apiKey=)[^&#\s"']*/gi;

export const REDACTED = '***';

export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(API_KEY_PARAM, `$1${REDACTED}`);
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      out = out.split(form).join(REDACTED);
    }
  }
  return out;
}

/** The last four characters of a key, for display ("…ab12"); never more. */
export function keyHint(key: string): string {
  return key.length <= 4 ? '…' : `…${key.slice(-4)}`;
}
