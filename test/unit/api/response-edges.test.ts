/**
 * Reading one HTTP answer at its edges: a 200 whose body is JSON but not an object is a broken
 * answer (not a crash); the service's short text is shown trimmed; a redirect (300 to 399, not
 * below) names only an absolute http(s) Location, read after its surrounding spaces.
 */
import { interpret } from '../../../src/api/response';
import type { HttpResponse } from '../../../src/api/transport';

const NOW = 1_800_000_000_000;
const URL_ = 'https://data.example.com/v1/limitedPartners/x?apiKey=secret-key-0123';
const failed = (res: HttpResponse) => {
  const r = interpret(res, URL_, ['secret-key-0123'], NOW);
  if (r.ok) throw new Error('expected a failure');
  return r.error;
};
const REDIRECTED = /^The data service redirected the request/;

describe('a 200 that is not an answer', () => {
  test.each(['42', 'true', '"data"'])('body %s is MALFORMED', (body) => {
    const e = failed({ status: 200, headers: {}, body });
    expect(e.code).toBe('MALFORMED');
    expect(e.message).toBe('The data service answered without a "data" field.');
  });
});

describe('a 200 that is a web page', () => {
  test.each(['<!doctype html><html></html>', '\n  <html><body>Sign in</body></html>'])(
    'body %j says the address is wrong, and is not retried',
    (body) => {
      const e = failed({ status: 200, headers: {}, body });
      expect(e.code).toBe('BAD_RESPONSE');
      expect(e.transient).toBe(false);
      expect(e.message).toBe(
        'The service address answered with a web page, not the data service: check the address in Investor Data ▸ Settings.',
      );
    },
  );

  test.each(['{"data": "<b>bold', 'x<html>'])(
    'a cut or broken body with a "<" past its start (%j) is an incomplete answer',
    (body) => {
      expect(failed({ status: 200, headers: {}, body })).toMatchObject({
        code: 'MALFORMED',
        message: 'The data service sent an incomplete answer (not valid JSON).',
      });
    },
  );
});

describe("the service's own text", () => {
  test('is shown with its surrounding spaces and line breaks gone', () => {
    const body = JSON.stringify({ message: '\n  Invalid   page size \n' });
    expect(failed({ status: 400, headers: {}, body }).message).toBe(
      'The data service rejected the request (HTTP 400: Invalid page size).',
    );
  });
});

describe('redirects', () => {
  test('300 is a redirect; a 2xx other than 200 is not', () => {
    expect(failed({ status: 300, headers: {}, body: '' }).message).toMatch(REDIRECTED);
    for (const status of [201, 204, 299]) {
      const e = failed({ status, headers: {}, body: '' });
      expect(e.message).toBe(`Unexpected answer from the data service (HTTP ${status}).`);
    }
  });

  test('an http Location (a service on this machine) is named', () => {
    const e = failed({ status: 302, headers: { Location: 'http://localhost:8080/v2/x?apiKey=k' }, body: '' });
    expect(e.message).toMatch(/^The data service redirected the request to http:\/\/localhost:8080\/v2\/x: /);
  });

  test('a Location with spaces around it is named without them', () => {
    const e = failed({ status: 307, headers: { Location: '  https://moved.example/v3  ' }, body: '' });
    expect(e.message).toMatch(/^The data service redirected the request to https:\/\/moved\.example\/v3: /);
  });

  test('a relative Location is not named, even when its query holds an address', () => {
    const e = failed({ status: 302, headers: { Location: '/login?next=https://evil.example/x' }, body: '' });
    expect(e.message).toMatch(/^The data service redirected the request: not followed/);
    expect(e.message).not.toContain('evil.example');
  });
});
