/**
 * The one way the sidebar calls the server: google.script.run as promises. Arguments must be
 * JSON-safe; server endpoints answer `{ ok, … }`, and transport failures become the same
 * `{ ok: false, code, message }` shape, so the UI handles one kind of result.
 */

/** What google.script.run can carry: JSON values only (no Date, function or undefined). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export type Answer<T> = ({ ok: true } & T) | { ok: false; code: string; message: string };

interface ScriptRun {
  withSuccessHandler(f: (value: unknown) => void): ScriptRun;
  withFailureHandler(f: (error: { message?: string }) => void): ScriptRun;
  [endpoint: string]: unknown;
}

declare global {
  interface Window {
    google?: { script: { run: ScriptRun } };
  }
}

export function call<T extends object>(endpoint: string, ...args: Json[]): Promise<Answer<T>> {
  return new Promise((resolve) => {
    const run = window.google?.script.run;
    if (!run) {
      resolve({ ok: false, code: 'NO_HOST', message: 'The sidebar is not running inside Google Sheets.' });
      return;
    }
    const runner = run
      .withSuccessHandler((value) => resolve(value as Answer<T>))
      .withFailureHandler((error) => resolve({ ok: false, code: 'SCRIPT', message: error?.message || 'The script failed.' }));
    const fn = runner[endpoint] as ((...a: unknown[]) => void) | undefined;
    if (typeof fn !== 'function') {
      resolve({ ok: false, code: 'NO_ENDPOINT', message: `Unknown server function ${endpoint}.` });
      return;
    }
    fn.apply(runner, args);
  });
}
