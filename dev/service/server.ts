/**
 * The reference service over node:http (no framework: seven GET routes and a few admin routes
 * need none, and it keeps start-up and per-request cost minimal for benchmarks). It answers
 * exactly at the spec's paths, with the spec's shapes, errors as a real API gives them
 * (JSON body, never echoing the key), and optional latency, faults and quirks for tests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERATIONS, type OperationName } from '../../src/api/operations';
import type { Mutation } from './dataset';
import { openApiDocument } from './openapi';
import { hash32, mulberry32 } from './rng';
import type { FaultOptions, Quirks, ServiceOptions } from './config';
import { HttpError, route } from './routes';

export interface Stats {
  requests: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
  faults: Record<string, number>;
  /** The last 50 API requests: operation and query parameters, the key left out. */
  recent: Array<{ op: string; query: Record<string, string[]> }>;
  /**
   * The longest run of 429s in a row that one request (same path and query, the key left out) met:
   * honouring Retry-After, a client waits at least that many times the Retry-After for it.
   */
  longest429Run: number;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function errorBody(status: number, message: string): string {
  return JSON.stringify({ statusCode: status, error: STATUS_TEXT[status] ?? 'Error', message });
}

const OPERATION_BY_PATH = new Map<string, OperationName>(
  Object.values(OPERATIONS).flatMap((op) => op.paths.map((p) => [p, op.name] as [string, OperationName])),
);

export class ReferenceService {
  readonly stats: Stats = { requests: 0, byOperation: {}, byStatus: {}, faults: {}, recent: [], longest429Run: 0 };
  /** 429s in a row so far per request (path and query without the key), for `longest429Run`. */
  private readonly runs429 = new Map<string, number>();
  /** Times each request (path and query without the key or `limit`) was asked so far: its fault draw depends on that, not on arrival order. */
  private readonly attempts = new Map<string, number>();
  private readonly server: Server;
  private random: () => number;
  private url = '';

  constructor(readonly options: ServiceOptions) {
    this.random = mulberry32(options.seed);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) =>
        this.send(res, 500, errorBody(500, `Internal error: ${(e as Error).message}`)),
      );
    });
    this.server.keepAliveTimeout = 5000;
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    this.url = `http://${host}:${address.port}`;
    return this.url;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private count(table: Record<string, number>, key: string): void {
    table[key] = (table[key] ?? 0) + 1;
  }

  private send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    if (res.headersSent) return;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    });
    res.end(body);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://service.local');
    if (url.pathname.startsWith('/__') || url.pathname === '/openapi.json') return this.admin(req, res, url);
    this.stats.requests++;
    const opName = OPERATION_BY_PATH.get(url.pathname);
    this.count(this.stats.byOperation, opName ?? 'unknown');
    const query: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) if (k !== 'apiKey') (query[k] ??= []).push(v);
    query.apiKeyCount = [String(url.searchParams.getAll('apiKey').length)];
    this.stats.recent.push({ op: opName ?? url.pathname, query });
    if (this.stats.recent.length > 50) this.stats.recent.shift();
    const request = `${url.pathname}?${[...url.searchParams]
      .filter(([k]) => k !== 'apiKey')
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join('&')}`;
    const reply = (status: number, body: string, headers: Record<string, string> = {}) => {
      this.count(this.stats.byStatus, String(status));
      const run = status === 429 ? (this.runs429.get(request) ?? 0) + 1 : 0;
      if (run) this.runs429.set(request, run);
      else this.runs429.delete(request);
      this.stats.longest429Run = Math.max(this.stats.longest429Run, run);
      this.send(res, status, body, headers);
    };
    try {
      if (!opName || !this.pathServed(url.pathname)) throw new HttpError(404, `Cannot ${req.method} ${url.pathname}`);
      if (req.method !== 'GET')
        throw new HttpError(405, `Method ${req.method} not allowed; use GET.`, { allow: 'GET' });
      if (this.options.quirks.webPage)
        return reply(200, '<!doctype html><html><body><h1>Investor data</h1></body></html>', {
          'content-type': 'text/html; charset=utf-8',
        });
      const key = url.searchParams.get('apiKey');
      if (!key) throw new HttpError(401, 'Missing apiKey query parameter.');
      if (!this.options.apiKeys.includes(key)) throw new HttpError(403, 'Invalid API key.');
      await this.delay();
      if (opName === 'getAllActiveLimitedPartners') this.churn();
      // The draw's key: the request without its `limit`, so a page asked again at another limit is the same page.
      const drawn = `${url.pathname}?${[...url.searchParams]
        .filter(([k]) => k !== 'apiKey' && k !== 'limit')
        .map(([k, v]) => `${k}=${v}`)
        .sort()
        .join('&')}`;
      const attempt = (this.attempts.get(drawn) ?? 0) + 1;
      this.attempts.set(drawn, attempt);
      const fault = this.pickFault(drawn, attempt);
      if (fault) {
        this.count(this.stats.faults, fault);
        if (fault === 'slow') await sleep(this.options.faults.slowMs);
        else if (fault === 'rateLimit')
          throw new HttpError(429, 'Rate limit exceeded.', {
            'retry-after': String(this.options.faults.retryAfterSeconds),
          });
        else if (fault !== 'truncated') throw new HttpError(Number(fault.slice(5)), 'Upstream failure.');
      }
      const body = hostile(route(opName, url.searchParams, this.options), req.url ?? '', this.options.quirks);
      reply(200, fault === 'truncated' ? body.slice(0, Math.max(1, Math.floor(body.length / 2))) : body);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      reply(e.status, errorBody(e.status, e.message), e.headers);
    }
  }

  private pathServed(path: string): boolean {
    const [listed, sample] = OPERATIONS.getAllActiveLimitedPartners.paths;
    const mode = this.options.quirks.listPaths;
    return !((path === listed && mode === 'sample') || (path === sample && mode === 'listed'));
  }

  private async delay(): Promise<void> {
    const { latencyMs, jitterMs } = this.options;
    const ms = latencyMs + (jitterMs ? (this.random() * 2 - 1) * jitterMs : 0);
    if (ms > 0) await sleep(ms);
  }

  /** Changes the data under a running import, as a live service does. */
  private churn(): void {
    const ds = this.options.dataset;
    if (!ds.mutate || this.random() >= this.options.faults.churn) return;
    this.count(this.stats.faults, 'churn');
    const ids = ds.activePartnerIds();
    if (this.random() < 0.5 && ids.length > 1) ds.mutate({ deactivate: [ids[Math.floor(this.random() * ids.length)]] });
    else ds.mutate({ reorder: 'reverse' });
  }

  /**
   * The fault (if any) for the `attempt`-th asking of `request`: drawn from (seed, request, attempt),
   * so a seed gives the same faults to the same requests (a list's: the same page) whatever order
   * they arrive in.
   */
  private pickFault(request: string, attempt: number): string | undefined {
    const f = this.options.faults;
    const table: Array<[string, number]> = [
      ['error500', f.error500],
      ['error502', f.error502],
      ['error503', f.error503],
      ['rateLimit', f.rateLimit],
      ['slow', f.slow],
      ['truncated', f.truncated],
    ];
    let r = mulberry32(hash32(this.options.seed, request, attempt))();
    for (const [name, p] of table) {
      if (r < p) return name;
      r -= p;
    }
    return undefined;
  }

  private async admin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const body = await readBody(req);
    if (url.pathname === '/openapi.json' && req.method === 'GET')
      return this.send(res, 200, JSON.stringify(openApiDocument(this.url, this.options.maxPageSize)));
    if (url.pathname === '/__stats' && req.method === 'GET') return this.send(res, 200, JSON.stringify(this.stats));
    if (url.pathname === '/__stats/reset' && req.method === 'POST') {
      Object.assign(this.stats, {
        requests: 0,
        byOperation: {},
        byStatus: {},
        faults: {},
        recent: [],
        longest429Run: 0,
      });
      this.runs429.clear();
      this.attempts.clear();
      return this.send(res, 200, JSON.stringify(this.stats));
    }
    if (url.pathname === '/__admin/active-ids' && req.method === 'GET')
      return this.send(res, 200, JSON.stringify(this.options.dataset.activePartnerIds()));
    if (url.pathname === '/__admin/partner' && req.method === 'GET')
      return this.send(
        res,
        200,
        JSON.stringify(this.options.dataset.partner(url.searchParams.get('id') ?? '') ?? null),
      );
    if (url.pathname === '/__admin/config' && req.method === 'POST') {
      const patch = JSON.parse(body || '{}') as Partial<Omit<ServiceOptions, 'faults' | 'quirks'>> & {
        faults?: Partial<FaultOptions>;
        quirks?: Partial<Quirks>;
      };
      const o = this.options;
      if (patch.faults) o.faults = { ...o.faults, ...patch.faults };
      if (patch.quirks) o.quirks = { ...o.quirks, ...patch.quirks };
      for (const k of ['latencyMs', 'jitterMs', 'maxPageSize'] as const)
        if (typeof patch[k] === 'number') o[k] = patch[k];
      if (typeof patch.seed === 'number') {
        o.seed = patch.seed;
        this.random = mulberry32(patch.seed);
        this.attempts.clear();
      }
      return this.send(
        res,
        200,
        JSON.stringify({
          faults: o.faults,
          quirks: o.quirks,
          latencyMs: o.latencyMs,
          jitterMs: o.jitterMs,
          maxPageSize: o.maxPageSize,
        }),
      );
    }
    if (url.pathname === '/__admin/mutate' && req.method === 'POST' && this.options.dataset.mutate) {
      this.options.dataset.mutate(JSON.parse(body || '{}') as Mutation);
      return this.send(res, 200, JSON.stringify({ activePartners: this.options.dataset.activePartnerIds().length }));
    }
    this.send(res, 404, errorBody(404, `Cannot ${req.method} ${url.pathname}`));
  }
}

/** An answer as JSON text, with the hostile quirks applied (a deep value cannot be built as an object and stringified: it is spliced in as text). */
function hostile(answer: Record<string, unknown>, requestUrl: string, q: Quirks): string {
  const asked = new URL(requestUrl, 'http://service.local').searchParams;
  const id = asked.get('limitedPartnerId') ?? asked.get('ventureFundId');
  if (id !== null && q.emptyFor?.includes(id)) return JSON.stringify({ data: [] });
  const data = answer.data;
  const records = (Array.isArray(data) ? data : [data]).filter(
    (r): r is Record<string, unknown> => typeof r === 'object' && r !== null,
  );
  const deep = q.deepField;
  const DEEP = '\u0000deep\u0000';
  const out = records.map((r): unknown => {
    const copy = { ...r };
    const odd =
      q.oddRecords && typeof r.id === 'string' ? Object.getOwnPropertyDescriptor(q.oddRecords, r.id) : undefined;
    if (odd && !(typeof odd.value === 'object' && odd.value !== null && !Array.isArray(odd.value))) return odd.value;
    // Defined, not assigned: a field named `__proto__` is answered as one.
    for (const [k, v] of Object.entries(odd?.value ?? {}))
      Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true });
    if (q.echoUrlIn) copy[q.echoUrlIn] = `http://service.local${requestUrl}`;
    if (deep && r.id === deep.id) copy[deep.field] = DEEP;
    const other =
      q.idOverrides && typeof r.id === 'string' ? Object.getOwnPropertyDescriptor(q.idOverrides, r.id) : undefined;
    if (other?.value === null) delete copy.id;
    else if (other) copy.id = other.value;
    return copy;
  });
  if (!q.echoUrlIn && !deep && !q.idOverrides && !q.oddRecords) return JSON.stringify(answer);
  const text = JSON.stringify({ ...answer, data: Array.isArray(data) ? out : (out[0] ?? data) });
  return deep ? text.replace(JSON.stringify(DEEP), '['.repeat(deep.depth) + ']'.repeat(deep.depth)) : text;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
