/**
 * URL building. Every query value is encoded with encodeURIComponent, so an id holding `&`,
 * `#`, `/`, `?`, spaces or unicode can never add, drop or change a parameter. Text that cannot be
 * encoded (a lone UTF-16 surrogate) is a BAD_INPUT error naming the parameter, never `URI malformed`.
 */
import { grouped } from './numbers';
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

/** Longest service address: Apps Script refuses a URL over 2,082 characters, and a request adds its path and query. */
export const MAX_ADDRESS_CHARS = 2000;

/**
 * Characters that show nothing, or change how the text around them is shown: controls (C0, DEL,
 * C1), format characters (zero-width U+200B-U+200D, U+2060, U+FEFF, the bidi marks, embeddings,
 * overrides and isolates U+200E/U+200F, U+202A-U+202E, U+2066-U+2069, the soft hyphen, …), line
 * and paragraph separators, spaces other than the plain one, private-use and broken (surrogate)
 * characters, and the fillers and selectors that draw nothing.
 */
const INVISIBLE =
  '[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Co}\\p{Cs}\\u00a0\\u034f\\u115f\\u1160\\u1680\\u180b-\\u180f\\u2000-\\u200a\\u202f\\u205f\\u2800\\u3000\\u3164\\ufe00-\\ufe0f\\uffa0]';
let invisible: RegExp | undefined;

/**
 * The first invisible character of the text (INVISIBLE), or null. Printable ASCII (every usual
 * address) holds none, so the Unicode class is built only for other text: a `\p{…}` pattern costs
 * V8 about 0.2 ms to parse, which every execution would pay as a literal (the script is compiled
 * in every execution) whether it reads an address or not.
 */
function firstInvisible(text: string): RegExpExecArray | null {
  if (/^[\x20-\x7e]*$/.test(text)) return null;
  invisible ??= new RegExp(INVISIBLE, 'u');
  return invisible.exec(text);
}

/** Text as a message may quote it: every character outside printable ASCII written as <U+XXXX>, so none passes for another. */
export function visibleText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += code >= 0x20 && code < 0x7f ? text[i] : `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  }
  return out;
}

/** The address as a refusal quotes it: cut to 100 characters, every unusual character visible. */
const quoted = (text: string): string => `"${visibleText(text.slice(0, 100))}"`;

/** Without the plain spaces, tabs and line breaks around it, nor its trailing slashes: anything else unseen stays, to be refused. */
function trimmed(raw: string): string {
  const around = ' \t\r\n';
  let start = 0;
  let end = raw.length;
  while (start < end && around.includes(raw[start])) start++;
  while (end > start && around.includes(raw[end - 1])) end--;
  while (end > start && raw[end - 1] === '/') end--;
  return raw.slice(start, end);
}

/**
 * Checks a user-supplied base URL: https, or http only on the local machine; a host in plain
 * ASCII (an internationalised domain written as punycode, xn--…), and no invisible, bidi or
 * control character anywhere, so the address every message and the consent question ("Send my
 * key to <host>?") shows is the one the key goes to. Returns it normalised.
 */
export function normaliseBaseUrl(input: string): string {
  const raw = String(input ?? '');
  if (raw.length > MAX_ADDRESS_CHARS)
    throw badInput(
      `The service address is ${grouped(raw.length)} characters long; at most ${grouped(MAX_ADDRESS_CHARS)}.`,
    );
  const text = trimmed(raw);
  const hidden = firstInvisible(text);
  if (hidden)
    throw badInput(
      `The service address holds an invisible or control character (${visibleText(hidden[0])} at position ${hidden.index + 1}): ${quoted(text)}. Type the address again rather than pasting it.`,
    );
  const m = /^(https?):\/\/(\[[0-9a-f:.]+\]|[^/?#:@\s[\]]+)(:\d{1,5})?(\/[^?#\s]*)?$/i.exec(text);
  if (!m) throw badInput(`Not a valid service address: ${quoted(text)}. Use https://host[/path].`);
  const scheme = m[1].toLowerCase();
  const host = m[2].toLowerCase();
  if (/[^\x20-\x7e]/.test(host))
    throw badInput(
      `The host of the service address is not plain ASCII: ${quoted(text)}. Write an internationalised domain name as punycode, xn--…, as the service's documentation gives it.`,
    );
  if (/[^\x20-\x7e]/.test(m[4] ?? ''))
    throw badInput(
      `The path of the service address is not plain ASCII: ${quoted(text)}. Write its other characters percent-encoded (%D0%B0).`,
    );
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)$/.test(host))
    throw badInput(`Not a valid host in the service address: ${quoted(text)}. Use letters, digits, "-" and ".".`);
  const local = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  if (scheme !== 'https' && !local) {
    throw badInput(`The service address must use https (http is allowed only for localhost): ${quoted(text)}.`);
  }
  return `${scheme}://${host}${m[3] ?? ''}${m[4] ?? ''}`;
}

/**
 * A service address as messages and the consent question name it: host, port and path (the path
 * decides who receives the key on a shared host) of the address normaliseBaseUrl accepts; an
 * address it refuses (written into the document behind the add-in's back) has every character
 * outside printable ASCII shown as <U+XXXX>, so it never passes for the host it imitates.
 */
export function shownServiceAddress(address: string): string {
  let text: string;
  try {
    text = normaliseBaseUrl(address);
  } catch {
    text = visibleText(String(address ?? '').slice(0, MAX_ADDRESS_CHARS));
  }
  return text.replace(/^https?:\/\//, '').replace(/\/+$/, '');
}

/** Why `address` cannot be used as a service address ('' when it can). */
export function addressProblem(address: string): string {
  try {
    normaliseBaseUrl(address);
    return '';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
