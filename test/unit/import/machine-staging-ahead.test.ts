/**
 * A step whose next page must wait from its first request (src/import/machine.ts save): it takes
 * nothing, but the many pages it read behind that page are written to staging at their place, so
 * the steps after it take them back without asking for them again.
 */
import type { ServiceError } from '../../../src/api/errors';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

test('pages read behind a page that waits the whole step are kept, and asked for once', () => {
  let executions = 0;
  let firstOfSecond: number | undefined;
  const list = fakeList(records(20_000), {
    fail: (page): ServiceError | undefined => {
      // The first page the second step asks for waits 60 s, past that step's end.
      if (executions === 2 && firstOfSecond === undefined) {
        firstOfSecond = page;
        return limited(60);
      }
      return undefined;
    },
  });
  const w = world(list.fetch, [spec], { msPerFetch: 200 });
  const next = w.nextExecution.bind(w);
  w.nextExecution = () => {
    executions++;
    return next();
  };
  const { steps } = timedDrive(w, 20_000);
  expect(steps.map((s) => s.status).pop()).toBe('done');
  expect(firstOfSecond).toBeGreaterThan(1);
  const times = new Map<number, number>();
  for (const { page } of list.asked) times.set(page, (times.get(page) ?? 0) + 1);
  times.set(firstOfSecond as number, (times.get(firstOfSecond as number) ?? 0) - 1);
  expect([...times].filter(([, k]) => k !== 1)).toEqual([]);
  expect(
    w.tables
      .get('Partners')
      ?.slice(1)
      .map((r) => r[0]),
  ).toEqual(records(20_000).map((r) => r.id));
});
