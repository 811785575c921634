/**
 * Diagnostics: checks, in the real environment, everything the add-in relies on (the API key,
 * the service address, both active-partner list paths and a per-id call answering as the spec
 * says, the cache, both properties stores, the trigger count against Google's limit, the day's
 * fetch count as the quota guard keeps it, and the authorization mode) and writes a plain-text
 * report a user can paste into a support request.
 * The report never holds a secret: the key shows as its last four characters, and the add-in's
 * one redaction rule (src/api/redact.ts: the key raw or URL-encoded, and any run of 8 of its
 * characters) is applied to everything, including text the service sent back. A check that this execution's authorization mode does not
 * allow is reported as skipped, never as a failure of the add-in.
 */
import { toServiceError } from '../api/errors';
import { grouped, plural } from '../api/numbers';
import { OPERATIONS } from '../api/operations';
import { isObject, type JsonValue } from '../api/records';
import { keyHint, redact } from '../api/redact';
import { interpret } from '../api/response';
import type { HttpResponse } from '../api/transport';
import { buildUrl, normaliseBaseUrl } from '../api/url';
import { clientFor, unconfirmedAddress } from '../gas/context';
import {
  cacheRoundTrip,
  isPermissionError,
  type PropertyStore,
  propertiesRoundTrip,
  serviceAddressSource,
  showDialog,
  triggerHandlers,
} from '../gas/diagnostics-probe';
import { fetchBudget, guardedUrlFetch } from '../gas/http';
import { knownSecrets, readSettings, type Settings } from '../gas/settings';
import { type Answer, answer, type Check, type CheckStatus, type Diagnostics } from '../contract';

export type { Check, CheckStatus, Diagnostics };

/** Google's limit on time-driven and other installable triggers: 20 per user per script. */
/** Google allows an add-on one time-driven trigger per user per document; the add-in needs no more. */
export const TRIGGERS_PER_DOCUMENT = 1;
const PAGINATION_FIELDS = ['totalItems', 'totalPages', 'currentPage', 'pageSize'] as const;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** What the spec requires of one page of a list: `data` a list of records, `pagination` with four whole numbers. */
export function pageProblems(body: { [key: string]: JsonValue }): string[] {
  const problems: string[] = [];
  if (!Array.isArray(body.data) || !body.data.every(isObject)) problems.push('"data" is not a list of records');
  const p = body.pagination;
  if (!isObject(p)) problems.push('no "pagination" object');
  else {
    const bad = PAGINATION_FIELDS.filter(
      (k) => !(typeof p[k] === 'number' && Number.isInteger(p[k]) && (p[k] as number) >= 0),
    );
    if (bad.length) problems.push(`pagination without a whole number in ${bad.join(', ')}`);
  }
  return problems;
}

const short = (text: string, max = 60): string => (text.length > max ? `${text.slice(0, max)}…` : text);

class Run {
  readonly checks: Check[] = [];
  /** Calls this execution was refused: what they say about the authorization mode. */
  readonly refused = new Set<'data' | 'network' | 'triggers'>();

  add(name: string, status: CheckStatus, detail: string): void {
    this.checks.push({ name, status, detail });
  }

  /** Runs a check (or several, named); a refusal of this authorization mode makes each SKIP, any other error FAIL. */
  attempt(names: string | string[], needs: 'data' | 'network' | 'triggers', body: () => void): void {
    try {
      body();
    } catch (e) {
      const refused = isPermissionError(e);
      if (refused) this.refused.add(needs);
      for (const name of typeof names === 'string' ? [names] : names) {
        if (refused) this.add(name, 'SKIP', `not allowed in this authorization mode (${short(message(e), 160)})`);
        else this.add(name, 'FAIL', short(message(e), 200));
      }
    }
  }

  get authMode(): string {
    if (this.refused.has('data')) return 'NONE';
    if (this.refused.has('network') || this.refused.has('triggers')) return 'LIMITED';
    return 'FULL';
  }
}

function checkSettings(run: Run): Settings | undefined {
  let settings: Settings | undefined;
  run.attempt('API key', 'data', () => {
    settings = readSettings();
    if (settings.apiKey)
      run.add(
        'API key',
        'OK',
        `saved in your user properties (${keyHint(settings.apiKey)}, ${settings.apiKey.length} characters)`,
      );
    else run.add('API key', 'FAIL', 'none saved: open Extensions ▸ Investor Data ▸ Settings, paste your key, Save key');
  });
  if (!settings) {
    run.add('Service address', 'SKIP', 'settings could not be read in this authorization mode');
    return undefined;
  }
  const s = settings;
  if (!s.baseUrl) {
    run.add(
      'Service address',
      'FAIL',
      'not set (there is no default): open Extensions ▸ Investor Data ▸ Settings and enter the https address your data provider gave you',
    );
    return s;
  }
  try {
    const url = normaliseBaseUrl(s.baseUrl);
    run.add('Service address', 'OK', `${url} (${serviceAddressSource() || 'unknown store'})`);
  } catch (e) {
    run.add('Service address', 'FAIL', message(e));
  }
  return s;
}

/** Both paths the spec lists for the active-partners list, in one parallel batch. Returns the first partner id seen. */
function checkListPaths(run: Run, s: Settings): string | undefined {
  const paths = OPERATIONS.getAllActiveLimitedPartners.paths;
  const names = paths.map((p) => `List path ${p}`);
  let firstId: string | undefined;
  run.attempt(names, 'network', () => {
    const base = normaliseBaseUrl(s.baseUrl);
    const started = Date.now();
    // Through the quota guard like every other fetch: the probes count, and are refused near the day's limit.
    const answers = guardedUrlFetch(s.dailyFetchLimit).fetchAll(
      paths.map((p) => ({
        url: buildUrl(base, p, { page: 1, limit: 1, apiKey: s.apiKey }),
        headers: { accept: 'application/json' },
      })),
    );
    const ms = Date.now() - started;
    const results = answers.map((res, i): { ok: boolean; detail: string } => {
      if (res instanceof Error) {
        if (isPermissionError(res)) throw res;
        return { ok: false, detail: `not reached: ${toServiceError(res, [s.apiKey]).message}` };
      }
      const read = interpret(res as HttpResponse, buildUrl(base, paths[i], {}), [s.apiKey], Date.now());
      if (!read.ok) return { ok: false, detail: read.error.message };
      const problems = pageProblems(read.body);
      if (problems.length) return { ok: false, detail: `HTTP 200 but not as the spec says: ${problems.join('; ')}` };
      const data = read.body.data as Array<Record<string, JsonValue>>;
      const p = read.body.pagination as Record<string, number>;
      if (firstId === undefined && data.length && typeof data[0].id === 'string') firstId = data[0].id;
      return {
        ok: true,
        detail: `HTTP 200 within ${ms} ms (both paths asked at once): ${data.length} record, pagination ${PAGINATION_FIELDS.map((k) => `${k} ${grouped(p[k])}`).join(', ')}`,
      };
    });
    const anyOk = results.some((r) => r.ok);
    results.forEach((r, i) => {
      const status: CheckStatus = r.ok ? 'OK' : anyOk ? 'WARN' : 'FAIL';
      run.add(names[i], status, r.ok || !anyOk ? r.detail : `${r.detail} (the add-in uses the other path)`);
    });
  });
  return firstId;
}

function checkById(run: Run, s: Settings, id: string | undefined): void {
  const name = 'Per-id call getLimitedPartnerById';
  if (id === undefined) {
    run.add(
      name,
      'SKIP',
      run.refused.has('network')
        ? 'not allowed in this authorization mode (no external requests)'
        : 'no partner id to try: neither list answered with one',
    );
    return;
  }
  run.attempt(name, 'network', () => {
    const client = clientFor('run', { ...s, ttlSeconds: 0 });
    const started = Date.now();
    const outcome = client.limitedPartners([id])[0];
    const ms = Date.now() - started;
    if (!outcome.ok) {
      if (isPermissionError(outcome.error)) throw outcome.error;
      run.add(name, 'FAIL', `${short(id)}: ${outcome.error.message}`);
    } else if (outcome.staleSince !== undefined)
      run.add(name, 'FAIL', `${short(id)}: the service failed; only a cached answer was available`);
    else if (outcome.value.id !== id)
      run.add(name, 'FAIL', `${short(id)}: the answer holds another record (${short(String(outcome.value.id))})`);
    else
      run.add(
        name,
        'OK',
        `${short(id)}: the record, in ${grouped(ms)} ms (${plural(client.stats.fetches, 'request')}, ${plural(client.stats.retries, 'retry', 'retries')})`,
      );
  });
}

function checkStores(run: Run): void {
  run.attempt('Cache', 'data', () => {
    const ok = cacheRoundTrip();
    run.add(
      'Cache',
      ok ? 'OK' : 'FAIL',
      ok
        ? 'a value written to the document cache was read back and removed'
        : 'a value written to the document cache did not come back',
    );
  });
  for (const which of ['user', 'document'] as PropertyStore[]) {
    const name = `${which === 'user' ? 'User' : 'Document'} properties`;
    run.attempt(name, 'data', () => {
      const r = propertiesRoundTrip(which);
      run.add(
        name,
        r.writable ? 'OK' : 'FAIL',
        r.writable ? 'readable and writable' : 'readable, but a value written was not read back',
      );
    });
  }
}

function checkTriggers(run: Run): void {
  run.attempt('Triggers', 'triggers', () => {
    const handlers = triggerHandlers();
    const byHandler = new Map<string, number>();
    for (const h of handlers) byHandler.set(h, (byHandler.get(h) ?? 0) + 1);
    const list = [...byHandler].map(([h, n]) => `${h} ×${n}`).join(', ');
    const status: CheckStatus = handlers.length > TRIGGERS_PER_DOCUMENT ? 'FAIL' : 'OK';
    run.add(
      'Triggers',
      status,
      `${handlers.length} of yours in this spreadsheet, of the ${TRIGGERS_PER_DOCUMENT} an add-on may have per user and document${list ? ` (${list})` : ''}`,
    );
  });
}

function render(run: Run, secret: string): string {
  const tally = (st: CheckStatus) => run.checks.filter((c) => c.status === st).length;
  const lines = [
    'Investor Data diagnostics',
    `Time: ${new Date().toISOString()}`,
    `Authorization mode: ${run.authMode}`,
    '',
    ...run.checks.map((c) => `${c.status.padEnd(4)}  ${c.name}: ${c.detail}`),
    '',
    `Summary: ${tally('OK')} ok, ${tally('WARN')} warnings, ${tally('FAIL')} failed, ${tally('SKIP')} skipped.`,
    'This report holds no secret: the API key appears only as its last four characters.',
  ];
  return redact(lines.join('\n'), [secret]);
}

/** Runs every check. Never throws: a check that cannot run says why. */
export function runDiagnostics(): Diagnostics {
  const run = new Run();
  const s = checkSettings(run);
  const bound = !!s && s.keyAddress === s.baseUrl;
  if (s?.apiKey && s.baseUrl && !bound) run.add('Key bound to this address', 'FAIL', unconfirmedAddress(s).message);
  // The key goes only to the address its holder confirmed: no probe sends it anywhere else.
  if (s?.apiKey && s.baseUrl && bound) checkById(run, s, checkListPaths(run, s));
  else
    run.add(
      'Service',
      'SKIP',
      bound || !s?.apiKey
        ? 'needs a saved API key and a service address'
        : 'the key is not sent to an address its owner has not confirmed',
    );
  checkStores(run);
  checkTriggers(run);
  run.attempt('URL fetches today', 'data', () =>
    run.add('URL fetches today', 'INFO', fetchBudget(s?.dailyFetchLimit).describeUsage()),
  );
  const secret = s?.apiKey ?? '';
  const checks = run.checks.map((c) => ({ ...c, detail: redact(c.detail, [secret]), name: redact(c.name, [secret]) }));
  return { authMode: run.authMode, checks, report: render(run, secret) };
}

/** Sidebar endpoint (google.script.run): the report and its checks. */
export function getDiagnostics(): Answer<Diagnostics> {
  return answer(runDiagnostics, knownSecrets);
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Menu item: runs the checks and shows the report in a dialog, ready to copy. */
export function showDiagnostics(): void {
  const { report } = runDiagnostics();
  const html = `<!DOCTYPE html><html><head><base target="_top"><style>body{font:13px Arial,sans-serif;margin:0 4px}textarea{box-sizing:border-box;width:100%;height:400px;font:12px monospace;white-space:pre}</style></head><body>
<p>Copy this report into your support request (click in the box, Ctrl+A, Ctrl+C). It holds no secret.</p>
<textarea id="report" readonly wrap="off" onfocus="this.select()">${escapeHtml(report)}</textarea></body></html>`;
  showDialog(html, 'Investor Data diagnostics');
}
