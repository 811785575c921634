/**
 * Key redaction at its edges: short keys, keys with regex-special characters, characters that
 * take several UTF-8 bytes or none, a text exactly one slice long, a broken UTF-16 character in
 * a key; and the two reasons a key cannot be saved (length or characters) told apart.
 */
import { keyProblem, KEY_SLICE, keyRedactor, REDACTED, redact } from '../../../src/api/redact';

describe('every form of a key is redacted', () => {
  test('a key holding regex-special characters is matched literally, raw or percent-encoded', () => {
    for (const key of ['ab.cd', 'a*b?c', 'x(y)z']) {
      expect(redact(`say ${key} now`, [key])).toBe(`say ${REDACTED} now`);
      // the key without its special character is another text, and stays
      const plain = key.replace(/[.*?()]/g, '');
      expect(redact(`say ${plain} now`, [key])).toBe(`say ${plain} now`);
    }
  });

  test('an unencoded character written as %XX, in upper or lower hex, is still the key', () => {
    // '.', '-' and '~' are never encoded by encodeURIComponent, but a server may encode them anyway
    const key = 'key.1234-abcd~xy';
    for (const form of ['key%2E1234%2Dabcd%7Exy', 'key%2e1234%2dabcd%7exy', 'key%252E1234%252Dabcd%257Exy'])
      expect(redact(`[${form}]`, [key])).toBe(`[${REDACTED}]`);
  });

  test('a character of several UTF-8 bytes: every byte, in either hex case, encoded once or twice', () => {
    const key = 'clé-9';
    for (const form of ['cl%C3%A9-9', 'cl%c3%a9-9', 'cl%C3%a9-9', 'cl%25C3%25A9-9', 'cl%25c3%25a9-9'])
      expect(redact(`<${form}>`, [key])).toBe(`<${REDACTED}>`);
    expect(redact('<cl%E9-9>', [key])).toBe('<cl%E9-9>');
  });

  test('a key with a broken UTF-16 character is still redacted raw', () => {
    const key = 'abc\uD800def';
    expect(redact(`x ${key} y`, [key])).toBe(`x ${REDACTED} y`);
    expect(keyRedactor([key])(`x ${key} y`)).toBe(`x ${REDACTED} y`);
  });

  test('a text exactly one slice long, copied from a key, is redacted', () => {
    const key = 'demo-key-0123456789';
    const piece = key.slice(3, 3 + KEY_SLICE);
    expect(redact(piece, [key])).toBe(REDACTED);
    expect(redact(piece.slice(1), [key])).toBe(piece.slice(1));
  });
});

describe('why a key cannot be saved', () => {
  test('a key of allowed length with a refused character is told about its characters', () => {
    for (const bad of ['abc+defg', `${'x'.repeat(511)}%`, 'x y'.padEnd(9, 'z')]) {
      expect(bad.length).toBeGreaterThanOrEqual(8);
      expect(bad.length).toBeLessThanOrEqual(512);
      expect(keyProblem(bad)).toMatch(/may hold only letters, digits/);
    }
  });

  test('a key too short or too long is told about its length', () => {
    for (const bad of ['abc+def', 'x'.repeat(7), 'x'.repeat(513), `${'x'.repeat(512)}%`])
      expect(keyProblem(bad)).toBe('An API key is 8 to 512 characters long.');
  });
});
