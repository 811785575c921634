/**
 * Reading one HTTP answer: 200 with a JSON object holding `data` is an answer, anything else a
 * ServiceError whose code says whether to retry; `Retry-After` (delta-seconds or an HTTP date) is
 * read as seconds and kept as milliseconds, counted from when the answer came; the service's own
 * short text is shown redacted, never raw HTML.
 */
import { interpret } from '../../../src/api/response';
import { parseRetryAfter } from '../../../src/api/retry';
import type { HttpResponse } from '../../../src/api/transport';
import { json } from '../../helpers/fakes';

const NOW = 1_800_000_000_000;
const URL_ = 'http://127.0.0.1:1/v1/limitedPartners/x?apiKey=secret-key-0123';
const SECRETS = ['secret-key-0123'];
const failed = (res: HttpResponse) => {
  const r = interpret(res, URL_, SECRETS, NOW);
  if (r.ok) throw new Error('expected a failure');
  return r.error;
};

const KEY_IN_LOCATION = 'location-key-0123456789';

describe('Retry-After', () => {
  test.each([
    ['30', 30_000],
    ['1', 1000],
    [' 7 ', 7000],
    ['1.5', 1500],
    ['120', 120_000],
  ])('%j is seconds: %d ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
    const error = failed(json(429, {}, { 'Retry-After': value }));
    expect(error.retryAfterMs).toBe(ms);
    expect(error.retryAt).toBe(NOW + ms);
  });

  test('a 429 says how long to wait, in whole seconds (at least 1)', () => {
    expect(failed(json(429, {}, { 'retry-after': '30' })).message).toBe(
      'Rate limited by the data service, retry in 30 s.',
    );
    expect(failed(json(429, {}, { 'retry-after': '0.2' })).message).toBe(
      'Rate limited by the data service, retry in 1 s.',
    );
    expect(failed(json(429, {}, { 'retry-after': '2.5' })).message).toBe(
      'Rate limited by the data service, retry in 3 s.',
    );
    expect(failed(json(429, {})).message).toBe('Rate limited by the data service, retry in a minute.');
  });

  test('an HTTP date is the time until then; one already past is no usable wait', () => {
    const inTen = new Date(NOW + 10_000).toUTCString();
    expect(parseRetryAfter(inTen, NOW)).toBe(10_000);
    expect(parseRetryAfter(new Date(NOW - 10_000).toUTCString(), NOW)).toBeUndefined();
    expect(failed(json(503, {}, { 'Retry-After': inTen })).retryAfterMs).toBe(10_000);
  });

  test('missing, unreadable or zero: no wait is known', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('0', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('0', NOW)).toBeUndefined();
    expect(parseRetryAfter('-1', NOW)).toBeUndefined();
    expect(failed(json(429, {}, { 'retry-after': 'soon' })).retryAfterMs).toBeUndefined();
    expect(failed(json(429, {})).retryAt).toBeUndefined();
  });
});

describe('status codes', () => {
  test('200 with an object holding data is the answer', () => {
    const r = interpret(json(200, { data: [1], pagination: null }), URL_, SECRETS, NOW);
    expect(r).toEqual({ ok: true, body: { data: [1], pagination: null } });
  });

  test.each([
    [
      'not JSON',
      { status: 200, headers: {}, body: '{"data": [' },
      'The data service sent an incomplete answer (not valid JSON).',
    ],
    ['an array', json(200, [1]), 'The data service answered without a "data" field.'],
    ['null', json(200, null), 'The data service answered without a "data" field.'],
    ['no data', json(200, { items: [] }), 'The data service answered without a "data" field.'],
  ])('200 with %s is MALFORMED (transient)', (_what, res, message) => {
    const error = failed(res);
    expect(error.code).toBe('MALFORMED');
    expect(error.transient).toBe(true);
    expect(error.message).toBe(message);
  });

  test.each([
    [401, 'AUTH', 'The API key was refused (HTTP 401). Check it in Investor Data ▸ Settings.'],
    [403, 'AUTH', 'The API key was refused (HTTP 403). Check it in Investor Data ▸ Settings.'],
    [404, 'NOT_FOUND', 'Not found (HTTP 404).'],
    [408, 'TIMEOUT', 'The data service timed out (HTTP 408).'],
    [504, 'TIMEOUT', 'The data service timed out (HTTP 504).'],
    [500, 'SERVER', 'The data service failed (HTTP 500). Try again shortly.'],
    [503, 'SERVER', 'The data service failed (HTTP 503). Try again shortly.'],
    [400, 'BAD_INPUT', 'The data service rejected the request (HTTP 400).'],
    [422, 'BAD_INPUT', 'The data service rejected the request (HTTP 422).'],
    [418, 'BAD_RESPONSE', 'Unexpected answer from the data service (HTTP 418).'],
    [
      302,
      'BAD_RESPONSE',
      'The data service redirected the request: not followed, so your key goes only to the address you confirmed. If the service moved, save its new address in Settings.',
    ],
  ])('HTTP %d is %s', (status, code, message) => {
    const error = failed({ status, headers: {}, body: '<html>oops</html>' });
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  test('a redirect names its target without the query, and never the key', () => {
    const location = `https://elsewhere.example/v2/getLimitedPartnerById?limitedPartnerId=lp_1&apiKey=${KEY_IN_LOCATION}`;
    const error = failed({ status: 301, headers: { Location: location }, body: '' });
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.message).toBe(
      'The data service redirected the request to https://elsewhere.example/v2/getLimitedPartnerById: not followed, so your key goes only to the address you confirmed. If the service moved, save its new address in Settings.',
    );
  });

  test('the URL an error keeps is redacted', () => {
    const error = failed(json(500, {}));
    expect(error.url).toBeDefined();
    expect(error.url).not.toContain('secret-key-0123');
  });
});

describe("the service's own text", () => {
  test.each([
    [{ message: 'Bad   key\nformat' }, 'Bad key format'],
    [{ error: { message: 'nested' } }, 'nested'],
    [{ error: 'plain' }, 'plain'],
    [{ message: 5, error: 'second choice' }, 'second choice'],
  ])('%j is shown, spaces folded', (body, said) => {
    expect(failed(json(400, body)).message).toBe(`The data service rejected the request (HTTP 400: ${said}).`);
  });

  test('the key in it is redacted; long text is cut; a body without text adds nothing', () => {
    const message = failed(json(401, { message: `key secret-key-0123 is revoked ${'x'.repeat(300)}` })).message;
    expect(message).not.toContain('secret-key-0123');
    expect(message.length).toBeLessThan(300);
    expect(failed(json(400, { message: null })).message).toBe('The data service rejected the request (HTTP 400).');
    expect(failed(json(400, 'just a string')).message).toBe('The data service rejected the request (HTTP 400).');
  });
});
