/**
 * A fake list (./fake-list.ts) whose pages the service refuses by rule: `fail` gets the page and
 * how many times that page was asked for before, and gives the error to answer with, or nothing.
 */
import type { ServiceError } from '../../src/api/errors';
import { type FakeList, fakeList, records } from './fake-list';

export function refusingList(n: number, fail: (page: number, call: number) => ServiceError | undefined): FakeList {
  const calls = new Map<number, number>();
  return fakeList(records(n), {
    fail: (page) => {
      const call = calls.get(page) ?? 0;
      calls.set(page, call + 1);
      return fail(page, call);
    },
  });
}
