/**
 * What a cell answers before it fetches anything (src/api/partners.ts): a blank id is refused
 * without a request, an id whose fresh answer is cached is answered from the cache without
 * reading the cell's neighbours (one cache read in all), and an id a fresh snapshot holds is
 * answered from the snapshot (an id with a fresh answer of its own keeps it).
 */
import { json } from '../../helpers/fakes';
import { answers, partnerWorld } from '../../helpers/partner-world';

test('blank ids are refused as empty, with no request, next to an id that is asked for', () => {
  const w = partnerWorld();
  const out = w.execution('mine').lookup(['', '  ', null as unknown as string, 'lp_x']);
  expect(answers(out)).toEqual(['BAD_INPUT', 'BAD_INPUT', 'BAD_INPUT', 'lp_x']);
  expect(out[0].ok ? '' : out[0].error.message).toBe('An id is empty.');
  expect(w.idRequests()).toEqual(['lp_x']);
});

test('a cell whose answer is cached is answered without a request and without reading its neighbours', () => {
  const w = partnerWorld();
  expect(answers(w.execution('first').lookup(['lp_x']))).toEqual(['lp_x']);
  const after = w.log();
  const neighbours = jest.fn(() => ({ ids: ['lp_y'], column: ['lp_y'], group: 'S:1:0' }));
  expect(answers(w.execution('mine').lookup(['lp_x'], neighbours))).toEqual(['lp_x']);
  expect(neighbours).not.toHaveBeenCalled();
  expect(after.count()).toBe(0);
});

test('an id the fresh snapshot holds is answered from it, without a request or reading the neighbours', () => {
  const w = partnerWorld();
  // A range reads the list (and publishes the snapshot); ids[200] is in the snapshot but was not asked for.
  w.readRange();
  const after = w.log();
  const neighbours = jest.fn(() => ({ ids: [], column: [], group: 'S:1:0' }));
  const out = w.execution('mine').lookup([w.ids[200]], neighbours);
  expect(answers(out)).toEqual([w.ids[200]]);
  expect(out[0].ok && out[0].staleSince).toBeUndefined();
  expect(neighbours).not.toHaveBeenCalled();
  expect(after.count()).toBe(0);
});

test('a cell answered from the cache costs one cache read', () => {
  const w = partnerWorld();
  expect(answers(w.execution('first').lookup(['lp_x']))).toEqual(['lp_x']);
  const lookup = w.execution('mine');
  const reads = w.store.getAllCalls;
  expect(answers(lookup.lookup(['lp_x']))).toEqual(['lp_x']);
  expect(w.store.getAllCalls - reads).toBe(1);
});

test("an id with a fresh answer of its own keeps it beside ids the snapshot answers: the snapshot's copy does not replace it", () => {
  const w = partnerWorld();
  w.readRange();
  // ids[200] asked for on its own since: the service now gives another name.
  w.hooks.onId = (id) => json(200, { data: [{ id, fullName: 'Renamed', activeStatus: 'ACTIVE' }] });
  expect(answers(w.execution('fetcher').client.limitedPartners([w.ids[200]]))).toEqual([w.ids[200]]);
  w.hooks.onId = undefined;
  const after = w.log();
  const out = w.execution('mine').lookup([w.ids[200], w.ids[201]]);
  expect(out.map((o) => (o.ok ? o.value.fullName : o.error.code))).toEqual(['Renamed', `Name ${w.ids[201]}`]);
  expect(after.count()).toBe(0);
});
