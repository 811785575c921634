/**
 * A list whose only fault is ids listed twice (src/import/machine.ts finish): it is kept, each id
 * once, only when two reads in a row found the same ids in the same order. Two reads with as many
 * repeats but at other ids are a list that moved, read again. Driven over the in-memory ports, the
 * list's records changed at the start of each read.
 */
import type { ServiceRecord } from '../../../src/api/records';
import { GIVE_UP } from '../../../src/import/machine';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList } from '../../helpers/fake-list';
import { idsBelowHeader, world } from '../../helpers/fake-ports';
import { timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };
const partners = (ids: string[]): ServiceRecord[] => ids.map((id) => ({ id, fullName: `Name ${id}` }));

test('two reads each with one id twice, but not the same id: a third read decides', () => {
  // Read k shows reads[k] (the last one from then on): p1 twice, then p2 twice, then p2 twice again.
  const reads = [
    ['p0', 'p1', 'p1', 'p3'],
    ['p0', 'p2', 'p2', 'p3'],
  ];
  let read = 0;
  const list = fakeList([], {
    before: (page) => {
      if (page === 1) list.items = partners(reads[Math.min(read++, reads.length - 1)]);
    },
  });
  const w = world(list.fetch, [spec]);
  const last = timedDrive(w, 60_000).steps.pop();
  expect(last?.status).toBe('done');
  expect(read).toBe(3);
  expect(idsBelowHeader(w.tables.get('Partners'))).toEqual(['p0', 'p2', 'p3']);
});

test('a short list that lists another id twice at every read fails once its reads done again spend the budget', () => {
  // 200 partners, pages of 100 (page 3, past the end, confirms it): read k lists partner k a second time.
  let read = 0;
  const list = fakeList([], {
    before: (page) => {
      if (page !== 1) return;
      const ids = Array.from({ length: 200 }, (_, i) => `p${i}`);
      ids[199] = `p${read++}`;
      list.items = partners(ids);
    },
  });
  const w = world(list.fetch, [spec]);
  const last = timedDrive(w, 60_000).steps.pop();
  expect(last?.status).toBe('failed');
  // Each read takes in its two pages (the page after the last, empty, confirms the end): two pages read again.
  const reads = Math.floor((GIVE_UP.requests + 2 * GIVE_UP.perPage) / 2) + 1;
  expect(last?.message).toContain(
    `Incomplete after ${reads} reads of the list: it kept changing during the import (last read: 1 item came twice, so others were missed). The import gave up after 0 requests refused and ${2 * reads} pages read again`,
  );
  expect(read).toBe(reads);
});
