/**
 * Key redaction through the client's public surface: every occurrence of the key, raw or in any
 * URL-encoded form, is gone before a message is cut, and no run of 8 characters of a key is left
 * in a message; keys outside the safe character set are refused with a reason.
 */
import { Client } from '../../../src/api/client';
import { KEY_SLICE, keyProblem, REDACTED, redact } from '../../../src/api/redact';
import { interpret } from '../../../src/api/response';
import { DEFAULT_RETRY } from '../../../src/api/retry';
import { FakeClock, FakeTransport, type Handler, json } from '../../helpers/fakes';

const BASE = 'https://data.example.com';

/** The first 8-character slice of `key` found in `text`, if any. */
function sliceOf(key: string, text: string): string | undefined {
  for (let i = 0; i + KEY_SLICE <= key.length; i++)
    if (text.includes(key.slice(i, i + KEY_SLICE))) return key.slice(i, i + KEY_SLICE);
  return undefined;
}

const encodings = (key: string): string[] => {
  const strict = encodeURIComponent(key).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return [
    key,
    encodeURIComponent(key),
    strict,
    strict.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    encodeURIComponent(strict),
  ];
};

describe('redaction of a key wherever it occurs', () => {
  const hostile = ["it's-a-key+with%and&more", 'plus+key+0123456', "quote'key'abcdefg", 'pct%41%key-xyz12'];

  test.each(hostile)('%s: every raw and URL-encoded form, every occurrence, whole value', (key) => {
    for (const form of encodings(key)) {
      const text = `GET ${BASE}/x?id=1&apiKey=${form}&page=2 said "${form}" and again ${form}.`;
      const out = redact(text, [key]);
      expect(out).not.toContain(form);
      expect(sliceOf(key, out)).toBeUndefined();
      expect(sliceOf(encodeURIComponent(key), out)).toBeUndefined();
      expect(out).toContain('page=2');
    }
  });

  test("a key with ' in a URL: the tail after the quote is redacted too", () => {
    const key = "abc'defghijkl";
    expect(redact(`https://h/p?apiKey=${key}&x=1`, [key])).toBe(`https://h/p?apiKey=${REDACTED}&x=1`);
    expect(redact(`https://h/p?apiKey=${key}&x=1`, [])).toBe(`https://h/p?apiKey=${REDACTED}&x=1`);
  });

  test('a key cut in two elsewhere: any run of 8 or more of its characters is redacted', () => {
    const key = 'demo-key-0123456789';
    expect(redact(`echo: ${key.slice(0, 12)}`, [key])).toBe(`echo: ${REDACTED}`);
    expect(redact(`${key.slice(7)} tail`, [key])).toBe(`${REDACTED} tail`);
    expect(redact('short demo-ke piece', [key])).toBe('short demo-ke piece');
  });

  test('a service that echoes the key in a long error message: redacted before the message is cut', () => {
    const key = 'sk_live_abcdefghijklmnop0123';
    for (let at = 120; at <= 170; at += 5) {
      const message = `${'x'.repeat(at)} bad key ${key} end`;
      const r = interpret({ status: 500, headers: {}, body: JSON.stringify({ message }) }, `${BASE}/p`, [key], 0);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(sliceOf(key, r.error.message)).toBeUndefined();
    }
  });

  test('through the client: an echoed key (raw, encoded, cut) never reaches an outcome message', () => {
    const key = "k'ey+with%odd&chars12";
    const handler: Handler = (url) =>
      json(500, { message: `${'y'.repeat(145)} ${key} ${url.search} ${encodeURIComponent(key)}` });
    const client = new Client({
      baseUrl: BASE,
      apiKey: key,
      transport: new FakeTransport(handler),
      clock: new FakeClock(),
      retry: { ...DEFAULT_RETRY, retries: 0 },
    });
    const [o] = client.limitedPartners(['lp_1']);
    expect(o.ok).toBe(false);
    if (!o.ok) {
      expect(o.error.message).toMatch(/^The data service failed \(HTTP 500/);
      for (const form of encodings(key)) expect(sliceOf(form, `${o.error.message} ${o.error.url}`)).toBeUndefined();
    }
  });
});

describe('which keys can be saved', () => {
  test('URL-unreserved characters, 8 to 512 of them', () => {
    for (const ok of ['demo-key-0123456789', 'sk_live.ABC~123', 'x'.repeat(512)])
      expect(keyProblem(ok)).toBeUndefined();
    for (const bad of [
      "it's-a-key",
      'a+b+c+d+e',
      'pct%41key',
      'amp&key=1',
      'space key',
      'short',
      'x'.repeat(513),
      'ключ-1234567',
    ]) {
      expect(keyProblem(bad)).toMatch(/^An API key /);
    }
  });
});
