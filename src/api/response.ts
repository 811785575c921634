/**
 * Reads one HTTP response: a parsed body on 200, otherwise a ServiceError with a code (which
 * alone says whether another attempt may succeed, see errors.ts) and a message an analyst can act on. Error bodies are not specified,
 * so a short `message`/`error` text is taken from a JSON body when there is one, never raw HTML.
 * A 200's body is handed on only as the copy answer.ts keeps: redacted of the key, bounded per record.
 */
import { keepAnswer } from './answer';
import { ServiceError } from './errors';
import type { JsonValue } from './records';
import { redactAndCut } from './redact';
import { parseRetryAfter } from './retry';
import { header, type HttpResponse } from './transport';

export type Interpreted = { ok: true; body: { [key: string]: JsonValue } } | { ok: false; error: ServiceError };

/** The service's own short message, redacted before it is cut (a cut key would no longer match). */
function serverText(body: string, secrets: readonly string[]): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') {
      const p = parsed as Record<string, unknown>;
      const inner = p.error && typeof p.error === 'object' ? (p.error as Record<string, unknown>) : undefined;
      const text = [p.message, inner?.message, p.error].find((v) => typeof v === 'string');
      if (typeof text === 'string') return redactAndCut(text.replace(/\s+/g, ' ').trim(), secrets, 160);
    }
  } catch {
    // not JSON: the body is not shown to the analyst
  }
  return '';
}

function secondsText(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

/** The scheme, host and path a Location header names: never its query, which may hold the key. */
function hostOfLocation(location: string | undefined): string {
  const m = /^(https?:\/\/[^/?#\s]+)([^?#\s]*)/i.exec(location?.trim() ?? '');
  return m ? `${m[1]}${m[2]}` : '';
}

export function interpret(res: HttpResponse, url: string, secrets: readonly string[], nowMs: number): Interpreted {
  const { status } = res;
  const details = { status, url, secrets };
  if (status === 200) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      // A web page (a website or a sign-in page at the address) is no broken answer to retry: the address is wrong.
      if (/^\s*</.test(res.body)) {
        const message =
          'The service address answered with a web page, not the data service: check the address in Investor Data ▸ Settings.';
        return { ok: false, error: new ServiceError('BAD_RESPONSE', message, details) };
      }
      return {
        ok: false,
        error: new ServiceError('MALFORMED', 'The data service sent an incomplete answer (not valid JSON).', details),
      };
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !('data' in parsed)) {
      return {
        ok: false,
        error: new ServiceError('MALFORMED', 'The data service answered without a "data" field.', details),
      };
    }
    return { ok: true, body: keepAnswer(parsed as Record<string, unknown>, secrets, res.body) };
  }
  const said = serverText(res.body, secrets);
  const http = `HTTP ${status}${said ? `: ${said}` : ''}`;
  if (status >= 300 && status < 400) {
    const to = redactAndCut(hostOfLocation(header(res, 'location')), secrets, 200);
    const where = to ? ` to ${to}` : '';
    const message = `The data service redirected the request${where}: not followed, so your key goes only to the address you confirmed. If the service moved, save its new address in Settings.`;
    return { ok: false, error: new ServiceError('BAD_RESPONSE', message, details) };
  }
  if (status === 401 || status === 403) {
    return {
      ok: false,
      error: new ServiceError(
        'AUTH',
        `The API key was refused (${http}). Check it in Investor Data ▸ Settings.`,
        details,
      ),
    };
  }
  if (status === 404) return { ok: false, error: new ServiceError('NOT_FOUND', `Not found (${http}).`, details) };
  if (status === 429) {
    const wait = parseRetryAfter(header(res, 'retry-after'), nowMs);
    const hint = wait !== undefined ? `, retry in ${secondsText(wait)}` : ', retry in a minute';
    return {
      ok: false,
      error: new ServiceError('RATE_LIMITED', `Rate limited by the data service${hint}.`, {
        ...details,
        retryAfterMs: wait,
        answeredAt: nowMs,
      }),
    };
  }
  if (status === 408 || status === 504) {
    return { ok: false, error: new ServiceError('TIMEOUT', `The data service timed out (HTTP ${status}).`, details) };
  }
  if (status >= 500) {
    const wait = parseRetryAfter(header(res, 'retry-after'), nowMs);
    return {
      ok: false,
      error: new ServiceError('SERVER', `The data service failed (${http}). Try again shortly.`, {
        ...details,
        retryAfterMs: wait,
        answeredAt: nowMs,
      }),
    };
  }
  if (status === 400 || status === 422) {
    return {
      ok: false,
      error: new ServiceError('BAD_INPUT', `The data service rejected the request (${http}).`, details),
    };
  }
  return {
    ok: false,
    error: new ServiceError('BAD_RESPONSE', `Unexpected answer from the data service (HTTP ${status}).`, details),
  };
}
