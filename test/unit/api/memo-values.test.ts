/**
 * The memo's value sizing and its stored namespace. A value is gzipped exactly when its UTF-8
 * size passes the limit (the length-only shortcut must agree with a full count at the edges:
 * ASCII, 3-byte characters, surrogate pairs). A namespace kept with the key is used only when its
 * check matches the key and address it is asked for.
 */
import { MAX_VALUE_BYTES, Memo, overLimit, utf8Length } from '../../../src/api/memo';
import { FakeClock, LimitedStore, nodeCodec } from '../../helpers/fakes';

describe('overLimit agrees with a full UTF-8 count', () => {
  const texts: Array<[string, string]> = [
    ['ASCII at the limit', 'a'.repeat(MAX_VALUE_BYTES)],
    ['ASCII one past', 'a'.repeat(MAX_VALUE_BYTES + 1)],
    ['3-byte characters at a third', '€'.repeat(Math.floor(MAX_VALUE_BYTES / 3))],
    ['3-byte characters one past', `${'€'.repeat(Math.floor(MAX_VALUE_BYTES / 3))}ab`],
    ['surrogate pairs at a quarter', '😀'.repeat(Math.floor(MAX_VALUE_BYTES / 4))],
    ['surrogate pairs one past', `${'😀'.repeat(Math.floor(MAX_VALUE_BYTES / 4))}abcd`],
    ['short, mixed', 'é😀€a'.repeat(100)],
    ['empty', ''],
  ];
  test.each(texts)('%s', (_, text) => {
    expect(overLimit(text)).toBe(utf8Length(text) > MAX_VALUE_BYTES);
  });
});

describe('a namespace stored with the key', () => {
  const KEY = 'stored-key-0123456789';
  const memo = (apiKey: string, baseUrl: string, stored?: string) =>
    new Memo({
      store: new LimitedStore(new FakeClock()),
      codec: nodeCodec,
      apiKey,
      baseUrl,
      ttlMs: 1000,
      invalidatedBefore: 0,
      now: () => 0,
      stored,
    });

  test('is the one the key would digest to, and shows nothing of the key', () => {
    const stored = Memo.storedNamespace(nodeCodec, KEY, 'https://a.example.com');
    expect(memo(KEY, 'https://a.example.com', stored).namespace).toBe(memo(KEY, 'https://a.example.com').namespace);
    for (let i = 0; i + 8 <= KEY.length; i++) expect(stored).not.toContain(KEY.slice(i, i + 8));
  });

  test('is ignored for another key, another address, or when damaged', () => {
    const stored = Memo.storedNamespace(nodeCodec, KEY, 'https://a.example.com');
    const digestOf = (k: string, a: string) => memo(k, a).namespace;
    expect(memo('other-key-0123456789', 'https://a.example.com', stored).namespace).toBe(
      digestOf('other-key-0123456789', 'https://a.example.com'),
    );
    expect(memo(KEY, 'https://b.example.com', stored).namespace).toBe(digestOf(KEY, 'https://b.example.com'));
    const damaged = `${stored.slice(0, stored.indexOf(':') - 1)}:${stored.slice(stored.indexOf(':') + 1)}`;
    expect(memo(KEY, 'https://a.example.com', damaged).namespace).toBe(digestOf(KEY, 'https://a.example.com'));
    expect(memo(KEY, 'https://a.example.com', `${stored}0`).namespace).toBe(digestOf(KEY, 'https://a.example.com'));
    expect(memo(KEY, 'https://a.example.com', 'garbage').namespace).toBe(digestOf(KEY, 'https://a.example.com'));
  });
});
