/**
 * The one way the sidebar calls the server: google.script.run as promises, typed by the
 * contract in src/contract.ts. Only the contract's endpoint names compile, with their argument
 * types, and each call resolves to that endpoint's Answer; transport failures become the same
 * `{ ok: false, code, message }` shape, so the UI handles one kind of result.
 */
import type { Answer, EndpointName, Endpoints } from '../src/contract';

export type { Answer };
export type {
  FilterCondition,
  FilterField,
  FilterOp,
  ImportInput,
  ImportView,
  KeySaved,
  RunSummary,
  Schedule,
  SettingField,
  SettingsChange,
  SidebarOpened,
  SidebarState,
  SortKey,
} from '../src/contract';

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

export function call<K extends EndpointName>(
  endpoint: K,
  ...args: Parameters<Endpoints[K]>
): Promise<ReturnType<Endpoints[K]>> {
  type Result = ReturnType<Endpoints[K]>;
  const failure = (code: string, message: string) => ({ ok: false, code, message }) as Result;
  return new Promise((resolve) => {
    const run = window.google?.script.run;
    if (!run) {
      resolve(failure('NO_HOST', 'The sidebar is not running inside Google Sheets.'));
      return;
    }
    const runner = run
      .withSuccessHandler((value) => resolve(value as Result))
      .withFailureHandler((error) => resolve(failure('SCRIPT', error?.message || 'The script failed.')));
    const fn = runner[endpoint] as ((...a: unknown[]) => void) | undefined;
    if (typeof fn !== 'function') {
      resolve(failure('NO_ENDPOINT', `Unknown server function ${endpoint}.`));
      return;
    }
    fn.apply(runner, args);
  });
}
