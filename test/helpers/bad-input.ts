/**
 * The message of the BAD_INPUT error a call throws; fails the test when it throws anything
 * else or nothing. For tests of argument and settings checks, which promise a clear message.
 */
import { ServiceError } from '../../src/api/errors';

export function badInputMessage(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).code).toBe('BAD_INPUT');
    return (e as ServiceError).message;
  }
  throw new Error('expected a BAD_INPUT error');
}
