/**
 * The retry policy's two functions on their own: `parseRetryAfter` reads delta-seconds (with a
 * fraction) and HTTP dates, and nothing else that `Date.parse` would take as a date; `retryDelay`
 * counts the attempts a call with a last good copy has when the caller does not say, and waits
 * a Retry-After as long as the longest the policy accepts.
 */
import { ServiceError } from '../../../src/api/errors';
import { DEFAULT_RETRY, parseRetryAfter, retryDelay } from '../../../src/api/retry';

const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);

describe('parseRetryAfter', () => {
  test('delta-seconds with a fraction of several digits', () => {
    expect(parseRetryAfter('1.25', NOW)).toBe(1250);
    expect(parseRetryAfter(' 2.125 ', NOW)).toBe(2125);
  });

  test('a date that is not an HTTP date is no wait, even in the future', () => {
    const later = new Date(NOW + 60_000);
    expect(parseRetryAfter(later.toISOString(), NOW)).toBeUndefined();
    expect(parseRetryAfter(later.toUTCString(), NOW)).toBe(60_000);
  });
});

describe('retryDelay', () => {
  const server = new ServiceError('SERVER', 'down');
  const policy = { ...DEFAULT_RETRY, retries: 2, retriesWithoutCopy: 6, jitter: 0 };

  test('without saying, the caller has a last good copy: the shorter count of retries applies', () => {
    expect(retryDelay(server, 2, policy)).toBe(800);
    expect(retryDelay(server, 3, policy)).toBeUndefined();
    expect(retryDelay(server, 3, policy, Math.random, false)).toBe(1600);
  });

  test('a Retry-After of exactly the longest accepted wait is waited; one millisecond more is not', () => {
    const limited = (ms: number) => new ServiceError('RATE_LIMITED', 'busy', { retryAfterMs: ms });
    expect(retryDelay(limited(policy.maxRetryAfterMs), 1, policy)).toBe(policy.maxRetryAfterMs);
    expect(retryDelay(limited(policy.maxRetryAfterMs + 1), 1, policy)).toBeUndefined();
  });
});
