/** URL building: text that cannot be URL-encoded is a clear BAD_INPUT error, never `URI malformed`. */
import { ServiceError } from '../../../src/api/errors';
import { buildUrl } from '../../../src/api/url';

test('a lone surrogate in a query value is a BAD_INPUT error naming the parameter', () => {
  expect(buildUrl('https://h/', '/p', { id: 'a b&c', page: 2 })).toBe('https://h/p?id=a%20b%26c&page=2');
  let caught: unknown;
  try {
    buildUrl('https://h', '/p', { limitedPartnerId: 'x\uD800' });
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ServiceError);
  expect((caught as ServiceError).code).toBe('BAD_INPUT');
  expect((caught as ServiceError).message).toBe(
    'The limitedPartnerId holds a broken character (half of a UTF-16 surrogate pair) and cannot be sent.',
  );
});
