/**
 * The reference service's admin calls (config, mutate, stats) after a blocking call: every
 * emulated execution blocks this thread (synchronous fetches wait on Atomics), so a keep-alive
 * socket to the service can be closed by the server meanwhile; an admin call must never pick up
 * such a socket and fail with "other side closed".
 */
import { type RunningService, startService } from '../../helpers/service';

/** The service closes idle keep-alive sockets after this long (dev/service/server.ts), plus Node's 1 s of grace. */
const SERVER_KEEP_ALIVE_MS = 5000 + 1000;

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '20', '--funds', '2']);
});
afterAll(() => svc.stop());

/** Blocks this thread as a synchronous emulated execution does, past the server's keep-alive timeout. */
function blockLikeAnExecution(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

test('admin calls after a blocking call longer than the keep-alive timeout still succeed', async () => {
  await svc.config({ latencyMs: 0 });
  await svc.stats();
  await svc.resetStats();
  blockLikeAnExecution(SERVER_KEEP_ALIVE_MS + 1000);
  await expect(svc.config({ latencyMs: 0 })).resolves.toEqual(expect.any(Object));
  await expect(svc.stats()).resolves.toEqual(expect.objectContaining({ recent: expect.any(Array) }));
  await expect(svc.mutate({ touch: [] })).resolves.toEqual(expect.any(Object));
  await expect(svc.resetStats()).resolves.toBeUndefined();
}, 30_000);
