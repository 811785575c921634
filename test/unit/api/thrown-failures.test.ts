/**
 * What a thrown failure becomes, at the edges of its wording: every spelling of a time-out is a
 * TIMEOUT, a request left unsent says what to do, and a key never shows in a failure's message,
 * even a key that happens to be a word the message itself uses.
 */
import { toServiceError, unsent } from '../../../src/api/errors';

describe('a thrown failure', () => {
  test.each(['Request time out', 'Connection timedout', 'TIME OUT after 60 s', 'timed out', 'timeout'])(
    '%j is a time-out',
    (text) => {
      expect(toServiceError(new Error(text), []).code).toBe('TIMEOUT');
    },
  );

  test('a request left unsent says how to get the rest', () => {
    const e = unsent();
    expect(e.code).toBe('UNSENT');
    expect(e.message).toMatch(/recalculate/);
  });

  test('a key never shows in a failure message, even one that is a word of the message', () => {
    const cases: Array<[string, string]> = [
      ['quota', 'tomorrow.'],
      ['timeout', 'answer'],
      ['connection refused', 'reach'],
    ];
    for (const [thrown, key] of cases) {
      const e = toServiceError(new Error(thrown), [key]);
      expect(e.message).not.toContain(key);
    }
  });
});
