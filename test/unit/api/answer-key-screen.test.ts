/**
 * The quick screen that lets most answers skip redaction must never let a key through: an answer
 * whose only trace of the key is a part of it (its first, a middle or its last 8 characters), its
 * percent-encoded form, a key whose every run of 8 holds characters that mean something in a
 * pattern (`.`, or a `d` that `\d` would read as a digit), or a short key (4 to 8 characters,
 * redacted whole), has that trace redacted like any other.
 */
import { keepAnswer } from '../../../src/api/answer';
import { leaksIn } from '../../helpers/secrets';

/** keepAnswer of one record whose website holds `text`, with the body as it would have been sent. */
function keptWebsite(text: string, secrets: readonly string[]): unknown {
  const body = { data: { id: 'a', website: `https://svc/?apiKey=${text}` } };
  const kept = keepAnswer(body, secrets, JSON.stringify(body));
  return (kept.data as Record<string, unknown>).website;
}

const KEY = 'sk_live_SECRET_9f8e7d';

test('an answer holding only a part of the key (its first, a middle or its last 8 characters) has it redacted', () => {
  for (const part of [KEY.slice(0, 8), KEY.slice(5, 13), KEY.slice(-8), KEY.slice(0, 11)]) {
    const website = keptWebsite(part, [KEY]);
    expect(website).toBe('https://svc/?apiKey=***');
  }
});

test('an answer holding only the percent-encoded key has it redacted', () => {
  const encoded = Array.from(KEY, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
  expect(keptWebsite(encoded, [KEY])).toBe('https://svc/?apiKey=***');
});

test('a key whose every run holds pattern characters (a dot, a letter d) is found as it is written', () => {
  const dotted = 'd.d.d.d.d.d.d.d';
  const website = keptWebsite(dotted, [dotted]);
  expect(leaksIn(String(website), [dotted])).toEqual([]);
  expect(website).toBe('https://svc/?apiKey=***');
});

test('a short key, of 4 to 8 characters, is redacted whole', () => {
  for (const short of ['wxyz', 'wxyz12', 'wxyz1234']) {
    const website = keptWebsite(short, [short]);
    expect(website).toBe('https://svc/?apiKey=***');
  }
});

test('the key with one character encoded (any hex case, or `%` itself encoded) is redacted, beside unrelated encodings', () => {
  // Every underscore encoded: no run of 8 raw characters of the key is left.
  const forms = ['%5f', '%5F', '%255F', '%25255f'].map((encoded) => KEY.replace(/_/g, encoded));
  for (const form of forms) {
    const body = {
      data: [
        { id: 'a', website: 'https://svc/a%20b?q=%C3%A9' },
        { id: 'b', website: `https://svc/?k=${form}` },
      ],
    };
    const kept = keepAnswer(body, [KEY], JSON.stringify(body)).data as Array<Record<string, unknown>>;
    expect(kept[0].website).toBe('https://svc/a%20b?q=%C3%A9');
    expect(leaksIn(String(kept[1].website), [KEY])).toEqual([]);
    expect(kept[1].website).not.toContain('SECRET');
  }
});
