/**
 * URL building. Every query value is encoded with encodeURIComponent, so an id holding `&`,
 * `#`, `/`, `?`, spaces or unicode can never add, drop or change a parameter. Text that cannot be
 * encoded (a lone UTF-16 surrogate) is a BAD_INPUT error naming the parameter, never `URI malformed`.
 */
import { badInput } from './errors';

export type QueryValue = string | number | undefined;

export function buildUrl(baseUrl: string, path: string, query: Record<string, QueryValue>): string {
  const base = baseUrl.replace(/\/+$/, '');
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeValue(name, String(value))}`);
  }
  return parts.length ? `${base}${path}?${parts.join('&')}` : `${base}${path}`;
}

function encodeValue(name: string, value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    throw badInput(`The ${name} holds a broken character (half of a UTF-16 surrogate pair) and cannot be sent.`);
  }
}

/** Checks a user-supplied base URL: https, or http only on the local machine. Returns it normalised. */
export function normaliseBaseUrl(input: string): string {
  const text = String(input ?? '')
    .trim()
    .replace(/\/+$/, '');
  const m = /^(https?):\/\/(\[[0-9a-f:.]+\]|[^/?#:@\s[\]]+)(:\d{1,5})?(\/[^?#\s]*)?$/i.exec(text);
  if (!m) throw badInput(`Not a valid service address: "${text.slice(0, 100)}". Use https://host[/path].`);
  const scheme = m[1].toLowerCase();
  const host = m[2].toLowerCase();
  const local = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  if (scheme !== 'https' && !local) {
    throw badInput(`The service address must use https (http is allowed only for localhost): "${text.slice(0, 100)}".`);
  }
  return `${scheme}://${host}${m[3] ?? ''}${m[4] ?? ''}`;
}
