/**
 * Small rules the add-in's messages and ids rest on: counts grouped by thousands at every group,
 * a new id as the time in base 36 then four random base-36 digits (zero-padded, prefixed when
 * asked), and a service address that must start with its scheme (a missing one is shown empty).
 */
import { timeId } from '../../../src/api/hash';
import { every, grouped, plural } from '../../../src/api/numbers';
import { normaliseBaseUrl } from '../../../src/api/url';

describe('counts in messages', () => {
  test.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [10045, '10,045'],
    [1234567, '1,234,567'],
    [1000000000, '1,000,000,000'],
  ])('%d is %s', (n, text) => {
    expect(grouped(n)).toBe(text);
  });
});

describe('counts with their noun, and periods', () => {
  test.each([
    [0, 'partners'],
    [1, 'partner'],
    [2, 'partners'],
    [2110, 'partners'],
  ])('%d %s', (n, noun) => {
    expect(plural(n, 'partner')).toBe(`${grouped(n)} ${noun}`);
  });

  test('an irregular plural is given', () => {
    expect([plural(1, 'entry', 'entries'), plural(1000, 'entry', 'entries')]).toEqual(['1 entry', '1,000 entries']);
  });

  test('every 1 hour reads "every hour"; more are counted', () => {
    expect([every(1, 'hour'), every(6, 'hour'), every(1440, 'minute')]).toEqual([
      'every hour',
      'every 6 hours',
      'every 1,440 minutes',
    ]);
  });
});

describe('new ids', () => {
  const now = 1_800_000_000_000;
  const time = now.toString(36);

  test('the time in base 36, then four random digits, zero-padded', () => {
    expect(timeId(now, () => 0)).toBe(`${time}0000`);
    expect(timeId(now, () => 0.5)).toBe(`${time}i000`); // 0.5 * 36^4 = 18 * 36^3, and 18 is i
    expect(timeId(now, () => 1 - 2 ** -53)).toBe(`${time}zzzz`);
  });

  test('ids made in the same millisecond differ with the random draw', () => {
    const ids = new Set([0.1, 0.2, 0.3, 0.5, 0.7].map((r) => timeId(now, () => r)));
    expect(ids.size).toBe(5);
    for (const id of ids) expect(id).toMatch(new RegExp(`^${time}[0-9a-z]{4}$`));
  });

  test('a prefix, when given, comes first; none by default', () => {
    expect(timeId(now, () => 0, 'run-')).toBe(`run-${time}0000`);
    expect(timeId(now, () => 0)).toHaveLength(time.length + 4);
  });
});

describe('service addresses', () => {
  test('text before the scheme is not an address', () => {
    for (const input of ['xhttps://data.example.com', 'see https://data.example.com', '/https://h'])
      expect(() => normaliseBaseUrl(input)).toThrow('Not a valid service address');
  });

  test('a missing address is shown as empty', () => {
    for (const input of [undefined, null])
      expect(() => normaliseBaseUrl(input as unknown as string)).toThrow(
        'Not a valid service address: "". Use https://host[/path].',
      );
  });
});
