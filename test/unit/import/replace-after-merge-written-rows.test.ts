/**
 * A replace after a merge by id, on the rows the merge wrote: a new partner it added below the
 * table, and a listed partner's cell the analyst had edited that the merge set back to the list's
 * value. Those cells are the import's by its record, so a later replace of the same import (the
 * analyst switched its mode) rewrites the sheet without asking, as it would a table it wrote whole.
 */
import { beginRun } from '../../../src/import/machine';
import type { OutCell } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { type FakeList, fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'merge' };
const run = (w: World) => beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
const table = (w: World) => w.tables.get('Partners') as OutCell[][];
const asListed = (list: FakeList) => [['id', 'fullName'], ...list.items.map((r) => [r.id, r.fullName])];

/** A merged table of p0, p1, p2, `edit` made by the analyst and `change` to the list, merged, then a replace asked for. */
function replaceAfterMerge(edit: (t: OutCell[][]) => void, change: (list: FakeList) => void) {
  const list = fakeList(records(3));
  const w = world(list.fetch, [spec]);
  expect(run(w).status).toBe('done');
  const edited = table(w).map((r) => [...r]);
  edit(edited);
  w.tables.set('Partners', edited);
  change(list);
  expect(run(w).status).toBe('done');
  w.specs[0] = { ...w.specs[0], mode: 'replace' };
  return { done: run(w), now: table(w), list };
}

describe("the rows a merge wrote are the import's for a later replace", () => {
  test('a new partner the merge added below the table', () => {
    const { done, now, list } = replaceAfterMerge(
      () => undefined,
      (l) => {
        l.items = [...l.items, { id: 'p3', fullName: 'Name 3' }];
      },
    );
    expect(done.status).toBe('done');
    expect(now).toEqual(asListed(list));
  });

  test("a listed partner's cell the analyst edited and the merge set back to the list's value", () => {
    const { done, now, list } = replaceAfterMerge(
      (t) => {
        t[2][1] = 'Nmae 1';
      },
      () => undefined,
    );
    expect(done.status).toBe('done');
    expect(now).toEqual(asListed(list));
  });
});
