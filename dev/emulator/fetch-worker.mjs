// Worker thread behind the emulator's synchronous UrlFetchApp (synckit: the caller blocks on
// Atomics.wait while this thread does real HTTP). Requests of one call run in parallel; each
// result says how long it took, so the emulator can charge the simulated clock, and whether it was
// abandoned at the timeout (a modelled clock charges it the timeout).
import { createServer } from 'node:http';
import { runAsWorker } from 'synckit';

// Loads and exercises the HTTP client once (a request to a throwaway server on this machine), so
// that the first real request costs what later ones do: the emulator does not charge this.
async function warmUp() {
  const server = createServer((_, res) => res.end('ready'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${server.address().port}/`, { headers: { connection: 'close' } });
    await res.text();
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return [];
}

async function one(r, timeoutMs, maxBytes) {
  const started = performance.now();
  try {
    const res = await fetch(r.url, {
      method: (r.method || 'get').toUpperCase(),
      headers: r.headers || {},
      body: r.payload === undefined ? undefined : r.payload,
      redirect: r.followRedirects === false ? 'manual' : 'follow',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const buf = Buffer.from(await res.arrayBuffer());
    const headers = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });
    if (buf.length > maxBytes)
      return { error: 'Exception: Limit Exceeded: URLFetch response size.', elapsedMs: performance.now() - started };
    // Text travels as text (cheaper to pass between threads); anything else as base64.
    const textual = /json|text|xml|javascript|html/i.test(headers['content-type'] || '');
    return textual
      ? { status: res.status, headers, text: buf.toString('utf8'), elapsedMs: performance.now() - started }
      : { status: res.status, headers, body: buf.toString('base64'), elapsedMs: performance.now() - started };
  } catch (e) {
    const timedOut = !!e && (e.name === 'TimeoutError' || e.name === 'AbortError');
    const message = timedOut ? `Exception: Timeout: ${r.url}` : `Exception: Address unavailable: ${r.url}`;
    return { error: message, timedOut, elapsedMs: performance.now() - started };
  }
}

runAsWorker(async (requests, timeoutMs, maxBytes) =>
  requests === 'warm-up' ? warmUp() : Promise.all(requests.map((r) => one(r, timeoutMs, maxBytes))),
);
