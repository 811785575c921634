/**
 * `perRequest`, the transport over an all-or-nothing batch sender (UrlFetchApp.fetchAll): exactly
 * one outcome per request, the sender never called for nothing, nothing started after `until`, a
 * single request that cannot be sent not sent twice, and requests sent again alone up to and
 * including the instant `until`.
 */
import { type ServiceError, unsent } from '../../../src/api/errors';
import { type Admit, type HttpRequest, type HttpResponse, perRequest } from '../../../src/api/transport';
import { FakeClock, json } from '../../helpers/fakes';

const req = (id: string): HttpRequest => ({ url: `https://data.example.com/x?id=${id}`, headers: {} });
const idOf = (r: HttpRequest) => new URL(r.url).searchParams.get('id') as string;

/** A batch sender that records its batches, costs `costMs` of the clock, and throws when any id is unsendable. */
function sender(clock: FakeClock, unsendable: ReadonlySet<string> = new Set(), costMs = 0) {
  const batches: string[][] = [];
  const send = (requests: readonly HttpRequest[]): HttpResponse[] => {
    batches.push(requests.map(idOf));
    clock.t += costMs;
    if (requests.some((r) => unsendable.has(idOf(r)))) throw new Error('Address unavailable');
    return requests.map((r) => json(200, { id: idOf(r) }));
  };
  return { batches, send };
}
const codes = (out: Array<HttpResponse | Error>) =>
  out.map((o) => (o instanceof Error ? ((o as ServiceError).code ?? o.message) : o.status));

test('one outcome per request, in order, without a quota guard', () => {
  const clock = new FakeClock();
  const { send } = sender(clock);
  const out = perRequest(send, () => clock.now()).fetchAll([req('a'), req('b')]);
  expect(out.map((o) => !(o instanceof Error) && JSON.parse(o.body).id)).toEqual(['a', 'b']);
});

test('the requests the quota guard refuses get its error, one each, after the answers of those it admits', () => {
  const clock = new FakeClock();
  const { batches, send } = sender(clock);
  const refusal = unsent();
  const admit: Admit = () => ({ admitted: 1, refusal });
  const out = perRequest(send, () => clock.now(), admit).fetchAll([req('a'), req('b'), req('c')]);
  expect(out).toHaveLength(3);
  expect(out.slice(1)).toEqual([refusal, refusal]);
  expect(batches).toEqual([['a']]);
});

test('when the guard refuses every request, the sender is not called', () => {
  const clock = new FakeClock();
  const { batches, send } = sender(clock);
  const refusal = unsent();
  const out = perRequest(
    send,
    () => clock.now(),
    () => ({ admitted: 0, refusal }),
  ).fetchAll([req('a')]);
  expect(out).toEqual([refusal]);
  expect(batches).toEqual([]);
});

test('no requests: nothing asked of the guard or the sender, no outcome', () => {
  const clock = new FakeClock();
  const { batches, send } = sender(clock);
  const admit = jest.fn<ReturnType<Admit>, [number]>((n) => ({ admitted: n }));
  expect(perRequest(send, () => clock.now(), admit).fetchAll([], clock.now())).toEqual([]);
  expect(admit).not.toHaveBeenCalled();
  expect(batches).toEqual([]);
});

test('after `until` nothing is sent: every request is UNSENT; at `until` exactly they still go', () => {
  const clock = new FakeClock();
  const { batches, send } = sender(clock);
  const transport = perRequest(send, () => clock.now());
  const late = transport.fetchAll([req('a'), req('b')], clock.now() - 1);
  expect(codes(late)).toEqual(['UNSENT', 'UNSENT']);
  expect(batches).toEqual([]);
  expect(codes(transport.fetchAll([req('a')], clock.now()))).toEqual([200]);
});

test('a single request that cannot be sent is not sent again: it keeps the error', () => {
  const clock = new FakeClock();
  const { batches, send } = sender(clock, new Set(['a']));
  const out = perRequest(send, () => clock.now()).fetchAll([req('a')]);
  expect(out[0]).toBeInstanceOf(Error);
  expect(batches).toEqual([['a']]);
});

test('after a batch that throws, a request whose turn comes exactly at `until` is still sent alone', () => {
  const clock = new FakeClock();
  const until = clock.now() + 1000;
  const { batches, send } = sender(clock, new Set(['a']), 500);
  const out = perRequest(send, () => clock.now()).fetchAll([req('a'), req('b'), req('c')], until);
  // The batch ends at +500, 'a' alone at +1000 = until: 'b' still goes (and ends at +1500), 'c' does not.
  expect(batches).toEqual([['a', 'b', 'c'], ['a'], ['b']]);
  expect(codes(out)).toEqual(['Address unavailable', 200, 'UNSENT']);
});
