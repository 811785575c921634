/**
 * The shared partner snapshot an import leaves (src/import/machine.ts over the snapshot port): a
 * run that fetched every record it writes sends them, those with a usable id, in list order, and
 * publishes them once the list is complete; a run that took pages back from staging (whose records
 * it no longer has) or read nothing publishes none.
 */
import type { ServiceRecord } from '../../../src/api/records';
import { CHUNK_RECORDS } from '../../../src/api/snapshot';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';
import { limited, timedDrive } from '../../helpers/import-drive';

const spec: ImportSpec = { id: 'imp1', sheetName: 'Partners', fields: ['id', 'fullName'], mode: 'replace' };

/** Ports with a snapshot that records what it is sent and what is published. */
function withSnapshot(w: World, present: (execution: number) => boolean = () => true) {
  let execution = 0;
  const sent: Array<{ gen: string; first: number; ids: unknown[] }> = [];
  const published: Array<[string, number]> = [];
  const next = w.nextExecution.bind(w);
  w.nextExecution = () => {
    const ports = next();
    if (!present(execution++)) return ports;
    ports.snapshot = {
      write: (gen, first, recs: readonly ServiceRecord[]) => {
        sent.push({ gen, first, ids: recs.map((r) => r.id) });
        return Math.ceil(recs.length / CHUNK_RECORDS);
      },
      publish: (gen, chunks) => {
        published.push([gen, chunks]);
      },
    };
    return ports;
  };
  return { sent, published };
}

test('a complete read sends the records with a usable id, in list order, and publishes them', () => {
  const items = records(250);
  items[10] = { ...items[10], id: '' };
  items[20] = { fullName: 'No id at all' };
  const w = world(fakeList(items).fetch, [spec]);
  const { sent, published } = withSnapshot(w);
  expect(timedDrive(w, 60_000).steps.pop()?.status).toBe('done');
  const ids = sent.flatMap((s) => s.ids);
  expect(ids).toEqual(items.map((r) => r.id).filter((id) => id !== '' && id !== undefined));
  const chunks = sent.reduce((n, s) => n + Math.ceil(s.ids.length / CHUNK_RECORDS), 0);
  expect(chunks).toBeGreaterThan(0);
  expect(published).toEqual([[sent[0].gen, chunks]]);
});

test('an empty list publishes no snapshot', () => {
  const w = world(fakeList([]).fetch, [spec]);
  const { published } = withSnapshot(w);
  expect(timedDrive(w, 60_000).steps.pop()?.status).toBe('done');
  expect(published).toEqual([]);
});

test('a run that took pages back from staging publishes nothing, though it sent the records it fetched', () => {
  const list = fakeList(records(2500), { fail: (page, call) => (page === 3 && call < 10 ? limited(15) : undefined) });
  const w = world(list.fetch, [spec]);
  const { sent, published } = withSnapshot(w);
  const { steps } = timedDrive(w, 15_000);
  expect(steps.length).toBeGreaterThan(1);
  expect(steps.pop()?.status).toBe('done');
  expect(sent.length).toBeGreaterThan(0);
  expect(published).toEqual([]);
});

test('a run whose first step had no snapshot to write to sends and publishes none: the records of that step are missing', () => {
  const w = world(fakeList(records(2500)).fetch, [spec], { msPerFetch: 1000 });
  const { sent, published } = withSnapshot(w, (execution) => execution > 0);
  const { steps } = timedDrive(w, 15_000);
  expect(steps.length).toBeGreaterThan(1);
  expect(steps.pop()?.status).toBe('done');
  expect(sent).toEqual([]);
  expect(published).toEqual([]);
});
