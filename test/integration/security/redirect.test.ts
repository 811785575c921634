/**
 * A redirect from the confirmed service address is not followed: the key is in the query, and a
 * redirect (a moved domain, a gateway, http to https keeping the query) would take it to an address
 * its owner never confirmed. The cell names where the service pointed, without the query.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { addin } from '../../helpers/addin';
import { type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
let redirector: ChildProcess;
let port = 0;
/** Answers every request with 301 to the same path and query on the reference service, and counts them. */
const SCRIPT = `
const http = require('http'); let seen = 0;
const s = http.createServer((req, res) => {
  if (req.url === '/_seen') { res.end(String(seen)); return; }
  seen += 1;
  res.writeHead(301, { Location: process.argv[1] + req.url }); res.end();
});
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;

beforeAll(async () => {
  svc = await startService(['--partners', '6']);
  redirector = spawn(process.execPath, ['-e', SCRIPT, svc.url]);
  port = await new Promise<number>((ok) => redirector.stdout?.once('data', (d) => ok(Number(String(d).trim()))));
}, 60_000);
afterAll(() => {
  svc.stop();
  redirector.kill();
});

test('a 301 from the confirmed address: the other address receives nothing, the cell names the target', async () => {
  await svc.resetStats();
  const a = addin(`http://127.0.0.1:${port}`);
  const r = a.cell('LP_GET', 'lp_00000', 'fullName');
  expect((await svc.stats()).requests).toBe(0);
  expect(r.error).toMatch(
    /^The data service redirected the request to http:\/\/127\.0\.0\.1:\d+\/\S*getLimitedPartnerById: not followed, so your key goes only to the address you confirmed\./,
  );
  expect(r.error).toContain(`to ${svc.url}/`);
  expect(r.error).not.toMatch(/\?|apiKey/);
  expect(Number(await (await fetch(`http://127.0.0.1:${port}/_seen`)).text())).toBeGreaterThan(0);
});
