/** The emulator's reading of a manifest's urlFetchWhitelist: plain prefixes, and a leading `*.` for any subdomain. */
import { allowedByManifest } from '../../../dev/emulator/url-fetch';

test('a URL is allowed when it starts with a listed prefix, or sits on a subdomain a *. prefix names', () => {
  const list = ['https://data.example.com/api/', 'https://*.example.org/v1/'];
  expect(allowedByManifest('https://data.example.com/api/x?apiKey=k', list)).toBe(true);
  expect(allowedByManifest('https://data.example.com/other', list)).toBe(false);
  expect(allowedByManifest('https://data.example.com.evil.test/api/', list)).toBe(false);
  expect(allowedByManifest('https://eu.example.org/v1/list', list)).toBe(true);
  expect(allowedByManifest('https://a.b.example.org/v1/list', list)).toBe(true);
  expect(allowedByManifest('https://example.org/v1/list', list)).toBe(false);
  expect(allowedByManifest('https://eu.example.org/v2/list', list)).toBe(false);
  expect(allowedByManifest('http://data.example.com/api/x', list)).toBe(false);
});
