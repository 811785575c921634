/**
 * A fake list (./fake-list.ts) whose pages the service refuses by rule: `fail` gets the page and
 * how many times that page was asked for before, and gives the error to answer with, or nothing.
 * It counts the times each page asked for was answered rather than refused.
 */
import type { ServiceError } from '../../src/api/errors';
import { type FakeList, fakeList, records } from './fake-list';

export interface RefusingList extends FakeList {
  /** Times each page asked for was answered (0 for a page only ever refused), by page. */
  answered: Map<number, number>;
}

export function refusingList(n: number, fail: (page: number, call: number) => ServiceError | undefined): RefusingList {
  const calls = new Map<number, number>();
  const answered = new Map<number, number>();
  const list = fakeList(records(n), {
    fail: (page) => {
      const call = calls.get(page) ?? 0;
      calls.set(page, call + 1);
      const error = fail(page, call);
      answered.set(page, (answered.get(page) ?? 0) + (error ? 0 : 1));
      return error;
    },
  });
  return Object.assign(list, { answered });
}
