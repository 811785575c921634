/**
 * The workbench's HTTP server (loopback): the page, the real dist/Sidebar.html with a
 * google.script.run shim that calls the bundle in the emulator, and a small JSON API for the
 * grid, menus, triggers and the .xlsx export. Every POST must carry the token the page and the
 * sidebar get when they load (a page of another site cannot read it, so it cannot call
 * `saveApiKey` or anything else), and a request naming another host is refused (DNS rebinding).
 * No other site may frame the page (a framing page could lay it under its own and take clicks on
 * *Remove key*, *Import* or *Run now*): every answer forbids framing, except the sidebar, which
 * only the workbench's own page may frame. A POST body is at most 1 MB, and its fields are
 * checked before use: a wrong one is a 400 that names it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Workbench } from './workbench';
import { toXlsx } from './xlsx';

const PAGE_DIR = join(__dirname, 'page');
/** The header that carries the page's token on every POST. */
export const TOKEN_HEADER = 'x-workbench-token';

/** Provides google.script.run to the sidebar by posting each call, with the page's token, to the workbench. */
export const scriptRunShim = (token: string) => `<script>
(function () {
  var token = ${JSON.stringify(token)};
  function illegal(v, path) {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return '';
    if (typeof v === 'number') return isFinite(v) ? '' : path;
    if (Array.isArray(v)) { for (var i = 0; i < v.length; i++) { var b = illegal(v[i], path + '[' + i + ']'); if (b) return b; } return ''; }
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) { for (var k in v) { if (v[k] === undefined) continue; var c = illegal(v[k], path + '.' + k); if (c) return c; } return ''; }
    return path;
  }
  function runner(success, failure) {
    return new Proxy({}, { get: function (_, name) {
      if (name === 'withSuccessHandler') return function (f) { return runner(f, failure); };
      if (name === 'withFailureHandler') return function (f) { return runner(success, f); };
      if (name === 'withUserObject') return function () { return runner(success, failure); };
      return function () {
        var args = Array.prototype.slice.call(arguments);
        var bad = illegal(args, 'arguments');
        if (bad) { setTimeout(function () { failure && failure(new Error('Failed due to illegal value in property: ' + bad)); }); return; }
        fetch('/api/run', { method: 'POST', headers: { 'content-type': 'application/json', '${TOKEN_HEADER}': token }, body: JSON.stringify({ name: name, args: args }) })
          .then(function (r) { return r.json(); })
          .then(function (r) { if (r.ok) { success && success(r.value); } else { failure && failure(new Error(r.error)); } try { window.parent.postMessage({ type: 'workbench:changed' }, '*'); } catch (e) {} })
          .catch(function (e) { failure && failure(e); });
      };
    } });
  }
  window.google = { script: { run: runner(null, null), host: { close: function () { window.parent.postMessage({ type: 'workbench:close-sidebar' }, '*'); } } } };
})();
</script>`;

/** The furthest one move of the simulated clock goes (a week: every schedule fires at least once). */
const MAX_ADVANCE_HOURS = 24 * 7;

/** Largest POST body read (a cell holds at most 50,000 characters; an import's settings far less). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A request the workbench refuses, with the status and the reason it answers. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Refusal(413, `Request body over ${MAX_BODY_BYTES / 1024 / 1024} MB.`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Refusal(400, 'The request body is not JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Refusal(400, 'The request body must be a JSON object.');
  return parsed as Record<string, unknown>;
}

/** A field of the body that must be text (optional ones may be absent: then ''). */
function text(b: Record<string, unknown>, name: string, optional = false): string {
  const v = b[name];
  if (v === undefined && optional) return '';
  if (typeof v !== 'string') throw new Refusal(400, `"${name}" must be text.`);
  return v;
}

/** The arguments of a google.script.run call: a list (absent is none). */
function args(b: Record<string, unknown>): unknown[] {
  if (b.args === undefined) return [];
  if (!Array.isArray(b.args)) throw new Refusal(400, '"args" must be a list of the call\'s arguments.');
  return b.args;
}

/** Framing: the sidebar may be framed by the workbench's own page, nothing else by anyone. */
const frameHeaders = (framedBySelf: boolean) =>
  framedBySelf
    ? { 'content-security-policy': "frame-ancestors 'self'", 'x-frame-options': 'SAMEORIGIN' }
    : { 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'DENY' };

function send(
  res: ServerResponse,
  status: number,
  type: string,
  data: string | Buffer,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...frameHeaders(false),
    ...extra,
  });
  res.end(data);
}
const json = (res: ServerResponse, data: unknown, status = 200) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(data));

export async function startWorkbenchServer(
  wb: Workbench,
  port = 0,
  host = '127.0.0.1',
): Promise<{ url: string; server: Server }> {
  const app = await build({
    entryPoints: [join(PAGE_DIR, 'app.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  const appJs = app.outputFiles[0].text;
  const token = randomBytes(24).toString('hex');
  const page = readFileSync(join(PAGE_DIR, 'index.html'), 'utf8').replace(
    '</head>',
    () => `<meta name="workbench-token" content="${token}">\n</head>`,
  );
  const css = readFileSync(join(PAGE_DIR, 'styles.css'), 'utf8');
  let hosts: string[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://workbench.local');
    try {
      if (!hosts.includes(String(req.headers.host)))
        return json(res, { ok: false, error: 'Unknown host: open the address the workbench printed.' }, 403);
      if (req.method === 'GET' && url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', page);
      if (req.method === 'GET' && url.pathname === '/app.js')
        return send(res, 200, 'text/javascript; charset=utf-8', appJs);
      if (req.method === 'GET' && url.pathname === '/styles.css') return send(res, 200, 'text/css; charset=utf-8', css);
      if (req.method === 'GET' && url.pathname === '/sidebar') {
        const html =
          wb.emu.workbook.sidebar?.html ??
          readFileSync(join(wb.options.distDir ?? join(__dirname, '../../dist'), 'Sidebar.html'), 'utf8');
        return send(
          res,
          200,
          'text/html; charset=utf-8',
          html.replace(/<head>/i, () => `<head>${scriptRunShim(token)}`),
          frameHeaders(true),
        );
      }
      if (req.method === 'GET' && url.pathname === '/dialog') {
        if (!wb.dialog) return json(res, { ok: false, error: 'No dialog is open.' }, 404);
        return send(
          res,
          200,
          'text/html; charset=utf-8',
          wb.dialog.html.replace(/<head>/i, () => `<head>${scriptRunShim(token)}`),
          frameHeaders(true),
        );
      }
      if (req.method === 'GET' && url.pathname === '/api/state') {
        const n = (name: string) => {
          const v = url.searchParams.has(name) ? Number(url.searchParams.get(name)) : Number.NaN;
          return Number.isFinite(v) ? v : undefined;
        };
        return json(
          res,
          wb.snapshot(n('sheet'), { rows: n('rows'), cols: n('cols'), from: n('from'), count: n('count') }),
        );
      }
      if (req.method === 'GET' && url.pathname === '/api/export.xlsx') {
        const file = await toXlsx(wb.emu.workbook);
        return send(res, 200, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', file, {
          'content-disposition': 'attachment; filename="workbench.xlsx"',
        });
      }
      if (req.method !== 'POST') return json(res, { ok: false, error: 'Not found' }, 404);
      if (req.headers[TOKEN_HEADER] !== token)
        return json(
          res,
          { ok: false, error: 'Refused: this request does not come from the workbench page (reload it).' },
          403,
        );
      const b = await body(req);
      switch (url.pathname) {
        case '/api/run':
          try {
            const [name, list] = [text(b, 'name'), args(b)];
            return json(res, { ok: true, value: await wb.scriptRun(name, list) });
          } catch (e) {
            if (e instanceof Refusal) throw e;
            return json(res, { ok: false, error: (e as Error).message });
          }
        case '/api/cell':
          return json(res, { ok: true, ...wb.setCell(text(b, 'sheet'), text(b, 'a1'), text(b, 'input', true)) });
        case '/api/undo':
          return json(res, { ok: true, ...wb.undoLast() });
        case '/api/menu':
          return json(res, { ok: true, ...wb.runMenu(text(b, 'functionName')) });
        case '/api/sidebar/close':
          wb.emu.workbook.sidebar = undefined;
          return json(res, { ok: true });
        case '/api/dialog/close':
          wb.dialog = undefined;
          return json(res, { ok: true });
        case '/api/trigger':
          return json(res, { ok: true, ...wb.fireTrigger(text(b, 'id')) });
        case '/api/clock': {
          // The first step of a move names its length in hours; the next ones the time it goes to.
          const now = wb.emu.clock.now();
          const { hours, until } = b;
          const to =
            typeof until === 'number' && until > 0 && until <= now + MAX_ADVANCE_HOURS * 3600_000
              ? until
              : typeof hours === 'number' && hours > 0 && hours <= MAX_ADVANCE_HOURS
                ? now + hours * 3600_000
                : undefined;
          if (to === undefined)
            throw new Refusal(
              400,
              `"hours" must be a number above 0 and at most ${MAX_ADVANCE_HOURS}, or "until" a time at most that far ahead.`,
            );
          return json(res, { ok: true, until: to, ...wb.advanceStep(to) });
        }
        case '/api/sheet':
          wb.addSheet(text(b, 'name'));
          return json(res, { ok: true });
        default:
          return json(res, { ok: false, error: 'Not found' }, 404);
      }
    } catch (e) {
      if (e instanceof Refusal && e.status === 413) res.setHeader('connection', 'close');
      return json(res, { ok: false, error: (e as Error).message }, e instanceof Refusal ? e.status : 400);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new Error(
          e.code === 'EADDRINUSE' ? `Port ${port} is in use: start with --port N (0 picks a free one).` : e.message,
        ),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  hosts = [`${host}:${bound}`, `localhost:${bound}`];
  return { url: `http://${host}:${bound}`, server };
}
